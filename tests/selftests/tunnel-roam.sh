#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Roaming: a peer's endpoint follows the last authenticated packet from it
# (Documentation/architecture.rst, "Receiving a packet", step 4). Side 1
# moves while a numbered UDP stream runs through the tunnel both ways
# (stream.py): first to another outer IPv4 address (a new address on its
# veth, the old one removed), then from IPv4 to IPv6 outside (side 1 is
# told side 2's IPv6 endpoint and loses its IPv4 address). After each move
# side 2's endpoint of side 1 (noisectl show --json) is the new address,
# `noisectl monitor` on side 2 printed the endpoint event with it, and the
# stream went on through the new path in both directions (datagrams sent
# after the endpoint followed arrived); the datagrams lost and the longest
# gap are printed. Before that, packets from a third address (another
# namespace) that do not authenticate, captured transport messages
# replayed, one with a counter its tag does not cover, a captured
# handshake initiation replayed, are refused and counted, and the
# endpoint does not move, nor does an endpoint event appear.
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout sysctl "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s
UDP="python3 $st_here/udp.py"
STREAM="python3 $st_here/stream.py"
NS3=nt3
RATE=100

# A third namespace on its own link to side 2: nt3 10.98.0.3, side 2 .2.
third_ns() {
	st_netns "$NS3" &&
	ip -n "$NS3" link set lo up &&
	ip -n "$NT_NS2" link add veth3 type veth peer name veth3 netns "$NS3" &&
	ip -n "$NT_NS2" addr add 10.98.0.2/24 dev veth3 &&
	ip -n "$NS3" addr add 10.98.0.3/24 dev veth3 &&
	ip -n "$NT_NS2" link set veth3 up &&
	ip -n "$NS3" link set veth3 up &&
	ip netns exec "$NS3" ping -c 1 -W 5 -q 10.98.0.2 > /dev/null
}

monitor_start() {
	nt_bg 2 "$st_tmp/monitor.out" "$NOISECTL" monitor "$NT_DEV"
	MONITOR=$NT_BG
	sleep 1
	kill -0 "$MONITOR" || { cat "$st_tmp/monitor.out"; return 1; }
}

ep2() {	# side 2's endpoint of side 1
	nt_json 2 --arg k "$NT_PUB1" '.peers[] | select(.public_key == $k) | .endpoint'
}

# setup: the tunnel; side 2's veth captured (dport 51822) while side 1
# makes the session: message 1 and transport messages, for the forgeries.
setup() {
	nt_dev 1 && nt_dev 2 && nt_up "$PROTO" 4 || return 1
	st_capture_start "$st_tmp/cap" nt_x 2 $UDP sniff veth0 "$NT_PORT2" 60 || return 1
	nt_ping_first 1 "$NT_IN4_2" > /dev/null && nt_ping 1 "$NT_IN4_2" 5 > /dev/null || return 1
	st_capture_stop "$st_tmp/cap"
	grep '^0101' "$st_tmp/cap" | head -n 1 > "$st_tmp/msg1"
	grep '^0301' "$st_tmp/cap" > "$st_tmp/transport"
	echo "captured: $(wc -l < "$st_tmp/msg1") message 1, $(wc -l < "$st_tmp/transport") transport"
	st_ge "message 1 captured" "$(wc -l < "$st_tmp/msg1")" 1 &&
	st_ge "transport messages captured" "$(wc -l < "$st_tmp/transport")" 5 &&
	st_eq "side 2's endpoint of side 1" "$(ep2)" "10.99.0.1:$NT_PORT1"
}

drops_sum() {	# SIDE: all drop counters added up
	nt_json "$1" '[.stats | to_entries[] | select(.key | startswith("drop_")) | .value] | add'
}

# forged FILE COUNTER [HOW...]: the messages in FILE (changed by HOW, see
# udp.py mangle) sent to side 2 from nt3; COUNTER (or, for "any", the sum
# of all drop counters) grows by their number, and side 2's endpoint of
# side 1 stays where it was.
forged() {
	local f=$1 key=$2 before after n ep
	shift 2
	ep=$(ep2)
	if [ $# -gt 0 ]; then
		$UDP mangle - "$@" < "$f" > "$st_tmp/forged" || return 1
	else
		cp "$f" "$st_tmp/forged"
	fi
	n=$(wc -l < "$st_tmp/forged")
	if [ "$key" = any ]; then before=$(drops_sum 2); else before=$(nt_dev_stat 2 "$key"); fi
	# shellcheck disable=SC2046
	ip netns exec "$NS3" $UDP send 10.98.0.2 "$NT_PORT2" $(cat "$st_tmp/forged") || return 1
	sleep 1
	if [ "$key" = any ]; then after=$(drops_sum 2); else after=$(nt_dev_stat 2 "$key"); fi
	echo "sent $n from 10.98.0.3; side 2 $key: $before -> $after; drops: $(nt_ctl 2 show "$NT_DEV" --json | jq -c '.stats | with_entries(select(.key | startswith("drop")))')"
	st_eq "side 2 $key grew by" "$((after - before))" "$n" &&
	st_eq "side 2's endpoint of side 1" "$(ep2)" "$ep"
}

no_forged_event() {
	if grep -F $'\t'"endpoint"$'\t' "$st_tmp/monitor.out" | grep -q 10.98.0.3; then
		echo "an endpoint event names the forger:"
		cat "$st_tmp/monitor.out"
		return 1
	fi
	st_eq "side 2's endpoint of side 1" "$(ep2)" "10.99.0.1:$NT_PORT1" &&
	nt_ping 1 "$NT_IN4_2"
}

# stream_start: a receiver on each side (port 9000 of its tunnel address)
# and a sender to the other side, $RATE datagrams/s.
stream_start() {
	local s i
	rm -f "$st_tmp/stop" "$st_tmp/stop.mark" "$st_tmp"/recv-* "$st_tmp"/send-*
	for s in 1 2; do
		nt_bg $s "$st_tmp/recv-$s" $STREAM recv "10.10.0.$s" 9000 "$st_tmp/stop" 2
		eval "RECV$s=$NT_BG"
	done
	for s in 1 2; do
		for ((i = 0; i < 300; i++)); do
			grep -q ready "$st_tmp/recv-$s" && break
			st_nap 0.2
		done
	done
	nt_bg 1 "$st_tmp/send-1" $STREAM send "$NT_IN4_2" 9000 "$RATE" "$st_tmp/stop"
	SEND1=$NT_BG
	nt_bg 2 "$st_tmp/send-2" $STREAM send "$NT_IN4_1" 9000 "$RATE" "$st_tmp/stop"
	SEND2=$NT_BG
}

# stream_stop: stop the senders, let the receivers drain; per direction
# print sent, lost, duplicated, reordered, longest gap, and fail unless
# datagrams sent after the mark (the endpoint had followed) arrived and
# none arrived twice.
stream_stop() {
	local s r sent distinct dup after rc=0
	touch "$st_tmp/stop"
	wait "$SEND1" "$SEND2" "$RECV1" "$RECV2"
	for s in 1 2; do
		r=$((3 - s))
		sent=$(sed -n 's/^sent=\([0-9]*\).*/\1/p' "$st_tmp/send-$s")
		distinct=$(sed -n 's/.*distinct=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")
		dup=$(sed -n 's/.* dup=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")
		after=$(sed -n 's/.*after_mark=\(-*[0-9]*\).*/\1/p' "$st_tmp/recv-$r")
		[[ "$sent" =~ ^[0-9]+$ && "$distinct" =~ ^[0-9]+$ ]] ||
			{ echo "no counts"; cat "$st_tmp/send-$s" "$st_tmp/recv-$r"; rc=1; continue; }
		echo "side $s -> side $r: $(cat "$st_tmp/send-$s"); $(grep received "$st_tmp/recv-$r"); lost=$((sent - distinct))"
		st_ge "side $s -> side $r datagrams sent" "$sent" 50 || rc=1
		st_eq "side $s -> side $r duplicated" "$dup" 0 || rc=1
		st_ge "side $s -> side $r datagrams after the endpoint followed" "$after" 10 || rc=1
	done
	return $rc
}

# follows WANT: side 2's endpoint of side 1 becomes WANT (within 30 s:
# the stream's next datagram from side 1 moves it), and `noisectl
# monitor` prints the event with WANT.
follows() {
	local want=$1 i ep
	for ((i = 0; i < 150; i++)); do
		ep=$(ep2)
		[ "$ep" = "$want" ] && break
		st_nap 0.2
	done
	st_eq "side 2's endpoint of side 1" "$ep" "$want" || return 1
	for ((i = 0; i < 50; i++)); do
		grep -qF "$NT_DEV"$'\t'endpoint$'\t'"$NT_PUB1"$'\t'"$want" "$st_tmp/monitor.out" &&
			return 0
		st_nap 0.2
	done
	echo "no endpoint event for $want; noisectl monitor printed:"
	cat "$st_tmp/monitor.out"
	return 1
}

# move HOW...: the stream runs 3 s, HOW moves side 1, side 2's endpoint
# must follow (follows), the mark is set, 3 more seconds, then the stream
# is counted.
move() {
	local want=$1 rc
	shift
	stream_start
	sleep 3
	"$@" || { touch "$st_tmp/stop"; return 1; }
	follows "$want"
	rc=$?
	touch "$st_tmp/stop.mark"
	sleep 3
	stream_stop || rc=1
	echo "side 2 endpoint of side 1: $(ep2); drops side 1: $(nt_dev_stat 1 drop_no_key) no_key, side 2: $(drops_sum 2) in all"
	return $rc
}

# Another IPv4 address: 10.99.0.11 added (a secondary, promoted when the
# primary goes), 10.99.0.1 removed.
new_v4() {
	nt_x 1 sysctl -q -w net.ipv4.conf.veth0.promote_secondaries=1 &&
	nt_x 1 ip addr add 10.99.0.11/24 dev veth0 &&
	nt_x 1 ip addr del 10.99.0.1/24 dev veth0
}

# IPv6: side 1 is told side 2's IPv6 endpoint and loses its IPv4 address.
to_v6() {
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" endpoint "[fd99::2]:$NT_PORT2" &&
	nt_x 1 ip addr del 10.99.0.11/24 dev veth0
}

st_plan 12
st_must "namespaces nt1 and nt2 joined by a veth pair, nt3 linked to nt2" \
	eval 'st_netns_pair "$NT_NS1" "$NT_NS2" && third_ns'
st_must "load noise.ko" noise_load
st_defer "rmmod noise"
st_must "a tunnel ($PROTO), message 1 and transport captured" setup
st_must "noisectl monitor runs in nt2" monitor_start
st_run_v "captured transport replayed from a third address: drop_replay, endpoint stays" \
	forged "$st_tmp/transport" drop_replay
st_run_v "a counter the tag does not cover, from a third address: drop_auth, endpoint stays" \
	forged "$st_tmp/transport" drop_auth counter 0x100000
st_run_v "captured message 1 replayed from a third address: drop_handshake, endpoint stays" \
	forged "$st_tmp/msg1" drop_handshake
st_run "no endpoint event for the third address; the tunnel works" no_forged_event
st_run_v "stream both ways; side 1 to another IPv4 address: endpoint and event follow" \
	move "10.99.0.11:$NT_PORT1" new_v4
st_run_v "stream both ways; side 1 from IPv4 to IPv6 outside: endpoint and event follow" \
	move "[fd99::1]:$NT_PORT1" to_v6
st_run "ping both ways over IPv6 outside after the moves" \
	eval 'nt_ping 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN6_1"'
st_kmemleak_case "kmemleak scan clean"
st_done
