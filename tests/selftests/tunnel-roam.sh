#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Roaming: a peer's endpoint follows the last authenticated packet from it
# (Documentation/architecture.rst, "Receiving a packet", step 4). Side 1
# moves while a numbered UDP stream runs through the tunnel both ways
# (stream.py): first to another outer IPv4 address (a new address on its
# veth, the old one removed), then from IPv4 to IPv6 outside (side 1
# loses its IPv4 address and is told side 2's IPv6 endpoint). After each move
# side 2's endpoint of side 1 (noisectl show --json) is the new address,
# `noisectl monitor` on side 2 printed the endpoint event with it, and the
# stream went on through the new path in both directions (datagrams sent
# after the endpoint followed arrived, none twice); the datagrams lost and
# the longest gap of each move are printed. Before that, packets from a
# third address that do not authenticate (captured transport messages
# replayed, the same with a counter their tag does not cover, a captured
# handshake initiation replayed) are refused and counted by reason, and
# the endpoint does not move, nor does an endpoint event name that address.
#
# Then the outer route (socket.c): a better route to side 2 over a second
# veth pair, with that veth's source address, is taken with its source
# (side 2's endpoint of side 1 follows; back when the route goes), IPv6
# and IPv4; side 2's outer address routed into noise0 on side 1 is a loop:
# nothing sent, drop_loop counts it, the tunnel works when the route goes.
# Last a NAT: side 1 behind a masquerading namespace, a new tunnel through
# it, a stream across a change of the NAT's mapping (side 2 follows), and
# the NAT's short UDP timeout: after an idle longer than it side 2 reaches
# side 1 with a persistent keepalive and not without.
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout sysctl nft "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s
UDP="python3 $st_here/udp.py"
RATE=100
# The third address: on side 1's veth, in a subnet of its own (a /32: not
# a secondary of 10.99.0.1/24, so the move below does not promote it).
FORGER=10.97.0.3
FORGE=$st_tmp/forge.py

# forge.py SRC ADDR PORT DIR: from SRC, every captured transport message
# in DIR/transport sent again, then each with a counter 2^20 higher (its
# tag does not cover it), then DIR/msg1; prints the expected counts.
cat > "$FORGE" << 'EOF'
import os, socket, struct, sys
src, addr, port, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def lines(name):
    with open(os.path.join(d, name)) as f:
        return [bytes.fromhex(x.strip()) for x in f if x.strip()]
tr, m1 = lines('transport'), lines('msg1')
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((src, 0))
for m in tr:
    s.sendto(m, (addr, port))
for m in tr:
    p = bytearray(m)
    struct.pack_into('<Q', p, 8, struct.unpack_from('<Q', p, 8)[0] + (1 << 20))
    s.sendto(bytes(p), (addr, port))
for m in m1:
    s.sendto(m, (addr, port))
print('drop_replay=%d drop_auth=%d drop_handshake=%d' % (len(tr), len(tr), len(m1)))
EOF

monitor_start() {
	nt_bg 2 "$st_tmp/monitor.out" "$NOISECTL" monitor "$NT_DEV"
	MONITOR=$NT_BG
	sleep 1
	kill -0 "$MONITOR" || { cat "$st_tmp/monitor.out"; return 1; }
}

ep2() {	# side 2's endpoint of side 1
	nt_json 2 --arg k "$NT_PUB1" '.peers[] | select(.public_key == $k) | .endpoint'
}

# setup: the tunnel, the monitor, the third address; side 2's veth
# captured (dport 51822) while side 1 makes the session: message 1 and
# transport messages, for the forgeries.
setup() {
	nt_dev 1 && nt_dev 2 && nt_up "$PROTO" 4 || return 1
	nt_x 1 ip addr add "$FORGER/32" dev veth0 && monitor_start || return 1
	st_capture_start "$st_tmp/cap" nt_x 2 $UDP sniff veth0 "$NT_PORT2" 60 || return 1
	nt_ping_first 1 "$NT_IN4_2" > /dev/null || return 1
	st_capture_stop "$st_tmp/cap"
	mkdir -p "$st_tmp/msgs"
	grep '^010101' "$st_tmp/cap" | head -n 1 > "$st_tmp/msgs/msg1"
	grep '^0301' "$st_tmp/cap" > "$st_tmp/msgs/transport"
	echo "captured: $(wc -l < "$st_tmp/msgs/msg1") message 1, $(wc -l < "$st_tmp/msgs/transport") transport"
	st_eq "message 1 captured" "$(wc -l < "$st_tmp/msgs/msg1")" 1 &&
	st_ge "transport messages captured" "$(wc -l < "$st_tmp/msgs/transport")" 3 &&
	st_eq "side 2's endpoint of side 1" "$(ep2)" "10.99.0.1:$NT_PORT1"
}

# counters FILE: drop_replay drop_auth drop_handshake and side 2's
# endpoint of side 1, from one `noisectl show --json` of side 2 (kept in
# FILE).
counters() {
	nt_ctl 2 show "$NT_DEV" --json > "$1" &&
	jq -r --arg k "$NT_PUB1" '"drop_replay=\(.stats.drop_replay) drop_auth=\(.stats.drop_auth) drop_handshake=\(.stats.drop_handshake) endpoint=\(.peers[] | select(.public_key == $k) | .endpoint)"' "$1"
}

# forged: the forgeries from the third address: each reason grows by what
# was sent, the endpoint stays, no endpoint event names the forger, and
# the tunnel still works.
forged() {
	local before after want got k b a
	before=$(counters "$st_tmp/before.json") || return 1
	want=$(nt_x 1 python3 "$FORGE" "$FORGER" 10.99.0.2 "$NT_PORT2" "$st_tmp/msgs") || return 1
	sleep 1
	after=$(counters "$st_tmp/after.json") || return 1
	echo "sent from $FORGER: $want"
	echo "side 2 before: $before"
	echo "side 2 after:  $after"
	got=""
	for k in drop_replay drop_auth drop_handshake; do
		b=$(echo "$before" | sed -n "s/.*$k=\([0-9]*\).*/\1/p")
		a=$(echo "$after" | sed -n "s/.*$k=\([0-9]*\).*/\1/p")
		got="$got $k=$((a - b))"
	done
	st_eq "drop counters grown" "${got# }" "$want" &&
	st_eq "side 2's endpoint of side 1" "${after##*endpoint=}" "10.99.0.1:$NT_PORT1" || return 1
	if grep -F $'\t'endpoint$'\t' "$st_tmp/monitor.out" | grep -q "$FORGER"; then
		echo "an endpoint event names the forger:"
		cat "$st_tmp/monitor.out"
		return 1
	fi
	nt_ping 1 "$NT_IN4_2"
}

# stream_start: nt_stream_start (lib.sh, stream.py) at $RATE datagrams/s.
stream_start() {
	nt_stream_start "$RATE"
}

stream_stop() {
	touch "$st_tmp/stop"
	wait "$SEND1" "$SEND2" "$RECV1" "$RECV2"
}

# follows WANT: side 2's endpoint of side 1 becomes WANT (within 60 s:
# the stream's next datagram from side 1 moves it), and `noisectl
# monitor` prints the event with WANT.
follows() {
	local want=$1 end=$((SECONDS + 60)) ep
	while :; do
		ep=$(ep2)
		{ [ "$ep" = "$want" ] || ((SECONDS >= end)); } && break
		st_nap 0.5
	done
	st_eq "side 2's endpoint of side 1" "$ep" "$want" || return 1
	end=$((SECONDS + 30))
	while ((SECONDS < end)); do
		grep -qF "$NT_DEV"$'\t'endpoint$'\t'"$NT_PUB1"$'\t'"$want" "$st_tmp/monitor.out" &&
			return 0
		st_nap 0.5
	done
	echo "no endpoint event for $want; noisectl monitor printed:"
	cat "$st_tmp/monitor.out"
	return 1
}

# Another IPv4 address: 10.99.0.11 added (a secondary, promoted when the
# primary goes), 10.99.0.1 removed.
new_v4() {
	nt_x 1 sysctl -q -w net.ipv4.conf.veth0.promote_secondaries=1 &&
	nt_x 1 ip addr add 10.99.0.11/24 dev veth0 &&
	nt_x 1 ip addr del 10.99.0.1/24 dev veth0
}

# IPv6: side 1 loses its IPv4 address, then is told side 2's IPv6
# endpoint. (In the other order a datagram side 2 still sends over IPv4
# can move side 1's endpoint of side 2 back to IPv4 before the address
# goes: roaming works both ways; then neither side reaches the other.)
to_v6() {
	nt_x 1 ip addr del 10.99.0.11/24 dev veth0 &&
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" endpoint "[fd99::2]:$NT_PORT2"
}

# moves: one stream both ways across both moves. Move K: its change, the
# endpoint follows (follows), then mark K: window K of the stream holds
# move K, window K + 1 what was sent after the endpoint followed.
moves() {
	local rc=0 k s r sent
	stream_start
	sleep 2
	new_v4 && follows "10.99.0.11:$NT_PORT1" && touch "$st_tmp/stop.mark1" &&
	sleep 2 &&
	to_v6 && follows "[fd99::1]:$NT_PORT1" && touch "$st_tmp/stop.mark2" &&
	sleep 2 || rc=1
	stream_stop
	for s in 1 2; do
		r=$((3 - s))
		sent=$(sed -n 's/^sent=\([0-9]*\).*/\1/p' "$st_tmp/send-$s")
		echo "side $s -> side $r: $(cat "$st_tmp/send-$s"); $(grep received "$st_tmp/recv-$r")"
		echo "  move 1 (to 10.99.0.11): $(grep "^window=1 " "$st_tmp/recv-$r")"
		echo "  move 2 (to IPv6):       $(grep "^window=2 " "$st_tmp/recv-$r")"
		echo "  after both:             $(grep "^window=3 " "$st_tmp/recv-$r")"
		[ $rc = 0 ] || continue
		st_ge "side $s -> side $r datagrams sent" "$sent" 50 || rc=1
		st_eq "side $s -> side $r duplicated" "$(sed -n 's/.* dup=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")" 0 || rc=1
		for k in 2 3; do
			st_ge "side $s -> side $r datagrams after move $((k - 1))'s endpoint followed" \
				"$(sed -n "s/^window=$k datagrams=\([0-9]*\).*/\1/p" "$st_tmp/recv-$r")" 10 || rc=1
		done
	done
	echo "side 2 drops: $(nt_ctl 2 show "$NT_DEV" --json | jq -c '.stats | with_entries(select((.key | startswith("drop")) and .value > 0))')"
	# Where else the lost ones may have gone: the receivers' socket
	# buffers (Udp RcvbufErrors), the devices' own drop counters.
	for s in 1 2; do
		echo "side $s: $(nt_x $s grep -A1 '^Udp:' /proc/net/snmp | tr '\n' ' ')"
		echo "side $s: $(nt_x $s grep -H . /sys/class/net/noise0/statistics/{rx,tx}_{dropped,errors} \
			/sys/class/net/veth0/statistics/{rx,tx}_dropped | sed 's|/sys/class/net/||; s|/statistics/|.|' | tr '\n' ' ')"
	done
	return $rc
}

# ---------------------------------------------------------------------
# The outer route. ep_becomes WANT: side 1 pings side 2 through the tunnel
# (its packets move side 2's endpoint of side 1) until that endpoint is
# WANT (within 20 s).
ep_becomes() {
	local want=$1 end=$((SECONDS + 20)) ep
	while :; do
		nt_x 1 ping -c 1 -W 1 -q "$NT_IN4_2" > /dev/null 2>&1
		ep=$(ep2)
		[ "$ep" = "$want" ] && return 0
		((SECONDS < end)) || break
	done
	st_eq "side 2's endpoint of side 1" "$ep" "$want"
}

# second_link: another veth pair between the sides, veth1: 10.98.0.1/24
# fd98::1/64 on side 1, .2 and ::2 on side 2.
# (One ip -batch per namespace: every process costs in the debug guest.)
second_link() {
	local s
	ip -n "$NT_NS1" link add veth1 type veth peer name veth1 netns "$NT_NS2" || return 1
	for s in 1 2; do
		ip -n "$(nt_ns $s)" -batch - << EOF || return 1
addr add 10.98.0.$s/24 dev veth1
addr add fd98::$s/64 dev veth1 nodad
link set veth1 up
EOF
	done
}

# src_route 4|6: side 1 reaches side 2 over veth0 with the source side 2's
# packets came to (kept by side 1's endpoint of side 2); then a better
# route to side 2 over veth1 with veth1's source: side 1's packets leave
# with that source (side 2's endpoint of side 1 becomes it); the route
# removed, the veth0 source again.
src_route() {
	local fam="-$1" old new dst via
	if [ "$1" = 4 ]; then
		old=10.99.0.1:$NT_PORT1 new=10.98.0.1:$NT_PORT1
		dst=10.99.0.2/32 via="10.98.0.2 dev veth1 src 10.98.0.1"
		nt_x 1 ip addr replace 10.99.0.1/24 dev veth0 &&
		nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" endpoint "10.99.0.2:$NT_PORT2" ||
			return 1
	else
		old="[fd99::1]:$NT_PORT1" new="[fd98::1]:$NT_PORT1"
		dst=fd99::2/128 via="fd98::2 dev veth1 src fd98::1"
	fi
	ep_becomes "$old" && nt_ping 2 "$NT_IN4_1" 1 > /dev/null || return 1
	echo "side 2's endpoint of side 1: $old"
	# shellcheck disable=SC2086 # $via: words
	nt_x 1 ip "$fam" route add "$dst" via $via || return 1
	echo "side 1: $(nt_x 1 ip "$fam" route get "${dst%/*}" | head -n 1)"
	if ! ep_becomes "$new"; then
		nt_x 1 ip "$fam" route del "$dst"
		return 1
	fi
	echo "route over veth1 with its source: $new"
	nt_x 1 ip "$fam" route del "$dst" && ep_becomes "$old" &&
	echo "route removed: $old" && nt_ping 2 "$NT_IN4_1" 1 > /dev/null
}

# loop 4|6: side 2's outer address routed into noise0 on side 1 and in
# side 2's allowed IPs there, so that side 1's messages to side 2 would
# come back to noise0: pings get nothing, each message is dropped and
# counted (drop_loop), nothing is sent, the stack saw no loop (its "Dead
# loop" message); the route removed, pings pass.
dead_loops() {
	dmesg | grep -c "Dead loop on virtual device $NT_DEV"
}

loop_stats() {	# side 1's drop_loop and tx_packets
	nt_json 1 '"\(.stats.drop_loop) \(.stats.tx_packets)"'
}

loop() {
	local fam="-$1" ep dst aips="$NT_IN4_2/32,$NT_IN6_2/128" l0 l1 t0 t1 d0 d1
	if [ "$1" = 4 ]; then
		ep=10.99.0.2:$NT_PORT2 dst=10.99.0.2/32
	else
		ep="[fd99::2]:$NT_PORT2" dst=fd99::2/128
	fi
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" endpoint "$ep" &&
	nt_ping 1 "$NT_IN4_2" 1 > /dev/null || return 1
	read -r l0 t0 < <(loop_stats) || return 1
	d0=$(dead_loops)
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" allowed-ips "$aips,$dst" &&
	nt_x 1 ip "$fam" route add "$dst" dev "$NT_DEV" || return 1
	echo "side 1: $(nt_x 1 ip "$fam" route get "${dst%/*}" | head -n 1)"
	nt_noping 1 "$NT_IN4_2" > /dev/null
	local rc=$?
	read -r l1 t1 < <(loop_stats)
	d1=$(dead_loops)
	echo "side 1 while looped: drop_loop $l0 -> $l1, tx_packets $t0 -> $t1, kernel \"Dead loop\" messages $d0 -> $d1"
	nt_x 1 ip "$fam" route del "$dst"
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" allowed-ips "$aips" || return 1
	[ $rc = 0 ] || st_fail "a ping got an answer" || return 1
	st_ge "messages dropped as looping" "$((l1 - l0))" 3 &&
	st_eq "packets sent while looped" "$((t1 - t0))" 0 &&
	st_eq "kernel \"Dead loop\" messages" "$((d1 - d0))" 0 &&
	nt_ping 1 "$NT_IN4_2" > /dev/null && nt_ping 2 "$NT_IN4_1" > /dev/null
}

# ---------------------------------------------------------------------
# A NAT: side 1 behind a masquerading namespace $NS_NAT, side 2 outside.
#   side 1 lan0 10.95.0.1 -- 10.95.0.254 lan0 [NAT] wan0 10.96.0.254
#   -- 10.96.0.2 wan0 side 2
# Side 2 has no route to 10.95.0.0/24. Counters in the NAT (nft): from1
# (side 1's packets to side 2's port), new1 (those that made a new
# mapping), new2 (side 2's packets to the NAT that found no mapping).
NS_NAT=ntnat
CT_TIMEOUT=3
nat_x() {
	ip netns exec "$NS_NAT" "$@"
}

# nat_snap: the NAT's counters now, in the variables from1 new1 new2.
nat_snap() {
	local out l name=""
	out=$(nat_x nft list counters table inet t) || return 1
	from1="" new1="" new2=""
	while read -r l; do
		case $l in
		counter\ *) name=${l#counter }; name=${name%% *} ;;
		packets\ *) l=${l#packets }; printf -v "$name" %s "${l%% *}" ;;
		esac
	done <<< "$out"
}

nat_counters() {
	nat_snap && echo "from1=$from1 new1=$new1 new2=$new2"
}

nat_setup() {
	st_netns "$NS_NAT" &&
	ip -n "$NS_NAT" -batch - << EOF &&
link set lo up
link add lan0 type veth peer name lan0 netns $NT_NS1
link add wan0 type veth peer name wan0 netns $NT_NS2
addr add 10.95.0.254/24 dev lan0
addr add 10.96.0.254/24 dev wan0
link set lan0 up
link set wan0 up
EOF
	ip -n "$NT_NS1" -batch - << EOF &&
addr add 10.95.0.1/24 dev lan0
link set lan0 up
route add 10.96.0.0/24 via 10.95.0.254
EOF
	ip -n "$NT_NS2" -batch - << EOF &&
addr add 10.96.0.2/24 dev wan0
link set wan0 up
EOF
	nat_x sysctl -q -w net.ipv4.ip_forward=1 \
		net.ipv4.conf.wan0.promote_secondaries=1 || return 1
	nat_x nft -f - << EOF || return 1
table ip nat {
	chain post {
		type nat hook postrouting priority srcnat; policy accept;
		oifname "wan0" masquerade
	}
}
table inet t {
	counter from1 { }
	counter new1 { }
	counter new2 { }
	chain cfwd {
		type filter hook forward priority filter; policy accept;
		iifname "lan0" udp dport $NT_PORT2 counter name "from1"
		iifname "lan0" udp dport $NT_PORT2 ct state new counter name "new1"
	}
	chain cin {
		type filter hook input priority filter; policy accept;
		iifname "wan0" udp sport $NT_PORT2 ct state new counter name "new2"
	}
}
EOF
	# A new tunnel: side 2 knows no endpoint of side 1, side 1 sends to
	# side 2's public address.
	nt_down
	NT_NO_EP2=1 nt_up "$PROTO" 4 &&
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" endpoint "10.96.0.2:$NT_PORT2" &&
	nt_ping_first 1 "$NT_IN4_2" > /dev/null && nt_ping 2 "$NT_IN4_1" 1 > /dev/null || return 1
	local ep
	ep=$(ep2)
	echo "side 2's endpoint of side 1: $ep; NAT: $(nat_counters)"
	[[ "$ep" == 10.96.0.254:* ]] || st_fail "not the NAT's address" || return 1
	nat_snap && st_ge "mappings made by side 1" "$new1" 1
}

# rx_grows SIDE N: the device's rx_packets grows by N (within 30 s).
rx_grows() {
	local want end=$((SECONDS + 30)) n
	want=$(($(nt_dev_stat "$1" rx_packets) + $2))
	while n=$(nt_dev_stat "$1" rx_packets); ((n < want)); do
		((SECONDS < end)) || st_fail "side $1: rx_packets $n, want $want" || return 1
		st_nap 0.3
	done
}

# nat_rebind: the stream both ways; the NAT forgets its mappings and makes
# new ones from another address and port range (its outside address
# changes: the masquerade flushes the mappings made with the old one; new
# ones take ports 40000-40999); side 2's endpoint of side 1 follows the
# first authenticated packet from the new mapping and the stream goes
# on both ways. The NAT's UDP timeouts go down to $CT_TIMEOUT s before the
# stream stops (for the cases after this one).
nat_rebind() {
	local rc=0 s r want ep end
	stream_start
	rx_grows 2 50 && rx_grows 1 50 || rc=1
	if [ $rc = 0 ]; then
		echo "before: side 2's endpoint of side 1 $(ep2)"
		nat_x nft flush chain ip nat post &&
		nat_x nft add rule ip nat post oifname wan0 meta l4proto udp masquerade to :40000-40999 &&
		nat_x ip addr add 10.96.0.253/24 dev wan0 &&
		nat_x ip addr del 10.96.0.254/24 dev wan0 || rc=1
	fi
	end=$((SECONDS + 30))
	while [ $rc = 0 ]; do
		ep=$(ep2)
		[[ "$ep" == 10.96.0.253:4[0-9][0-9][0-9][0-9] ]] && break
		((SECONDS < end)) || { echo "side 2's endpoint of side 1 stays $ep"; rc=1; }
		st_nap 0.3
	done
	[ $rc = 0 ] && echo "after: side 2's endpoint of side 1 $ep" &&
		touch "$st_tmp/stop.mark1" && rx_grows 2 30 && rx_grows 1 30 || rc=1
	nat_x sysctl -q -w net.netfilter.nf_conntrack_udp_timeout="$CT_TIMEOUT" \
		net.netfilter.nf_conntrack_udp_timeout_stream="$CT_TIMEOUT" || rc=1
	stream_stop
	for s in 1 2; do
		r=$((3 - s))
		echo "side $s -> side $r: $(cat "$st_tmp/send-$s"); $(grep received "$st_tmp/recv-$r")"
		echo "  until side 2 followed: $(grep "^window=1 " "$st_tmp/recv-$r")"
		echo "  after:                 $(grep "^window=2 " "$st_tmp/recv-$r")"
		[ $rc = 0 ] || continue
		st_eq "side $s -> side $r duplicated" "$(sed -n 's/.* dup=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")" 0 || rc=1
		st_ge "side $s -> side $r datagrams after side 2 followed" \
			"$(sed -n "s/^window=2 datagrams=\([0-9]*\).*/\1/p" "$st_tmp/recv-$r")" 10 || rc=1
	done
	echo "NAT: $(nat_counters)"
	return $rc
}

# idle_for SECONDS: nothing sent through the tunnel by the test for
# SECONDS (counted from now, whole seconds).
idle_for() {
	local end=$((SECONDS + $1 + 1))
	while ((SECONDS < end)); do
		st_nap 0.5
	done
}

# nat_expires (after nat_kept: the mapping is fresh, side 2 follows it,
# side 1 answered side 2's ping last, so no passive keepalive is pending):
# the persistent keepalive off, then nothing for longer than the NAT's UDP
# timeout: side 1 sent nothing through the NAT, side 2's pings find no
# mapping there (new2 grows) and get no answer.
nat_expires() {
	local f0 f1 n0 n1
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" persistent-keepalive off || return 1
	nat_snap || return 1
	f0=$from1 n0=$new2
	idle_for $((CT_TIMEOUT + 1))
	nt_noping 2 "$NT_IN4_1" > /dev/null
	local rc=$?
	nat_snap || return 1
	f1=$from1 n1=$new2
	echo "NAT after $((CT_TIMEOUT + 1)) s idle (UDP timeout $CT_TIMEOUT s): from side 1 $f0 -> $f1, side 2's without a mapping $n0 -> $n1"
	[ $rc = 0 ] || st_fail "side 2's ping got an answer" || return 1
	st_eq "packets from side 1 while idle" "$((f1 - f0))" 0 &&
	st_ge "side 2's packets without a mapping" "$((n1 - n0))" 1
}

# nat_kept: persistent-keepalive 1 on side 1: after the same idle side 2
# reaches side 1; the keepalives crossed the NAT and no new mapping was
# made (the one in use never expired).
nat_kept() {
	local f0 f1 m0 m1 ep0 ep1
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" persistent-keepalive 1 || return 1
	nt_ping 1 "$NT_IN4_2" 1 > /dev/null || st_fail "side 1 cannot ping side 2" || return 1
	nat_snap || return 1
	f0=$from1 m0=$new1 ep0=$(ep2)
	idle_for $((CT_TIMEOUT + 1))
	nat_snap || return 1
	f1=$from1 m1=$new1 ep1=$(ep2)
	echo "NAT after $((CT_TIMEOUT + 1)) s idle (UDP timeout $CT_TIMEOUT s): from side 1 $f0 -> $f1, new mappings $m0 -> $m1; side 2's endpoint of side 1 $ep0 -> $ep1"
	nt_ping 2 "$NT_IN4_1" 1 > /dev/null || st_fail "side 2 cannot ping side 1" || return 1
	st_ge "keepalives through the NAT while idle" "$((f1 - f0))" 2 &&
	st_eq "new mappings while idle" "$((m1 - m0))" 0 &&
	st_eq "side 2's endpoint of side 1" "$ep1" "$ep0"
}

st_plan 16
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_defer "rmmod noise"
st_must "a tunnel ($PROTO), noisectl monitor on side 2, message 1 and transport captured" setup
st_run_v "unauthenticated packets from a third address are counted and do not move the endpoint" forged
st_run_v "stream both ways; side 1 to another IPv4 address, then to IPv6: endpoint and event follow" moves
st_run "ping both ways over IPv6 outside after the moves" \
	eval 'nt_ping 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN6_1"'
st_run "side 1's endpoint of side 2 is the IPv6 one it was given" \
	eval 'st_eq endpoint "$(nt_json 1 ".peers[0].endpoint")" "[fd99::2]:$NT_PORT2"'
st_run "a second veth pair between the sides" second_link
st_run_v "IPv6: a better route to side 2 with another source: side 2's endpoint of side 1 follows it" src_route 6
st_run_v "IPv4: a better route to side 2 with another source: side 2's endpoint of side 1 follows it" src_route 4
st_run_v "IPv4: side 2's endpoint routed into noise0: no loop, drops counted, works once the route goes" loop 4
st_run_v "IPv6: side 2's endpoint routed into noise0: no loop, drops counted, works once the route goes" loop 6
st_run_v "a new tunnel through a masquerading NAT (side 1 inside, side 2 outside)" nat_setup
st_run_v "stream both ways while the NAT's mapping changes: side 2 follows, the stream goes on" nat_rebind
st_run_v "persistent-keepalive 1: after an idle past the NAT's UDP timeout the mapping holds, side 2 reaches side 1" nat_kept
st_run_v "no persistent keepalive: after the same idle side 2 cannot reach side 1" nat_expires
st_done
