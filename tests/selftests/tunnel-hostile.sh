#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile packets from outside: a third namespace (nt3, on its own link to
# side 2) sends side 2's listen port malformed datagrams from a plain UDP
# socket (hostile.py; no scapy): random bytes, valid headers with random
# bodies, captured messages with one field corrupted, every message type
# at every wrong length (captured messages cut short and extended),
# replays, unknown receiver indices, and side 2's own message 2 reflected
# to it (a handshake message out of order). Each kind proves that side 2's
# drop counters (noisectl show --json .stats.drop_*) grow by exactly what
# was sent, reason by reason (hostile.py says which reason each packet
# must get), and that no other drop counter moves; a ping from side 1
# runs through the tunnel the whole time: at most 10% of it lost
# (printed), and it answers at the end. Side 1 also sends side 2's IPv6
# socket a datagram with a zero UDP checksum: the UDP layer must drop it
# (Udp6InCsumErrors), no counter of ours may see it.
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s
UDP="python3 $st_here/udp.py"
NS3=nt3
CAP=$st_tmp/cap

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

# setup: the tunnel, both veths captured while side 1 makes the session
# and pings: message 1 and transport messages to side 2, message 2 from
# it (udp.py sniff).
setup() {
	local c1
	mkdir -p "$CAP" &&
	nt_dev 1 && nt_dev 2 && nt_up "$PROTO" 4 || return 1
	st_capture_start "$st_tmp/cap2" nt_x 2 $UDP sniff veth0 "$NT_PORT2" 60 || return 1
	c1=$ST_CAPTURE
	st_capture_start "$st_tmp/cap1" nt_x 1 $UDP sniff veth0 "$NT_PORT1" 60 || return 1
	nt_ping_first 1 "$NT_IN4_2" > /dev/null && nt_ping 1 "$NT_IN4_2" 8 > /dev/null || return 1
	sleep 1
	touch "$st_tmp/cap1.stop" "$st_tmp/cap2.stop"
	wait "$c1" "$ST_CAPTURE"
	grep '^010101' "$st_tmp/cap2" | head -n 1 > "$CAP/msg1"
	grep '^010102' "$st_tmp/cap1" | head -n 1 > "$CAP/msg2"
	grep '^0301' "$st_tmp/cap2" > "$CAP/transport"
	echo "captured: message 1 ($(($(wc -c < "$CAP/msg1") / 2)) bytes), message 2 ($(($(wc -c < "$CAP/msg2") / 2)) bytes), $(wc -l < "$CAP/transport") transport"
	st_eq "message 1 captured" "$(wc -l < "$CAP/msg1")" 1 &&
	st_eq "message 2 captured" "$(wc -l < "$CAP/msg2")" 1 &&
	st_ge "transport messages captured" "$(wc -l < "$CAP/transport")" 8 &&
	st_eq "side 2 sessions" "$(nt_dev_stat 2 handshakes)" 1
}

# drops SIDE: the receive drop counters, one JSON object (drop_no_peer
# counts packets the device itself sends to no peer, such as IPv6
# multicast listener reports: not ours to compare).
drops() {
	nt_ctl "$1" show "$NT_DEV" --json |
		jq -c '.stats | with_entries(select((.key | startswith("drop_")) and .key != "drop_no_peer"))'
}

# legit_start: side 1 pings side 2 through the tunnel until legit_stop.
legit_start() {
	nt_bg 1 "$st_tmp/legit" ping -i 0.2 "$NT_IN4_2"
	LEGIT=$NT_BG
	sleep 2
	kill -0 "$LEGIT"
}

legit_stop() {
	local t r
	kill -INT "$LEGIT" && wait "$LEGIT"
	read -r t r <<< "$(sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) received.*/\1 \2/p' "$st_tmp/legit")"
	echo "legitimate ping side 1 -> 2 throughout: transmitted=$t received=$r lost=$((t - r))"
	st_ge "pings sent" "$t" 10 && st_ge "pings answered" "$((r * 10))" $((t * 9))
}

# hostile KIND: the packets of KIND from nt3 (hostile.py); side 2's drop
# counters must grow by what hostile.py says, per reason, and by nothing
# else. Handshake messages are counted later, by the handshake work: wait
# (up to 60 s) until the total is reached. The counters before are those
# the previous kind ended with (DROPS), so a late or extra drop shows in
# the next kind.
hostile() {
	local kind=$1 after out sent total diff i
	[ -n "${DROPS:-}" ] || DROPS=$(drops 2) || return 1
	out=$(ip netns exec "$NS3" python3 "$st_here/hostile.py" 10.98.0.2 "$NT_PORT2" "$kind" "$CAP") ||
		{ echo "$out"; return 1; }
	echo "sent:    $out"
	sent=$(echo "$out" | sed -n 's/.* sent=\([0-9]*\) .*/\1/p')
	st_ge "packets sent" "$sent" 1 || return 1
	for ((i = 0; i < 120; i++)); do
		after=$(drops 2) || return 1
		# "TOTAL drop_X=N ...": the growth in all, and of every counter
		# that moved, sorted as hostile.py prints them.
		read -r total diff <<< "$(jq -rn --argjson a "$DROPS" --argjson b "$after" \
			'[$b | to_entries[] | select(.value != $a[.key]) | {k: .key, d: (.value - $a[.key])}] |
			 "\(map(.d) | add // 0) \(map("\(.k)=\(.d)") | sort | join(" "))"')"
		[ "$total" -ge "$sent" ] && break
		st_nap 0.5
	done
	DROPS=$after
	echo "counted: $diff"
	st_eq "drop counters grown (per reason)" "$diff" "$(echo "$out" | cut -d' ' -f3-)"
}

# Udp6InCsumErrors of side 2's namespace.
csum6_errors() {
	ip netns exec "$NT_NS2" awk '$1 == "Udp6InCsumErrors" { print $2 }' /proc/net/snmp6
}

# udp6_send ZERO: from side 1 to side 2's port over IPv6, a datagram of a
# bad type (drop_bad_type if it reaches us), without a UDP checksum
# (UDP_NO_CHECK6_TX) when ZERO is 1.
udp6_send() {
	ip netns exec "$NT_NS1" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
if sys.argv[1] == "1":
    s.setsockopt(socket.SOL_UDP, 101, 1)    # UDP_NO_CHECK6_TX
s.sendto(bytes([9]) * 32, ("fd99::2", int(sys.argv[2])))
' "$1" "$NT_PORT2"
}

# udp6_zero_csum: side 2's IPv6 socket takes no datagram with a zero UDP
# checksum (RFC 6936 allows it to tunnels that ask; as WireGuard, we do
# not): the UDP layer drops it (Udp6InCsumErrors), no counter of ours
# moves. The same datagram with its checksum, sent after it, reaches us
# (drop_bad_type) and says when both were taken.
udp6_zero_csum() {
	local b0 e0 b e i
	b0=$(nt_dev_stat 2 drop_bad_type) && e0=$(csum6_errors) || return 1
	udp6_send 1 && udp6_send 0 || return 1
	for ((i = 0; i < 40; i++)); do
		b=$(nt_dev_stat 2 drop_bad_type) || return 1
		[ "$b" -gt "$b0" ] && break
		st_nap 0.25
	done
	e=$(csum6_errors)
	echo "drop_bad_type +$((b - b0)), Udp6InCsumErrors +$((e - e0))"
	DROPS=$(drops 2)
	st_eq "drop_bad_type grew by (the datagram with a checksum alone)" "$((b - b0))" 1 &&
		st_eq "Udp6InCsumErrors grew by (the zero checksum)" "$((e - e0))" 1
}

st_plan 14
st_must "namespaces nt1 and nt2 joined by a veth pair, nt3 linked to nt2" \
	eval 'st_netns_pair "$NT_NS1" "$NT_NS2" && third_ns'
st_must "load noise.ko" noise_load
st_defer "rmmod noise"
st_must "a tunnel ($PROTO); message 1, message 2 and transport captured" setup
st_must "a legitimate ping runs through the tunnel" legit_start
st_run_v "captured transport and message 1 replayed: drop_replay, drop_handshake" hostile replay
st_run_v "corrupted fields of captured messages: each reason exact" hostile fields
st_run_v "unknown receiver indices (transport, cookie reply, message 2): drop_unknown_index" hostile index
st_run_v "every message type at every wrong length: drop_bad_length (replay when extended)" hostile lengths
st_run_v "its own message 2 reflected to the responder: drop_unknown_index" hostile order
st_run_v "random bytes of random lengths: drop_bad_type, drop_bad_length" hostile random
st_run_v "valid headers with random bodies: each reason exact" hostile headers
st_run_v "a zero UDP checksum over IPv6: dropped by UDP, never seen by the tunnel" udp6_zero_csum
st_run_v "the legitimate ping kept working throughout" legit_stop
st_run "the tunnel answers after all that" nt_ping 1 "$NT_IN4_2"
st_done
