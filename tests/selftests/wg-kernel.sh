#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our device with the WireGuard profile (`Protocol = WireGuard`) against
# the kernel's own WireGuard (drivers/net/wireguard, configured with `wg`
# from wireguard-tools) in the other namespace: handshakes either way,
# ping and iperf3 TCP both ways, IPv4 and IPv6 inside and outside, with and
# without a PSK, endpoint changes followed by both sides, `wg show`'s view
# of us, and a wrong PSK or key getting nothing through (our counters say
# why). Then `noisectl showconf` is a file `wg setconf` takes, and a `wg`
# file is one `noisectl setconf` takes. (Cookies under load: wg-cookie.sh.)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/wg-lib.sh"

st_need ip ping iperf3 jq wg timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"
ip link add wgprobe0 type wireguard 2> /dev/null || st_skip_all "no WireGuard in this kernel"
ip link del wgprobe0

st_plan 31
st_must "namespaces" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "module loads" noise_load
st_defer "rmmod noise"
wg_impl kernel
wg_interop kernel

# noisectl showconf of a WireGuard-profile device is a wg file.
showconf_to_wg() {
	nt_ctl 1 showconf "$NT_DEV" > "$st_tmp/shown.conf" || return 1
	cat "$st_tmp/shown.conf"
	nt_x 2 ip link add wgk9 type wireguard &&
	nt_x 2 wg setconf wgk9 "$st_tmp/shown.conf" &&
	nt_x 2 wg showconf wgk9 | grep -qF "PublicKey = $WG_PUB2"
	local rc=$?
	nt_x 2 ip link del wgk9
	return $rc
}

# wg showconf's output (keys included) is taken by noisectl setconf
# unchanged, and the device stays a WireGuard one.
wg_to_setconf() {
	st_eq "protocol" "$(nt_json 1 .protocol)" WireGuard || return 1
	nt_x 2 wg showconf "$WG_IF" > "$st_tmp/wgshow.conf" || return 1
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/wgshow.conf" &&
	st_eq "protocol after setconf" "$(nt_json 1 .protocol)" WireGuard &&
	st_eq "peer" "$(nt_json 1 '.peers[0].public_key')" "$WG_PUB1"
}

# transfer_same SIDE: ten 84-byte pings from SIDE on a fresh session, then
# quiet: each side counts every message on the wire (handshake messages
# and keepalives included, each data message with its header, padding and
# tag): what we sent is what WireGuard received and the other way round.
transfer_same() {
	local i ours theirs
	nt_x "$1" ping -c 10 -i 0.2 -w 30 -q -s 56 "$([ "$1" = 1 ] && echo "$NT_IN4_2" || echo "$NT_IN4_1")" \
		> /dev/null || return 1
	for ((i = 0; i < 60; i++)); do
		ours="$(nt_peer_stat 1 "$WG_PUB2" tx_bytes) $(nt_peer_stat 1 "$WG_PUB2" rx_bytes)"
		theirs=$(wg_show transfer | awk '{ print $2, $3 }')
		[ "$ours" = "$theirs" ] && break
		st_nap 0.5
	done
	echo "side $1 initiates: bytes sent, received: ours $ours; WireGuard's received, sent: $theirs"
	st_eq "our peer's tx_bytes rx_bytes vs WireGuard's rx tx" "$ours" "$theirs"
}

# transfer_as_wg: we initiate, then (sessions forgotten) WireGuard does.
# A handshake and ten pings: 148 + 10 * 128 = 1428 bytes sent by the
# initiator, 92 + 1280 = 1372 received, and 32 for each keepalive.
transfer_as_wg() {
	transfer_same 1 || return 1
	st_ge "bytes we sent" "$(nt_peer_stat 1 "$WG_PUB2" tx_bytes)" 1428 &&
	wg_reset && transfer_same 2 &&
	st_ge "bytes we received" "$(nt_peer_stat 1 "$WG_PUB2" rx_bytes)" 1428
}

st_must "configured again" wg_setup 4
st_run_v "wg show transfer and ours count the same bytes on the wire" transfer_as_wg
st_run "noisectl showconf is a file wg setconf takes" showconf_to_wg
st_run "noisectl setconf takes wg showconf's file" wg_to_setconf
st_kmemleak_case "kmemleak: nothing leaked"
st_done
