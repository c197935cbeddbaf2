#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tunnel with other handshake patterns and cipher suites, each on fresh
# devices between two namespaces (noisectl setconf): IK, XX (three
# messages), KK and KKpsk0 (hinted: the responder must find the initiator
# by the hint before reading message 1) and IKpsk2, with ChaChaPoly and
# AESGCM, BLAKE2s, BLAKE2b and SHA256, and two with X448 and SHA512 (XX,
# and KKpsk0: a 56-byte e under the hint). Each: the protocol and key length
# the device reports, ping and ping6 through it (the first packet starts
# the handshake, a session on both sides), one second of iperf3 TCP.
source "$(dirname "$0")/lib.sh"

st_need ip ping iperf3 jq python3 base64 "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

# protocol, outer family
PROTOS=(
	"Noise_IK_25519_ChaChaPoly_BLAKE2s 4"
	"Noise_XX_25519_AESGCM_SHA256 6"
	"Noise_KK_25519_ChaChaPoly_BLAKE2b 4"
	"Noise_IKpsk2_25519_AESGCM_BLAKE2s 6"
	"Noise_XX_448_ChaChaPoly_SHA512 4"
	"Noise_KKpsk0_448_AESGCM_SHA512 6"
)

fresh_tunnel() {	# PROTO OUTER
	nt_x 1 ip link del "$NT_DEV" 2> /dev/null
	nt_x 2 ip link del "$NT_DEV" 2> /dev/null
	nt_dev 1 && nt_dev 2 && nt_up "$1" "$2"
}

check_device() {	# PROTO: what both sides report
	local proto=$1 len=32 s
	[ "$(nt_proto_dh "$proto")" = 448 ] && len=56
	for s in 1 2; do
		st_eq "side $s protocol" "$(nt_json $s .protocol)" "$proto" || return 1
		st_eq "side $s public key bytes" \
			"$(nt_json $s .public_key | base64 -d | wc -c)" $len || return 1
	done
	st_eq "side 1 public key" "$(nt_json 1 .public_key)" "$NT_PUB1" &&
	st_eq "side 2's peer" "$(nt_json 2 '.peers[0].public_key')" "$NT_PUB1"
}

pings() {
	nt_ping_first 1 "$NT_IN4_2" && nt_have_session && nt_ping 2 "$NT_IN6_1"
}

st_plan $((2 + 4 * ${#PROTOS[@]} + 2))
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
for p in "${PROTOS[@]}"; do
	set -- $p
	proto=$1 outer=$2
	if ! st_run "$proto: fresh devices, setconf both sides (IPv$outer outside)" fresh_tunnel "$proto" "$outer"; then
		for c in "device and peer" "ping and ping6 through it, a session on both sides" "iperf3 TCP"; do
			st_skip "$proto: $c" "the tunnel could not be set up"
		done
		continue
	fi
	st_run "$proto: device and peer" check_device "$proto"
	st_run "$proto: ping and ping6 through it, a session on both sides" pings
	st_run_v "$proto: iperf3 TCP" nt_iperf3 1 "$NT_IN4_2" 1
done
st_run "rmmod noise with the devices up" noise_unload
st_kmemleak_case "kmemleak scan clean"
st_done
