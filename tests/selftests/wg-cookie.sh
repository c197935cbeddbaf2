#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cookie replies both ways between our WireGuard-profile device and the
# kernel's WireGuard, each side under a real flood of initiations with a
# valid mac1 (from another address, several processes: each costs the
# receiver a DH) that fills its handshake queue past 1/8 of 4096:
# - WireGuard under load answers our initiation with a cookie reply; our
#   retransmission carries mac2 and the handshake completes while the
#   flood goes on;
# - we under load answer WireGuard's initiation with WireGuard's cookie
#   reply (64 bytes, type 3); WireGuard accepts it, its retransmission
#   carries mac2, we let it through and the handshake completes.
# Whether a flood gets its target under load depends on the machine (the
# flooders must outrun the target's DH worker).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/wg-lib.sh"

st_need ip ping jq wg python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"
ip link add wgprobe0 type wireguard 2> /dev/null || st_skip_all "no WireGuard in this kernel"
ip link del wgprobe0

# start_flood NS DST PORT PUB SRC OUT: $WG_FLOODERS (4) wg-flood.py
# processes in NS at DST:PORT (responder key PUB) from SRC, output in
# OUT.<i>; their pids in the array "flood".
start_flood() {
	local i
	flood=()
	for ((i = 0; i < ${WG_FLOODERS:-4}; i++)); do
		ip netns exec "$1" python3 "$st_here/wg-flood.py" flood "$2" "$3" "$4" 120 \
			"$5" > "$6.$i.out" 2>&1 &
		flood+=($!)
		st_defer "kill $!"
	done
}

# WireGuard under load (a flood of initiations with a valid mac1 from
# another address) answers our initiation with a cookie reply; we honour
# it: our next initiation carries mac2, and the handshake completes while
# the flood goes on.
wg_cookie() {
	local out=$st_tmp/watch.out
	nt_x 1 ip addr add 10.99.0.3/24 dev veth0 || return 1
	st_capture_start "$out" nt_x 2 python3 "$st_here/wg-flood.py" watch veth0 300 \
		"$NT_PORT1" "$NT_PORT2" || return 1
	local flood
	start_flood "$NT_NS1" 10.99.0.2 "$NT_PORT2" "$WG_PUB2" 10.99.0.3 "$st_tmp/flood"
	# Under load comes and goes: start handshakes (a fresh session each
	# time) until one of them met it, i.e. got a cookie reply.
	local rc=1 try
	for ((try = 0; try < 10; try++)); do
		sleep 2
		nt_ctl 1 set "$NT_DEV" peer "$WG_PUB2" remove &&
		nt_ctl 1 setconf "$NT_DEV" "$st_tmp/ours.conf" || break
		nt_ping_first 1 "$NT_IN4_2" > /dev/null
		rc=$?
		grep -q '^# cookie reply to us' "$out" && break
	done
	echo "handshakes tried: $((try + 1)); last ping status $rc"
	st_capture_stop "$out"
	kill "${flood[@]}" 2> /dev/null
	wait "${flood[@]}"
	cat "$out" "$st_tmp"/flood.*.out
	[ $rc = 0 ] || return 1
	grep -q 'cookie_replies=[1-9]' "$out" ||
		st_fail "no cookie reply: WireGuard did not go under load" || return 1
	grep -q 'mac2_initiations=[1-9]' "$out" ||
		st_fail "no initiation of ours carried mac2"
}

# We under load (the flood from 10.99.0.4 in WireGuard's namespace, at our
# device) answer WireGuard's initiation with a cookie reply; it honours it.
wg_cookie_ours() {
	local out=$st_tmp/watch-ours.out before after
	nt_x 2 ip addr add 10.99.0.4/24 dev veth0 || return 1
	st_capture_start "$out" nt_x 1 python3 "$st_here/wg-flood.py" watch veth0 300 \
		"$NT_PORT1" "$NT_PORT2" || return 1
	before=$(nt_dev_stat 1 drop_cookie)
	local flood
	start_flood "$NT_NS2" 10.99.0.1 "$NT_PORT1" "$WG_PUB1" 10.99.0.4 "$st_tmp/flood-ours"
	local rc=1 try
	for ((try = 0; try < 6; try++)); do
		sleep 2
		nt_x 2 wg set "$WG_IF" peer "$WG_PUB1" remove &&
		nt_x 2 wg setconf "$WG_IF" "$st_tmp/theirs.conf" || break
		nt_ping_first 2 "$NT_IN4_1" > /dev/null
		rc=$?
		grep -q '^# cookie reply to them' "$out" && break
	done
	after=$(nt_dev_stat 1 drop_cookie)
	echo "handshakes tried: $((try + 1)); last ping status $rc;" \
		"our drop_cookie $before -> $after"
	st_capture_stop "$out"
	kill "${flood[@]}" 2> /dev/null
	wait "${flood[@]}"
	cat "$out" "$st_tmp"/flood-ours.*.out
	nt_ctl 1 show "$NT_DEV" --json | jq -c .stats
	[ $rc = 0 ] || return 1
	st_ge "our cookie replies (drop_cookie grew by)" $((after - before)) 1 || return 1
	grep -q 'cookie_replies_to_them=[1-9]' "$out" ||
		st_fail "no cookie reply of ours reached WireGuard" || return 1
	grep -q 'mac2_initiations_from_them=[1-9]' "$out" ||
		st_fail "no initiation of WireGuard's carried mac2"
}

st_plan 6
st_must "namespaces" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "module loads" noise_load
st_defer "rmmod noise"
wg_impl kernel
st_must "configured" wg_setup 4
st_run_v "under load, WireGuard's cookie reply is honoured" wg_cookie
st_run_v "we under load send WireGuard a cookie reply it honours" wg_cookie_ours
st_kmemleak_case "kmemleak: nothing leaked"
st_done
