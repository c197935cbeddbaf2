#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our WireGuard-profile device honours the cookie reply of a kernel
# WireGuard under load: a flood of initiations with a valid mac1 (from
# another address, several processes: each costs WireGuard a DH) fills its
# handshake queue past 1/8 of 4096; it then answers our initiation with a
# cookie reply; our retransmission carries mac2 and the handshake completes
# while the flood goes on. Whether the flood gets WireGuard under load
# depends on the machine (the flooders must outrun its DH worker).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/wg-lib.sh"

st_need ip ping jq wg python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"
ip link add wgprobe0 type wireguard 2> /dev/null || st_skip_all "no WireGuard in this kernel"
ip link del wgprobe0

# WireGuard under load (a flood of initiations with a valid mac1 from
# another address) answers our initiation with a cookie reply; we honour
# it: our next initiation carries mac2, and the handshake completes while
# the flood goes on.
wg_cookie() {
	local out=$st_tmp/watch.out
	nt_x 1 ip addr add 10.99.0.3/24 dev veth0 || return 1
	st_capture_start "$out" nt_x 2 python3 "$st_here/wg-flood.py" watch veth0 60 \
		"$NT_PORT1" "$NT_PORT2" || return 1
	local i flood=()
	for ((i = 0; i < ${WG_FLOODERS:-4}; i++)); do
		nt_x 1 python3 "$st_here/wg-flood.py" flood 10.99.0.2 "$NT_PORT2" "$WG_PUB2" 40 \
			10.99.0.3 > "$st_tmp/flood.$i.out" 2>&1 &
		flood+=($!)
		st_defer "kill $!"
	done
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
		st_fail "no cookie reply: WireGuard did not go under load"
	grep -q 'mac2_initiations=[1-9]' "$out" ||
		st_fail "no initiation of ours carried mac2"
}

st_plan 5
st_must "namespaces" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "module loads" noise_load
st_defer "rmmod noise"
wg_impl kernel
st_must "configured" wg_setup 4
st_run_v "under load, WireGuard's cookie reply is honoured" wg_cookie
st_kmemleak_case "kmemleak: nothing leaked"
st_done
