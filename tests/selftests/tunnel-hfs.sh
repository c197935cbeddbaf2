#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tunnel with hybrid post-quantum handshakes (the hfs modifier: an
# ML-KEM key pair and ciphertext beside the DH tokens), each on fresh
# devices between two namespaces: IK, XX, IKpsk2 and KKpsk0 (hinted) with
# 25519+MLKEM768 and 448+MLKEM1024. Each: what both sides report, ping and
# ping6 through it, one second of iperf3 TCP. Most run with a 1,280-byte
# MTU on the outer veth (IPv6's minimum): their handshake messages (1.2 to
# 1.8 KiB) cross it as IP fragments, which the receiver's reassembly
# counter shows. Then a session rekeyed twice under traffic, and a side
# with hfs against a side without: no session, every message dropped as
# bad_length on both sides.
source "$(dirname "$0")/lib.sh"

st_need ip ping iperf3 jq python3 base64 "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

# protocol, outer family, outer MTU
PROTOS=(
	"Noise_IKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s 6 1280"
	"Noise_IKhfs_448+MLKEM1024_AESGCM_SHA512 4 1500"
	"Noise_XXhfs_25519+MLKEM768_AESGCM_SHA256 4 1500"
	"Noise_XXhfs_448+MLKEM1024_ChaChaPoly_BLAKE2b 6 1280"
	"Noise_IKhfs+psk2_25519+MLKEM768_ChaChaPoly_BLAKE2s 4 1280"
	"Noise_KKhfs+psk0_448+MLKEM1024_AESGCM_SHA512 6 1280"
)
SCALE_P=/sys/module/noise/parameters/debug_time_scale

fresh_tunnel() {	# PROTO OUTER MTU
	local s
	for s in 1 2; do
		nt_x $s ip link del "$NT_DEV" 2> /dev/null
		nt_x $s ip link set veth0 mtu "$3" || return 1
	done
	nt_dev 1 && nt_dev 2 && nt_up "$1" "$2"
}

# reasm SIDE OUTER: datagrams that side's IP layer reassembled so far
reasm() {
	if [ "$2" = 6 ]; then
		nt_x "$1" awk '$1 == "Ip6ReasmOKs" { print $2 }' /proc/net/snmp6
	else
		nt_x "$1" awk '$1 == "Ip:" && $2 ~ /^[0-9]/ { print $16 }' /proc/net/snmp
	fi
}

check_device() {	# PROTO
	local s
	for s in 1 2; do
		st_eq "side $s protocol" "$(nt_json $s .protocol)" "$1" || return 1
	done
	st_eq "side 2's peer" "$(nt_json 2 '.peers[0].public_key')" "$NT_PUB1"
}

# pings OUTER MTU: the first ping starts the handshake; over a 1280-byte
# path message 1 arrived in fragments (every hfs message 1 exceeds it; a
# message 2 does with ML-KEM-1024, not with ML-KEM-768's ciphertext).
pings() {
	local r1 r2
	r1=$(reasm 1 "$1") r2=$(reasm 2 "$1")
	nt_ping_first 1 "$NT_IN4_2" && nt_have_session && nt_ping 2 "$NT_IN6_1" ||
		return 1
	[ "$2" -gt 1280 ] && return 0
	echo "reassembled: side 1 $r1 -> $(reasm 1 "$1"), side 2 $r2 -> $(reasm 2 "$1")"
	st_ge "side 2 reassembled datagrams" "$(reasm 2 "$1")" $((r2 + 1))
}

# rekeys: with debug_time_scale=60 a session is rekeyed when used after
# 2 s; 30 pings over 9 s give at least two more handshakes, none lost.
rekeys() {
	local before now rc=0
	before=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	echo 60 > "$SCALE_P" || return 1
	nt_x 1 ping -c 30 -i 0.3 -w 40 -q "$NT_IN4_2" || rc=1
	echo 1 > "$SCALE_P"
	now=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	echo "handshakes: $before -> $now"
	st_ge "handshakes during the pings" "$now" $((before + 2)) && return $rc
}

# mismatch: side 1 with hfs, side 2 the same pattern and keys without it.
# Either side's initiations are refused by length before any work.
mismatch() {
	local d1 d2 plain=Noise_IK_25519_ChaChaPoly_BLAKE2s
	fresh_tunnel Noise_IKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s 4 1500 || return 1
	sed -i "s/^Protocol = .*/Protocol = $plain/" "$st_tmp/noise-2.conf"
	nt_ctl 2 setconf "$NT_DEV" "$st_tmp/noise-2.conf" || return 1
	st_eq "side 2 protocol" "$(nt_json 2 .protocol)" "$plain" || return 1
	d1=$(nt_dev_stat 1 drop_bad_length) d2=$(nt_dev_stat 2 drop_bad_length)
	nt_noping 1 "$NT_IN4_2" && nt_noping 2 "$NT_IN4_1" || return 1
	echo "drop_bad_length: side 1 $d1 -> $(nt_dev_stat 1 drop_bad_length)," \
		"side 2 $d2 -> $(nt_dev_stat 2 drop_bad_length)"
	st_ge "side 2 drops for length" "$(nt_dev_stat 2 drop_bad_length)" $((d2 + 1)) &&
	st_ge "side 1 drops for length" "$(nt_dev_stat 1 drop_bad_length)" $((d1 + 1)) &&
	st_eq "side 1 handshakes" "$(nt_peer_stat 1 "$NT_PUB2" handshakes)" 0 &&
	st_eq "side 2 handshakes" "$(nt_peer_stat 2 "$NT_PUB1" handshakes)" 0
}

st_plan $((2 + 4 * ${#PROTOS[@]} + 4))
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
for p in "${PROTOS[@]}"; do
	set -- $p
	proto=$1 outer=$2 mtu=$3
	if ! st_run "$proto: fresh devices, setconf both sides (IPv$outer outside, MTU $mtu)" \
		fresh_tunnel "$proto" "$outer" "$mtu"; then
		for c in "device and peer" "ping and ping6 through it, a session on both sides" "iperf3 TCP"; do
			st_skip "$proto: $c" "the tunnel could not be set up"
		done
		continue
	fi
	st_run "$proto: device and peer" check_device "$proto"
	st_run_v "$proto: ping and ping6 through it, a session on both sides" pings "$outer" "$mtu"
	st_run_v "$proto: iperf3 TCP" nt_iperf3 1 "$NT_IN4_2" 1
	[ "$proto" = "${PROTOS[0]%% *}" ] &&
		st_run_v "$proto: two rekeys under traffic, no ping lost" rekeys
done
st_run_v "hfs against the same protocol without it: no session, dropped by length" mismatch
st_run "rmmod noise with the devices up" noise_unload
st_kmemleak_case "kmemleak scan clean"
st_done
