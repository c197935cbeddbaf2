#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The session lifecycle of Documentation/timers.rst, in seconds: the
# test-only module parameter debug_time_scale=60 makes a session rekey
# after 2 s, be refused after 3 s and be wiped 9 s after it was made.
# A numbered UDP stream both ways across ten rekeys must arrive complete,
# once and in order; then a session past REJECT_AFTER_TIME refuses a
# packet, the keys are gone after the zeroing time and after the device
# went down, a handshake nobody answers is given up; a PSK changed on both
# sides mid-stream gives a new session at once and loses nothing; a new
# static key on side 1 (side 2 replaces the peer) breaks the stream for
# about one handshake round trip (the gap is printed).
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s
SCALE=60
SCALE_P=/sys/module/noise/parameters/debug_time_scale
# stream_start RATE: nt_stream_start (lib.sh, stream.py) at RATE
# (default 200) datagrams/s.
stream_start() {
	nt_stream_start "${1:-200}"
}

# stream_stop [MAXLOST]: stop the senders, let the receivers drain, print
# and check both directions: every datagram sent arrived once, in order
# (with MAXLOST: at most that many lost each way, reordering only printed);
# LOST1 and LOST2 (lost from side 1 and 2) and GAP1, GAP2 (longest gap seen
# by side 1 and 2, ms) are set.
stream_stop() {
	local max=${1:-} s r sent distinct dup reord rc=0
	touch "$st_tmp/stop"
	wait "$SEND1" "$SEND2" "$RECV1" "$RECV2"
	for s in 1 2; do
		r=$((3 - s))
		sent=$(sed -n 's/^sent=\([0-9]*\).*/\1/p' "$st_tmp/send-$s")
		distinct=$(sed -n 's/.*distinct=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")
		dup=$(sed -n 's/.* dup=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")
		reord=$(sed -n 's/.*reordered=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")
		echo "side $s -> side $r: $(cat "$st_tmp/send-$s"); $(grep received "$st_tmp/recv-$r")"
		[[ "$sent" =~ ^[0-9]+$ && "$distinct" =~ ^[0-9]+$ ]] ||
			{ echo "no counts"; cat "$st_tmp/send-$s" "$st_tmp/recv-$r"; rc=1; continue; }
		echo "side $s -> side $r: lost=$((sent - distinct)) dup=$dup reordered=$reord"
		eval "LOST$s=$((sent - distinct))"
		eval "GAP$r=$(sed -n 's/^received=.*gap_ms=\([0-9]*\).*/\1/p' "$st_tmp/recv-$r")"
		if [ "$((sent - distinct))" != 0 ]; then
			grep -v '^window=.* lost=0 ' "$st_tmp/recv-$r" | grep '^window='
			# A loss no drop counter shows: the receiver's socket?
			echo "side $r UDP: $(nt_x "$r" awk '/^Udp:/ { for (i = 2; i <= NF; i++)
				if (h) printf "%s=%s ", n[i], $i; else n[i] = $i; h = 1 }' /proc/net/snmp)"
		fi
		st_ge "side $s -> side $r datagrams sent" "$sent" 100 || rc=1
		st_eq "side $s -> side $r duplicated" "$dup" 0 || rc=1
		if [ -n "$max" ]; then
			at_most "side $s -> side $r lost" "$((sent - distinct))" "$max" || rc=1
			continue
		fi
		st_eq "side $s -> side $r lost" "$((sent - distinct))" 0 || rc=1
		st_eq "side $s -> side $r reordered" "$reord" 0 || rc=1
	done
	return $rc
}

at_most() {	# at_most NAME GOT MAX
	[[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -le "$3" ] && return 0
	echo "$1: got '$2', want <= $3"
	return 1
}

drops() {	# drops SIDE: the device's drop counters, one line
	nt_ctl "$1" show "$NT_DEV" --json | jq -c '.stats | with_entries(select(.key | startswith("drop")))'
}

set_scale() {
	echo "$1" > "$SCALE_P" && st_eq "debug_time_scale" "$(cat "$SCALE_P")" "$1"
}

setup() {
	nt_dev 1 && nt_dev 2 && nt_up "$PROTO" 4 && nt_ping_first 1 "$NT_IN4_2"
}

# rekeys_stream: the stream both ways while side 1 (the initiator) rekeys
# ten times (it renews a session 2 s old when it sends).
rekeys_stream() {
	local before now
	before=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	stream_start 150
	sleep 30
	stream_stop
	local rc=$?
	now=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	echo "sessions made by side 1 during the stream: $((now - before))"
	echo "side 1 drops: $(drops 1)"
	echo "side 2 drops: $(drops 2)"
	st_ge "rekeys during the stream" "$((now - before))" 10 && return $rc
}

# capture_one: while side 2's veth is watched, a session (made by a ping
# from side 1 when there is none) and one more ping; the last transport
# message from side 1 (on the newest session) is CAPTURED (hex).
capture_one() {
	st_capture_start "$st_tmp/cap" nt_x 2 python3 "$st_here/udp.py" sniff veth0 "$NT_PORT2" 60 ||
		return 1
	nt_ping_first 1 "$NT_IN4_2" > /dev/null || return 1
	touch "$st_tmp/cap.stop"
	wait "$ST_CAPTURE"
	CAPTURED=$(grep '^0301' "$st_tmp/cap" | tail -n 1)
	[ -n "$CAPTURED" ] || { echo "no transport message captured"; cat "$st_tmp/cap"; return 1; }
	echo "captured: ${CAPTURED:0:32}...; side 2 sessions: $(nt_dev_stat 2 handshakes)"
}

# send_forged WHY: the captured message with its counter moved on (a
# nonce never seen, so the replay window lets it through) is sent to side
# 2: its drop counter WHY must grow by one.
send_forged() {
	local why=$1 before after msg
	before=$(nt_dev_stat 2 "$why")
	msg=$(python3 "$st_here/udp.py" mangle "$CAPTURED" counter $((RANDOM + 100000)))
	nt_x 1 python3 "$st_here/udp.py" send 10.99.0.2 "$NT_PORT2" "$msg" || return 1
	sleep 0.3
	after=$(nt_dev_stat 2 "$why")
	echo "side 2 $why: $before -> $after; sessions: $(nt_dev_stat 2 handshakes); drops: $(drops 2)"
	st_eq "side 2 $why grew by" "$((after - before))" 1
}

# send_forged_refused: the forged message is refused before any crypto:
# drop_no_key (its session too old) or drop_unknown_index (a rekey the
# scale change set off already retired that session), and drop_auth does
# not move. Other packets may be refused too: at least one.
send_forged_refused() {
	local a0 a1 r0 r1 msg
	a0=$(nt_dev_stat 2 drop_auth)
	r0=$(($(nt_dev_stat 2 drop_no_key) + $(nt_dev_stat 2 drop_unknown_index)))
	msg=$(python3 "$st_here/udp.py" mangle "$CAPTURED" counter $((RANDOM + 100000)))
	nt_x 1 python3 "$st_here/udp.py" send 10.99.0.2 "$NT_PORT2" "$msg" || return 1
	sleep 0.3
	a1=$(nt_dev_stat 2 drop_auth)
	r1=$(($(nt_dev_stat 2 drop_no_key) + $(nt_dev_stat 2 drop_unknown_index)))
	echo "side 2 drop_no_key + drop_unknown_index: $r0 -> $r1, drop_auth: $a0 -> $a1; drops: $(drops 2)"
	st_ge "side 2 refusals before crypto grew by" "$((r1 - r0))" 1 &&
	st_eq "side 2 drop_auth grew by" "$((a1 - a0))" 0
}

# fresh: no session on either side (both devices down and up).
fresh() {
	local s
	for s in 1 2; do
		nt_x $s ip link set "$NT_DEV" down && nt_x $s ip link set "$NT_DEV" up || return 1
	done
}

# refused_after_reject: a young session (real timers): a forged counter
# fails authentication (drop_auth); with debug_time_scale=3600 the same
# session is older than REJECT_AFTER_TIME (50 ms) and the message is
# refused before any crypto (drop_no_key). (Ages are compared when a
# packet comes, with the scale of that moment: no race with the clock.)
refused_after_reject() {
	set_scale 1 && fresh && capture_one || return 1
	send_forged drop_auth || return 1
	set_scale 3600 || return 1
	send_forged_refused
	local rc=$?
	set_scale "$SCALE"
	return $rc
}

# zeroed_after_idle (scale 60: zeroing 9 s after the session was made): a
# session, 10 s of silence: nothing knows its index (drop_unknown_index).
zeroed_after_idle() {
	fresh && capture_one || return 1
	sleep 10
	send_forged drop_unknown_index
}

# zeroed_on_down: a session (real timers), side 2's device down and up:
# its keys are gone (the captured message's index is unknown).
zeroed_on_down() {
	set_scale 1 && capture_one || return 1
	send_forged drop_auth || return 1
	nt_x 2 ip link set "$NT_DEV" down && nt_x 2 ip link set "$NT_DEV" up || return 1
	send_forged_refused
	local rc=$?
	set_scale "$SCALE"
	return $rc
}

# gave_up (REKEY_ATTEMPT_TIME 1.5 s): side 2's device is down;
# one ping from side 1 starts a handshake: message 1 is sent and
# retransmitted 4 times (1 s + up to 1/3 s apart), then side 1 gives up
# (nothing asked for a handshake since) and drops the staged ping: exactly
# 5 initiations in 12 s, where starting over would make about 10.
gave_up() {
	local n before after
	fresh && nt_x 2 ip link set "$NT_DEV" down || return 1
	st_defer "ip -n $NT_NS2 link set $NT_DEV up"
	before=$(nt_dev_stat 1 drop_no_key)
	st_capture_start "$st_tmp/gu" nt_x 2 python3 "$st_here/udp.py" sniff veth0 "$NT_PORT2" 12 ||
		return 1
	nt_x 1 ping -c 1 -W 1 "$NT_IN4_2" > /dev/null
	wait "$ST_CAPTURE"
	n=$(grep -c '^0101' "$st_tmp/gu")
	after=$(nt_dev_stat 1 drop_no_key)
	echo "initiations seen in 12 s: $n; side 1 drop_no_key $before -> $after"
	nt_x 2 ip link set "$NT_DEV" up
	st_eq "initiations" "$n" 5 && st_ge "staged ping dropped" "$((after - before))" 1
}

# real_timers: debug_time_scale back to 1 and a fresh session made with
# it. (A session made with the scale at 60 armed its zeroing timer for 9 s;
# that timer would still fire and wipe every session mid-case.)
real_timers() {
	set_scale 1 > /dev/null && fresh && nt_ping_first 1 "$NT_IN4_2" > /dev/null
}

# cmd_ms T0: CMD_MS, the ms from T0 (date +%s%N) to now: how long a
# noisectl command took. In the loaded debug guest one takes 0.5 to 4 s,
# and the kernel applies the change near its end: the time to a new session
# is judged from the command's return (after_cmd), not from its start.
cmd_ms() {
	CMD_MS=$((($(date +%s%N) - $1) / 1000000))
}

# after_cmd WHAT: the new session (NEW_AFTER_MS) came at most 3 s after the
# command that made the change returned (CMD_MS). The designed paths take
# one retransmission at most (1 s + jitter; the tie-break resend is at
# once); the path they replace took 5 s (the initiator starting over).
after_cmd() {
	local d
	[[ "$NEW_AFTER_MS" =~ ^[0-9]+$ ]] || { echo "no new session"; return 1; }
	d=$((NEW_AFTER_MS - CMD_MS))
	if [ "$d" -lt 0 ]; then
		echo "new session $((-d)) ms before $1 command returned"
		return 0
	fi
	echo "new session $d ms after $1 command returned"
	at_most "ms from $1 command's return to the new session" "$d" 3000
}

# wait_sessions SIDE PUB T0: wait (up to 10 s) until that side's peer PUB
# names a handshake made after T0 (ns, date +%s%N); NEW_AFTER_MS is the
# time from T0 to it, as the kernel noted it (one noisectl call a poll:
# a later handshake is seldom made before the poll sees the first).
wait_sessions() {
	local i t
	NEW_AFTER_MS=none
	for ((i = 0; i < 50; i++)); do
		t=$(nt_handshake_ns "$1" "$2")
		if [[ "$t" =~ ^[0-9]+$ ]] && [ "$t" -gt "$3" ]; then
			NEW_AFTER_MS=$(((t - $3) / 1000000))
			return 0
		fi
		sleep 0.2
	done
	return 1
}

# psk_change: a new PSK on side 1, then 0.3 s after that command returned
# on side 2 (each command takes seconds in the loaded debug guest), while the
# stream runs (200/s each way): the first initiation after side 1's change
# is answered by side 2 with the old PSK and fails; side 2, once changed,
# answers its resend again with the new one (or side 1 yields to side 2's
# initiation), meant to give a new session well before side 1 would start
# over (5 s); asserted: a new session at most 3 s after side 2's command
# returned (after_cmd). Nothing is lost
# (the old session carries the stream until the new one is confirmed).
# Printed: the time from side 2's change to the new session, the longest
# gap each way.
psk_change() {
	local psk before now rc t0
	psk=$("$NOISECTL" genpsk) && echo "$psk" > "$st_tmp/psk" || return 1
	real_timers || return 1
	before=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	stream_start 200
	sleep 2
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" preshared-key "$st_tmp/psk" || return 1
	sleep 0.3
	t0=$(date +%s%N)
	nt_ctl 2 set "$NT_DEV" peer "$NT_PUB1" preshared-key "$st_tmp/psk" || return 1
	cmd_ms $t0
	NT_PSK=$psk
	wait_sessions 1 "$NT_PUB2" "$t0"
	sleep 2
	stream_stop
	rc=$?
	now=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	echo "new sessions after the PSK change: $((now - before)), the first $NEW_AFTER_MS ms after side 2's command started (it took $CMD_MS ms)"
	echo "side 1 drops: $(drops 1)"
	echo "side 2 drops: $(drops 2)"
	echo "PSK change: lost 1 -> 2: $LOST1, 2 -> 1: $LOST2; longest gap 1 -> 2: $GAP2 ms, 2 -> 1: $GAP1 ms"
	set_scale "$SCALE" > /dev/null
	st_ge "new sessions" "$((now - before))" 1 || return 1
	after_cmd "side 2's" || rc=1
	return $rc
}

# static_key_change: side 1 takes a new private key mid-stream; 0.3 s
# later side 2 replaces the peer (old public key removed, the new one
# added with the same endpoint, allowed IPs and PSK, in one request). The
# old session belongs to the old peer entry: side 1 keeps sending on it
# until the new session is confirmed, side 2 lost it with the replace, so
# the stream breaks from the replace until the new session (one handshake
# round trip: side 2's first packet to the new peer starts a handshake at
# once, side 1 answers it or resends its own at once). Printed: lost
# datagrams, the longest gap each way (ms); asserted: a gap under 5 s, at
# most 5 s of datagrams lost, a new session at most 3 s after the replace
# command returned (after_cmd).
static_key_change() {
	local priv pub rc t0 psk_arg=()
	priv=$(nt_genkey "$(nt_proto_dh "$PROTO")") && pub=$(echo "$priv" | nt_pubkey) || return 1
	echo "$priv" > "$st_tmp/priv1new"
	[ -n "$NT_PSK" ] && echo "$NT_PSK" > "$st_tmp/psk0" && psk_arg=(preshared-key "$st_tmp/psk0")
	real_timers || return 1
	stream_start 200
	sleep 2
	nt_ctl 1 set "$NT_DEV" private-key "$st_tmp/priv1new" || return 1
	sleep 0.3
	t0=$(date +%s%N)
	nt_ctl 2 set "$NT_DEV" peer "$NT_PUB1" remove peer "$pub" "${psk_arg[@]}" \
		endpoint "10.99.0.1:$NT_PORT1" allowed-ips "$NT_IN4_1/32,$NT_IN6_1/128" || return 1
	cmd_ms $t0
	wait_sessions 2 "$pub" "$t0"
	sleep 2
	stream_stop 1000
	rc=$?
	echo "side 1 drops: $(drops 1)"
	echo "side 2 drops: $(drops 2)"
	echo "static key change: lost 1 -> 2: $LOST1, 2 -> 1: $LOST2; longest gap 1 -> 2: $GAP2 ms, 2 -> 1: $GAP1 ms; new session $NEW_AFTER_MS ms after the replace command started (it took $CMD_MS ms)"
	NT_PUB1=$pub
	NT_PRIV1=$priv
	set_scale "$SCALE" > /dev/null
	[[ "$NEW_AFTER_MS" =~ ^[0-9]+$ ]] || { echo "no session with the new key"; return 1; }
	after_cmd "the replace" || rc=1
	at_most "longest gap 1 -> 2 (ms)" "$GAP2" 4999 &&
	at_most "longest gap 2 -> 1 (ms)" "$GAP1" 4999 && return $rc
}

st_plan 13
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_defer "rmmod noise"
st_must "debug_time_scale=$SCALE" set_scale "$SCALE"
st_must "a tunnel ($PROTO), first ping" setup
st_run_v "UDP stream both ways across ten rekeys: none lost, duplicated or reordered" rekeys_stream
st_run_v "a session past REJECT_AFTER_TIME is refused before any crypto" refused_after_reject
st_run_v "a session past the zeroing time is gone" zeroed_after_idle
st_run_v "device down and up: the keys are gone" zeroed_on_down
st_run_v "an unanswered handshake is retried 4 times, then given up" gave_up
st_run "ping again after all that" nt_ping_first 1 "$NT_IN4_2"
st_run_v "PSK changed on both sides mid-stream: a new session, nothing lost" psk_change
st_run_v "side 1's static key changed mid-stream, side 2 replaces the peer: gap measured" static_key_change
st_run "debug_time_scale back to 1" set_scale 1
st_done
