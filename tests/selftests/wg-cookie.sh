#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cookie replies both ways between our WireGuard-profile device and the
# kernel's WireGuard:
# - WireGuard under a real flood of initiations with a valid mac1 (from
#   another address: udpflood processes sending wg-flood.py's messages
#   with sendmmsg; each costs it a DH)
#   fills its handshake queue past 1/8 of 4096 and answers our initiation
#   with a cookie reply; we take it (our peer's cookie_replies), our
#   retransmission carries mac2 (mac2_sent) and the handshake completes
#   (behind the flood's queue: the pings go on for up to 180 s more, past
#   the flooders' own 120 s). Whether the flooders outrun WireGuard's DH
#   worker depends on the machine: if WireGuard never went under load in
#   the tries, the case is skipped with what was seen.
# - we, held under load (the test-only module parameter force_under_load),
#   answer WireGuard's initiation with WireGuard's cookie reply (64 bytes,
#   type 3: our drop_cookie); WireGuard takes it, its retransmission
#   carries a valid mac2 (our mac2_accepted), we let it through and the
#   handshake completes.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/wg-lib.sh"

st_need ip ping jq wg python3 timeout "$NOISECTL" "$st_here/udpflood"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"
ip link add wgprobe0 type wireguard 2> /dev/null || st_skip_all "no WireGuard in this kernel"
ip link del wgprobe0

# start_flood NS DST PORT PUB SRC OUT: $WG_FLOODERS (4) udpflood
# processes in NS at DST:PORT (responder key PUB) from SRC, sending the
# initiations wg-flood.py made, output in OUT.<i>; their pids in the array
# "flood" (each one's own, from OUT.<i>.pid: `ip netns exec` may fork, and
# then $! is ip, which passes no signal on), the background jobs in
# "flood_jobs".
start_flood() {
	local i j
	flood=() flood_jobs=()
	python3 "$st_here/wg-flood.py" msgs "$4" "$6.msgs" || return 1
	for ((i = 0; i < ${WG_FLOODERS:-4}; i++)); do
		rm -f "$6.$i.pid"
		ip netns exec "$1" sh -c 'echo $$ > "$0.pid" && exec "$@"' "$6.$i" \
			"$st_here/udpflood" "$5" "$2" "$3" 148 120 "$6.msgs" > "$6.$i.out" 2>&1 &
		flood_jobs+=($!)
		for ((j = 0; j < 100; j++)); do
			[ -s "$6.$i.pid" ] && break
			sleep 0.1
		done
		[ -s "$6.$i.pid" ] || { echo "flooder $i did not start"; return 1; }
		flood+=($(cat "$6.$i.pid"))
		st_defer "kill ${flood[i]}"
	done
}

# stop_flood OUT: the flooders of start_flood (output OUT.<i>) stopped:
# SIGTERM (each then prints what it sent), SIGKILL for those that did not
# say so within 3 s; waited for.
stop_flood() {
	local i n
	kill "${flood[@]}" 2> /dev/null
	for ((i = 0; i < 30; i++)); do
		n=$(cat "$1".*.out 2> /dev/null | grep -c '^# sent=')
		[ "$n" -ge "${#flood[@]}" ] && break
		sleep 0.1
	done
	[ "$n" -ge "${#flood[@]}" ] || kill -9 "${flood[@]}" 2> /dev/null
	wait "${flood_jobs[@]}" 2> /dev/null
	echo "flooders stopped: $n of ${#flood[@]} by SIGTERM within $((i / 10)).$((i % 10)) s"
}

# WireGuard under load answers our initiation with a cookie reply; we
# honour it.
wg_cookie() {
	local flood flood_jobs rc=1 try cr=0 m2=0 waited
	nt_x 1 ip addr add 10.99.0.3/24 dev veth0 || return 1
	start_flood "$NT_NS1" 10.99.0.2 "$NT_PORT2" "$WG_PUB2" 10.99.0.3 "$st_tmp/flood" ||
		return 1
	# Under load comes and goes: start handshakes (a fresh peer, so fresh
	# counters, each time) until one of them got a cookie reply.
	for ((try = 0; try < 10; try++)); do
		sleep 2
		nt_ctl 1 set "$NT_DEV" peer "$WG_PUB2" remove &&
		nt_ctl 1 setconf "$NT_DEV" "$st_tmp/ours.conf" || break
		nt_ping_first 1 "$NT_IN4_2" > /dev/null
		rc=$?
		cr=$(nt_peer_stat 1 "$WG_PUB2" cookie_replies)
		m2=$(nt_peer_stat 1 "$WG_PUB2" mac2_sent)
		[ "${cr:-0}" -ge 1 ] && break
	done
	# Behind a flooded queue our handshake waits its turn, which can take
	# longer than the pings above; the flooders stop by themselves after
	# 120 s and WireGuard then works through its queue, still under load.
	waited=$SECONDS
	while [ $rc != 0 ] && [ "${cr:-0}" -ge 1 ] && ((SECONDS - waited < 180)); do
		nt_ping_first 1 "$NT_IN4_2" > /dev/null
		rc=$?
	done
	m2=$(nt_peer_stat 1 "$WG_PUB2" mac2_sent)
	echo "handshakes tried: $((try < 10 ? try + 1 : try)); last ping status $rc" \
		"(pinged $((SECONDS - waited)) s more);" \
		"cookie replies taken $cr, handshake messages with mac2 $m2"
	stop_flood "$st_tmp/flood"
	cat "$st_tmp"/flood.*.out
	nt_ctl 1 show "$NT_DEV"
	[ $rc = 0 ] || return 1
	[ "${cr:-0}" -ge 1 ] ||
		{ st_skip_case "WireGuard never went under load in $try handshakes (no cookie reply to us)"; return; }
	st_ge "our handshake messages with mac2 after its cookie reply" "$m2" 1
}

# We held under load answer WireGuard's initiation with a cookie reply; it
# honours it: its retransmission (after REKEY_TIMEOUT, 5 s) carries mac2.
wg_cookie_ours() {
	local p=/sys/module/noise/parameters/force_under_load rc=0
	local c0 c1 m0 m1 h0 h1
	c0=$(nt_dev_stat 1 drop_cookie) m0=$(nt_dev_stat 1 mac2_accepted)
	h0=$(nt_dev_stat 1 handshakes)
	[ -e "$p" ] || { st_skip_case "noise.ko is not the test build (NOISE_TESTING=1): no force_under_load"; return; }
	echo 1 > "$p" || return 1
	st_defer "echo 0 > $p"
	nt_x 2 wg set "$WG_IF" peer "$WG_PUB1" remove &&
	nt_x 2 wg setconf "$WG_IF" "$st_tmp/theirs.conf" || rc=1
	[ $rc = 0 ] && { nt_ping_first 2 "$NT_IN4_1" > /dev/null || rc=1; }
	echo 0 > "$p"
	c1=$(nt_dev_stat 1 drop_cookie) m1=$(nt_dev_stat 1 mac2_accepted)
	h1=$(nt_dev_stat 1 handshakes)
	echo "our drop_cookie $c0 -> $c1, mac2_accepted $m0 -> $m1, handshakes $h0 -> $h1"
	nt_ctl 1 show "$NT_DEV" --json | jq -c .stats
	[ $rc = 0 ] || return 1
	st_ge "our cookie replies (drop_cookie grew by)" $((c1 - c0)) 1 &&
	st_ge "WireGuard's initiations with a valid mac2 (mac2_accepted grew by)" $((m1 - m0)) 1 &&
	st_ge "our handshakes (grew by)" $((h1 - h0)) 1
}

st_plan 6
st_must "namespaces" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "module loads" noise_load
st_defer "rmmod noise"
wg_impl kernel
st_must "configured" wg_setup 4
st_run_v "under load, WireGuard's cookie reply is honoured" wg_cookie
st_run_v "we held under load send WireGuard a cookie reply it honours" wg_cookie_ours
st_kmemleak_case "kmemleak: nothing leaked"
st_done
