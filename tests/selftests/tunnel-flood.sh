#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The handshake defences under a real flood (Documentation/cookies.rst):
# side 1 (10.99.0.1) and side 2 run the default protocol; flooders in side
# 1's namespace, from another address (10.99.0.3), send side 2 message-1
# initiations with a valid mac1 and no mac2, bounded in count and time.
# Each one that gets through costs side 2 a DH, so its handshake queue
# fills and it goes under load; from then on they get cookie replies
# instead. Meanwhile side 1 keeps pinging over its session (the first
# third of the flood), then forgets it and starts a fresh handshake, which must complete under the flood (a cookie reply,
# our retransmission with mac2, the rate limiter lets it through).
# Printed: the flood rate, the share of flood packets that reached DH
# (side 2's drop_handshake counter: a flood message that reaches the
# handshake fails right after its first DH), what stopped the others, the
# CPU per flood packet (whole machine), the legitimate pings and the
# cookie replies side 1 took (its peer's cookie_replies, mac2_sent).
# FLOODERS (4), FLOOD_SECONDS (25), FLOOD_MAX (60000 per flooder) bound
# it. Then, with side 2 held under load (the test-only module parameter
# force_under_load), a fresh handshake must go the whole cookie way: a
# cookie reply, side 1 takes it, its retransmission carries mac2, side 2
# accepts the mac2 and the session comes up.
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s
FLOODERS=${FLOODERS:-4}
FLOOD_SECONDS=${FLOOD_SECONDS:-25}
FLOOD_MAX=${FLOOD_MAX:-60000}
STATS="handshakes drop_handshake drop_mac1 drop_cookie drop_ratelimit drop_hs_queue mac2_accepted"

# stats_save FILE: side 2's device counters of $STATS, "key value" lines
# (one noisectl call: each costs seconds in a loaded debug guest)
stats_save() {
	nt_json 2 --arg ks "$STATS" '.stats as $s | $ks | split(" ")[] | "\(.) \($s[.])"' > "$1" &&
	[ "$(wc -l < "$1")" = "$(echo $STATS | wc -w)" ]
}

# delta KEY: counter KEY, after minus before
delta() {
	echo $(($(awk -v k="$1" '$1 == k {print $2}' "$st_tmp/after") -
		$(awk -v k="$1" '$1 == k {print $2}' "$st_tmp/before")))
}

# busy: the CPU's non-idle time so far, in USER_HZ ticks (/proc/stat)
busy() {
	awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8}' /proc/stat
}

flood_run() {
	local i pids=() t0 t1 b0 b1
	nt_x 1 ip addr add 10.99.0.3/24 dev veth0 || return 1
	stats_save "$st_tmp/before" || return 1
	for ((i = 0; i < FLOODERS; i++)); do
		ip netns exec "$NT_NS1" timeout $((FLOOD_SECONDS + 60)) python3 "$st_here/wg-flood.py" \
			flood-native 10.99.0.2 "$NT_PORT2" "$NT_PUB2" "$FLOOD_SECONDS" \
			10.99.0.3 "$FLOOD_MAX" > "$st_tmp/flood.$i.out" 2>&1 &
		pids+=($!)
		st_defer "kill $!"
	done
	# Python starts slowly in the debug kernel: time from the last start.
	for ((i = 0; i < FLOODERS; i++)); do
		local j
		for ((j = 0; j < 600; j++)); do
			grep -q '^# flooding' "$st_tmp/flood.$i.out" && break
			sleep 0.1
		done
	done
	t0=$(date +%s.%N) b0=$(busy)
	# Legitimate traffic over the existing session, through the flood;
	# then (under load now, or never) a fresh handshake from side 1.
	nt_x 1 ping -i 0.5 -c $((FLOOD_SECONDS * 2 / 3)) -W 2 "$NT_IN4_2" \
		> "$st_tmp/ping.out" 2>&1
	echo "side 2 under load before the fresh handshake: drop_cookie=$(nt_dev_stat 2 drop_cookie)"
	local hs0
	hs0=$(nt_peer_stat 2 "$NT_PUB1" handshakes)
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" remove &&
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" || return 1
	FRESH=1
	nt_ping_first 1 "$NT_IN4_2" > "$st_tmp/fresh.out" 2>&1 || FRESH=0
	FRESH_HS=$(($(nt_peer_stat 2 "$NT_PUB1" handshakes) - hs0))
	wait "${pids[@]}"
	t1=$(date +%s.%N) b1=$(busy)
	stats_save "$st_tmp/after"
	cat "$st_tmp"/flood.*.out "$st_tmp/fresh.out"
	tail -n 2 "$st_tmp/ping.out"
	SENT=$(cat "$st_tmp"/flood.*.out | sed -n 's/^# sent=\([0-9]*\).*/\1/p' |
	       awk '{n += $1} END {print n + 0}')
	local secs
	secs=$(cat "$st_tmp"/flood.*.out | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' |
	       sort -n | tail -n 1)
	DH=$(delta drop_handshake)
	COOKIE=$(delta drop_cookie)
	LIMITED=$(delta drop_ratelimit)
	QFULL=$(delta drop_hs_queue)
	MAC1=$(delta drop_mac1)
	PING_RX=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$st_tmp/ping.out")
	PING_TX=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' "$st_tmp/ping.out")
	# Side 1's peer was made anew for the fresh handshake: its counters
	# are those of that handshake.
	COOKIE_TO_US=$(nt_peer_stat 1 "$NT_PUB2" cookie_replies)
	MAC2_FROM_US=$(nt_peer_stat 1 "$NT_PUB2" mac2_sent)
	echo "flood: $SENT initiations in ${secs:-?} s from $FLOODERS flooders:" \
		"$(awk -v n="$SENT" -v s="${secs:-0}" 'BEGIN {printf "%.0f", (s > 0 ? n / s : 0)}') per second"
	echo "side 2: reached DH $DH ($(awk -v a="$DH" -v n="$SENT" \
		'BEGIN {printf "%.1f", n ? 100 * a / n : 0}')%), cookie replies $COOKIE," \
		"rate limited $LIMITED, queue full $QFULL, bad mac1 $MAC1"
	echo "CPU, whole machine (flooders included): $(awk -v b=$((b1 - b0)) -v n="$SENT" \
		'BEGIN {printf "%.1f", n ? b * 10000 / n : 0}') us per flood packet" \
		"($((b1 - b0)) ticks over $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s)"
	echo "legitimate: $PING_RX of $PING_TX pings over the old session; fresh handshake:" \
		"$FRESH_HS completed, ping $([ $FRESH = 1 ] && echo ok || echo failed);" \
		"cookie replies side 1 took: $COOKIE_TO_US, its initiations with mac2: $MAC2_FROM_US," \
		"side 2 accepted mac2s: $(delta mac2_accepted)"
}

flood_went() {
	st_ge "flood initiations sent" "$SENT" 1000 &&
	st_eq "flood messages with a bad mac1" "$MAC1" 0
}

under_load() {
	st_ge "cookie replies sent by side 2" "$COOKIE" 1
}

# The queue in front of the handshake work never filled: under load the
# flood only gets in as fast as the work takes messages (printed above:
# the share that reached DH), instead of filling all 4096 slots and
# pushing legitimate messages out.
queue_bounded() {
	st_eq "side 2 drop_hs_queue" "$QFULL" 0 &&
	st_ge "flood messages stopped before DH" $((SENT - DH)) 1
}

old_session() {	# at least 80% of the pings over the old session answered
	st_ge "pings answered (x5)" $((5 * PING_RX)) $((4 * PING_TX))
}

fresh_handshake() {
	[ "$FRESH" = 1 ] || { echo "no ping after the fresh handshake"; return 1; }
	st_ge "side 2's new handshakes with side 1" "$FRESH_HS" 1
}

# forced_cookie: side 2 held under load (force_under_load); side 1
# forgets its session and handshakes anew. Side 2 must answer with a
# cookie reply (drop_cookie), side 1 take it (cookie_replies) and MAC its
# retransmission with it (mac2_sent), side 2 accept that mac2
# (mac2_accepted) and complete the handshake.
forced_cookie() {
	local p=/sys/module/noise/parameters/force_under_load hs0 rc=0
	[ -e "$p" ] || { st_skip_case "noise.ko is not the test build (NOISE_TESTING=1): no force_under_load"; return; }
	stats_save "$st_tmp/before" || return 1
	hs0=$(nt_peer_stat 2 "$NT_PUB1" handshakes)
	echo 1 > "$p" || return 1
	st_defer "echo 0 > $p"
	nt_ctl 1 set "$NT_DEV" peer "$NT_PUB2" remove &&
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" || rc=1
	[ $rc = 0 ] && { nt_ping_first 1 "$NT_IN4_2" || rc=1; }
	echo 0 > "$p"
	stats_save "$st_tmp/after"
	nt_ctl 1 show "$NT_DEV"
	[ $rc = 0 ] || return 1
	st_ge "side 2's cookie replies (drop_cookie grew by)" "$(delta drop_cookie)" 1 &&
	st_ge "cookie replies side 1 took" "$(nt_peer_stat 1 "$NT_PUB2" cookie_replies)" 1 &&
	st_ge "side 1's handshake messages with mac2" "$(nt_peer_stat 1 "$NT_PUB2" mac2_sent)" 1 &&
	st_ge "side 2's accepted mac2s" "$(delta mac2_accepted)" 1 &&
	st_ge "side 2's new handshakes with side 1" \
		$(($(nt_peer_stat 2 "$NT_PUB1" handshakes) - hs0)) 1
}

st_plan 12
st_must "namespaces" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "module loads" noise_load
st_defer "rmmod noise"
st_must "tunnel up" nt_up "$PROTO"
st_must "session before the flood" nt_ping_first 1 "$NT_IN4_2"
st_run_v "flood with a legitimate peer" flood_run
st_run "the flood ran, with valid mac1s" flood_went
st_run "side 2 went under load: cookie replies" under_load
st_run "the handshake queue never filled" queue_bounded
st_run "the old session kept working" old_session
st_run "a fresh handshake completed under the flood" fresh_handshake
st_run_v "side 2 held under load: cookie reply taken, mac2 sent and accepted, session made" \
	forced_cookie
st_kmemleak_case "kmemleak: nothing leaked"
st_done
