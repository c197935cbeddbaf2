#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our device with the WireGuard profile against wireguard-go, a second,
# independent WireGuard (userspace, on a TUN device), in the other
# namespace: the same cases as wg-kernel.sh (handshakes either way, ping
# and iperf3 TCP both ways, IPv4 and IPv6 inside and outside, with and
# without a PSK, endpoint changes, `wg show`, wrong PSK and wrong key).
# wireguard-go's control socket is /run/wireguard/<ifname>.sock, shared by
# every namespace: the interface gets a name of its own (wgo<pid>).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/wg-lib.sh"

st_need ip ping iperf3 jq wg wireguard-go timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"
[ -c /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; } ||
	st_skip_all "no /dev/net/tun"

st_plan 27
st_must "namespaces" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "module loads" noise_load
st_defer "rmmod noise"
wg_impl go
st_defer "wg_theirs_down"
wg_interop wireguard-go
st_kmemleak_case "kmemleak: nothing leaked"
st_done
