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
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout sysctl "$NOISECTL"
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

st_plan 7
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
st_done
