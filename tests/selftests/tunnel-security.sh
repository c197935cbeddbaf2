#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the tunnel refuses, and the counters that say why (Noise_IK, two
# namespaces over veth, noisectl):
# - the veth carries only UDP between the listen ports: an inner ping's
#   payload never shows in clear (the same probe sees it without the tunnel)
# - cryptokey routing: an inner source outside the sender's allowed IPs is
#   dropped (drop_source), IPv4 and IPv6, until `noisectl set allowed-ips`
#   allows it; a destination no peer has is dropped with an ICMP
#   unreachable (drop_no_peer)
# - a peer with the wrong private key, or an initiator with the wrong
#   public key for its responder, gets nothing through (drop_handshake or
#   drop_mac1, no session, no byte received); the initiator counts the
#   handshakes it began, resent and gave up, and sends the
#   handshake-failed event; with the right keys it works again
# - mismatched protocols (hash, cipher, pattern) never half-work: no session
#   on either side, counted
# - forged UDP (captured transport messages sent again from another port):
#   replayed (drop_replay), with a new counter the tag does not cover
#   (drop_auth), cut short (drop_bad_length), an unknown type
#   (drop_bad_type), an unknown receiver index (drop_unknown_index); each
#   counted once, none delivers anything
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IK_25519_ChaChaPoly_BLAKE2s
UDP="python3 $st_here/udp.py"
PATTERN=6e6f6973652d73656c667465737421aa	# "noise-selftest!" and 0xaa

fresh() {	# PROTO1 [PROTO2]: new devices and keys, both sides
	nt_x 1 ip link del "$NT_DEV" 2> /dev/null
	nt_x 2 ip link del "$NT_DEV" 2> /dev/null
	nt_dev 1 && nt_dev 2 && nt_up "$1" 4 || return 1
	if [ -n "${2:-}" ] && [ "$2" != "$1" ]; then
		sed -i "s/^Protocol = .*/Protocol = $2/" "$st_tmp/noise-1.conf"
		nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" || return 1
		st_eq "side 1 protocol" "$(nt_json 1 .protocol)" "$2" || return 1
	fi
}

delta() {	# delta VAR SIDE KEY: VAR=<counter now> - <counter saved in VAR>
	local now
	now=$(nt_dev_stat "$2" "$3") || return 1
	printf -v "$1" '%s' $((now - ${!1}))
}

# clear_wire: the payload of an inner ping, seen on side 2's veth
wire_probe() {	# ADDR: ping ADDR from side 1 with the pattern
	st_capture_start "$st_tmp/grep.out" nt_x 2 $UDP grep veth0 60 "$PATTERN" || return 1
	nt_x 1 ping -c 3 -i 0.2 -W 2 -q -p "$PATTERN" "$1" > /dev/null
	st_capture_stop "$st_tmp/grep.out"
	cat "$st_tmp/grep.out"
}

probe_works() {
	local out
	out=$(wire_probe 10.99.0.2)
	echo "bare veth: $out"
	[[ "$out" =~ match=([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 3 ]
}

no_clear_text() {
	local out frames match
	out=$(wire_probe "$NT_IN4_2")
	echo "through the tunnel: $out"
	[[ "$out" =~ frames=([0-9]+)\ match=([0-9]+) ]] || return 1
	frames=${BASH_REMATCH[1]} match=${BASH_REMATCH[2]}
	st_ge "frames on the veth" "$frames" 3 &&
	st_eq "frames with the ping's payload in clear" "$match" 0
}

source_filter() {	# FAMILY: a second inner address on side 1, not allowed
	local src dst d
	if [ "$1" = 6 ]; then src=fd10::11 dst=$NT_IN6_2; else src=10.10.0.11 dst=$NT_IN4_2; fi
	nt_x 1 ip addr add "$src" dev "$NT_DEV" nodad 2> /dev/null ||
		nt_x 1 ip addr add "$src" dev "$NT_DEV"
	d=$(nt_dev_stat 2 drop_source)
	nt_x 1 ping -c 3 -i 0.2 -W 1 -q -I "$src" "$dst" && { echo "a ping from $src got through"; return 1; }
	delta d 2 drop_source && st_ge "side 2 drop_source grew by" "$d" 3
}

allow_source() {
	nt_ctl 2 set "$NT_DEV" peer "$NT_PUB1" allowed-ips \
		"$NT_IN4_1/32,10.10.0.11/32,$NT_IN6_1/128,fd10::11/128" || return 1
	nt_json 2 '.peers[0].allowed_ips[]' | sort > "$st_tmp/aips"
	printf '%s\n' "$NT_IN4_1/32" 10.10.0.11/32 "$NT_IN6_1/128" fd10::11/128 | sort > "$st_tmp/want"
	diff "$st_tmp/want" "$st_tmp/aips" || return 1
	nt_ping 1 "$NT_IN4_2" && nt_x 1 ping -c 3 -i 0.2 -w 8 -q -I 10.10.0.11 "$NT_IN4_2" &&
	nt_x 1 ping -c 3 -i 0.2 -w 8 -q -I fd10::11 "$NT_IN6_2"
}

no_peer() {
	local d out
	d=$(nt_dev_stat 1 drop_no_peer)
	out=$(nt_x 1 ping -c 2 -i 0.3 -W 1 10.10.0.99 2>&1)
	echo "$out"
	echo "$out" | grep -q 'Unreachable' || { echo "no ICMP unreachable"; return 1; }
	delta d 1 drop_no_peer && st_ge "side 1 drop_no_peer grew by" "$d" 2
}

# nothing_through: side 1 pings side 2 and nothing arrives: no answer,
# side 2 counts a refused handshake, has no session and received nothing.
nothing_through() {
	nt_noping 1 "$NT_IN4_2" || return 1
	sleep 1
	# A wrong key for the responder fails its MAC1 (drop_mac1), another
	# private key the handshake (drop_handshake).
	local dh dm rx hs
	read -r dh dm rx hs < <(nt_dev_stats 2 drop_handshake drop_mac1 rx_bytes handshakes)
	st_ge "side 2 drop_handshake + drop_mac1" $((dh + dm)) 1 &&
	st_eq "side 2 rx_bytes" "$rx" 0 &&
	st_eq "side 2 handshakes" "$hs" 0 &&
	st_eq "side 1 handshakes" "$(nt_dev_stat 1 handshakes)" 0
}

wrong_private_key() {
	fresh "$PROTO" || return 1
	# Side 1 now claims to be side 1 with another private key.
	nt_genkey 25519 > "$st_tmp/impostor.key" &&
	nt_ctl 1 set "$NT_DEV" private-key "$st_tmp/impostor.key" || return 1
	nothing_through
}

wrong_peer_key() {
	fresh "$PROTO" || return 1
	local other
	other=$(nt_genkey 25519 | nt_pubkey) || return 1
	sed -i "s|^PublicKey = .*|PublicKey = $other|" "$st_tmp/noise-1.conf"
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" || return 1
	nothing_through
}

# gives_up: side 1 still has the wrong key for side 2 (wrong_peer_key):
# its handshakes get no answer. With debug_time_scale=30 (REKEY_ATTEMPT_TIME
# 3 s) one ping's want is given up within seconds: side 1 counts the
# handshakes it began, resent and gave up, names its latest attempt, and
# noisectl monitor prints the handshake-failed event; nothing begins a
# handshake after it (the new_handshake timer the ping armed, due 5.4 s
# after it at this scale, was stopped by the give-up). With dynamic debug
# on for the module (and net_ratelimit's limit off), the kernel log says
# the same, and side 2 says why it dropped each message 1.
# dyndbg +p|-p: the module's debug lines on (net_ratelimit's limit off) or off.
dyndbg() {
	local ctl=/sys/kernel/debug/dynamic_debug/control
	[ -e "$ctl" ] || mount -t debugfs none /sys/kernel/debug 2> /dev/null
	[ -e "$ctl" ] || { echo "no $ctl (CONFIG_DYNAMIC_DEBUG)"; return 1; }
	echo "module noise $1" > "$ctl" || return 1
	sysctl -qw net.core.message_cost="$([ "$1" = +p ] && echo 0 || echo 5)"
}

gives_up() {
	local scale=/sys/module/noise/parameters/debug_time_scale i t0 t1 now latest begun resent
	local b1 r1 want k
	t0=$(date +%s%N)
	# The attempt of the case before may still run (at the real times,
	# and its give-up would be the first event here): the peer is made
	# anew, so that this case's one ping makes the only attempt.
	k=$(nt_json 1 '.peers[0].public_key') &&
	nt_ctl 1 set "$NT_DEV" peer "$k" remove &&
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" || return 1
	nt_bg 1 "$st_tmp/mon-1" "$NOISECTL" monitor "$NT_DEV"
	echo 30 > "$scale" || return 1
	st_defer "echo 1 > $scale"
	dyndbg +p || return 1
	begun=$(nt_json 1 '.peers[0].stats.hs_initiations') &&
	resent=$(nt_json 1 '.peers[0].stats.hs_resent') || return 1
	t1=$SECONDS
	nt_x 1 ping -c 1 -W 1 -q "$NT_IN4_2" > /dev/null
	for ((i = 0; i < 120; i++)); do
		grep -q handshake-failed "$st_tmp/mon-1" && break
		st_nap 0.5
	done
	echo 1 > "$scale"
	cat "$st_tmp/mon-1"
	nt_json 1 '.peers[0] | "begun \(.stats.hs_initiations), resent \(.stats.hs_resent), given up \(.stats.hs_given_up), latest attempt \(.latest_attempt_ns)"'
	grep -q "handshake-failed.*$(nt_json 1 '.peers[0].public_key')" "$st_tmp/mon-1" ||
		st_fail "no handshake-failed event for the peer" || return 1
	latest=$(nt_json 1 '.peers[0].latest_attempt_ns') && now=$(date +%s%N) || return 1
	st_ge "hs_initiations" "$(nt_json 1 '.peers[0].stats.hs_initiations')" 1 &&
	st_ge "hs_resent" "$(nt_json 1 '.peers[0].stats.hs_resent')" 1 &&
	st_ge "hs_given_up" "$(nt_json 1 '.peers[0].stats.hs_given_up')" 1 &&
	st_ge "latest_attempt_ns after the start" "$latest" "$t0" &&
	st_ge "now after latest_attempt_ns" "$now" "$latest" ||
		return 1
	b1=$(nt_json 1 '.peers[0].stats.hs_initiations') &&
	r1=$(nt_json 1 '.peers[0].stats.hs_resent') || return 1
	while [ $SECONDS -lt $((t1 + 8)) ]; do
		st_nap 0.5
	done
	st_eq "handshakes begun and resent after the give-up (given up: $(nt_json 1 \
		'.peers[0].stats.hs_given_up'))" \
		"$(nt_json 1 '.peers[0].stats | "\(.hs_initiations) \(.hs_resent)"')" "$b1 $r1" ||
		return 1
	dyndbg -p
	dmesg | sed 's/^\[ *[0-9.]*\] //' |
		grep -E 'noise0: (peer [0-9]+ \(.*\): )?(handshake|message dropped)' |
		sort | uniq -c | sort -rn | head -8
	# A line for each counter that grew.
	want=('peer [0-9]+ \(10.99.0.2:[0-9]+\): handshake given up'
	      'noise0: message dropped: mac1')
	[ "$b1" -gt "$begun" ] &&
		want+=('peer [0-9]+ \(10.99.0.2:[0-9]+\): handshake begun')
	[ "$r1" -gt "$resent" ] &&
		want+=('peer [0-9]+ \(10.99.0.2:[0-9]+\): handshake message sent again')
	for i in "${want[@]}"; do
		dmesg | grep -Eq "$i" || st_fail "no debug line '$i' in the kernel log" || return 1
	done
}

right_keys_again() {
	sed -i "s|^PublicKey = .*|PublicKey = $NT_PUB2|" "$st_tmp/noise-1.conf"
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" && nt_ping_first 1 "$NT_IN4_2" && nt_have_session
}

mismatch() {	# PROTO_OF_SIDE_1: side 2 runs $PROTO
	local k s total=0
	fresh "$PROTO" "$1" || return 1
	nt_noping 1 "$NT_IN4_2" || return 1
	nt_noping 2 "$NT_IN4_1" || return 1
	sleep 1
	for s in 1 2; do
		# shellcheck disable=SC2046
		set -- $(nt_dev_stats $s handshakes rx_bytes drop_handshake \
			drop_mac1 drop_bad_type drop_bad_length drop_unknown_index drop_auth)
		st_eq "side $s handshakes" "$1" 0 && st_eq "side $s rx_bytes" "$2" 0 ||
			return 1
		shift 2
		for k; do
			total=$((total + k))
		done
	done
	st_ge "handshake messages refused and counted (both sides)" "$total" 1
}

# capture: transport messages from side 1 to side 2 while a session is up
capture() {
	fresh "$PROTO" && nt_ping_first 1 "$NT_IN4_2" || return 1
	st_capture_start "$st_tmp/captured" nt_x 2 $UDP sniff veth0 "$NT_PORT2" 60 || return 1
	nt_ping 1 "$NT_IN4_2" 5 > /dev/null
	st_capture_stop "$st_tmp/captured"
	grep -v '^#' "$st_tmp/captured" > "$st_tmp/msgs"
	tail -n 1 "$st_tmp/captured"
	st_ge "transport messages captured" "$(wc -l < "$st_tmp/msgs")" 5
}

# forged COUNTER [HOW...]: every captured message (changed by HOW) sent
# again from another port, all from one python (slow to start here).
forged() {
	local key=$1 d r b n
	shift
	d=$(nt_dev_stat 2 "$key")
	read -r r b < <(nt_json 2 '.stats | "\(.rx_packets) \(.rx_bytes)"')
	if [ $# -gt 0 ]; then
		$UDP mangle - "$@" < "$st_tmp/msgs" > "$st_tmp/forged" || return 1
	else
		cp "$st_tmp/msgs" "$st_tmp/forged"
	fi
	n=$(wc -l < "$st_tmp/forged")
	# shellcheck disable=SC2046
	nt_x 1 $UDP send 10.99.0.2 "$NT_PORT2" $(cat "$st_tmp/forged") || return 1
	sleep 1
	delta d 2 "$key" && st_eq "side 2 $key grew by" "$d" "$n" || return 1
	# Nothing taken but side 1's keepalives (32 bytes each on the wire).
	local r1 b1
	read -r r1 b1 < <(nt_json 2 '.stats | "\(.rx_packets) \(.rx_bytes)"')
	r=$((r1 - r)) b=$((b1 - b))
	st_eq "side 2 rx_bytes grew by (32 per message taken: keepalives only)" "$b" "$((32 * r))"
}

first_tunnel() {
	fresh "$PROTO" && nt_ping_first 1 "$NT_IN4_2"
}

st_plan 23
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_must "a tunnel ($PROTO), ping through it" first_tunnel
st_run_v "the wire probe sees a ping's payload on the bare veth" probe_works
st_run_v "through the tunnel the veth never shows it in clear" no_clear_text
st_run "IPv4 source outside the peer's allowed IPs: dropped, drop_source" source_filter 4
st_run "IPv6 source outside the peer's allowed IPs: dropped, drop_source" source_filter 6
st_run "noisectl set allowed-ips lets them through" allow_source
st_run_v "no peer for the destination: ICMP unreachable, drop_no_peer" no_peer
st_run "a peer with the wrong private key gets nothing through" wrong_private_key
st_run "an initiator with the wrong key for its responder gets nothing through" wrong_peer_key
st_run_v "unanswered handshakes: counted, given up, handshake-failed event" gives_up
st_run "with the right keys it works again" right_keys_again
st_run "mismatched hash (BLAKE2s vs SHA256): no session, counted" mismatch Noise_IK_25519_ChaChaPoly_SHA256
st_run "mismatched cipher (ChaChaPoly vs AESGCM): no session, counted" mismatch Noise_IK_25519_AESGCM_BLAKE2s
st_run "mismatched pattern (IK vs XX): no session, counted" mismatch Noise_XX_25519_ChaChaPoly_BLAKE2s
st_run_v "transport messages captured on the veth" capture
st_run "replayed transport messages: drop_replay" forged drop_replay
st_run "a new counter the tag does not cover: drop_auth" forged drop_auth counter 0x100000
st_run "cut short of the transport header: drop_bad_length" forged drop_bad_length truncate 12
st_run "an unknown message type: drop_bad_type" forged drop_bad_type type 0xee
st_run "an unknown receiver index: drop_unknown_index" forged drop_unknown_index index
st_kmemleak_case "kmemleak scan clean"
st_done
