# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the guest's tunnel tests (t-tunnel, t-order): a noise tunnel
# between two network namespaces over veth, configured with noisectl.
# Side 1: namespace tn1, veth 192.168.242.1, tunnel 10.242.0.1, port 51801;
# side 2: tn2, .2, 10.242.0.2, 51802. Needs noisectl, ip, ping in the
# guest (tests/qemu/mkinitramfs copies noisectl when it is built).
#
#   tn_setup          loads noise, makes the namespaces and the veth
#   tn_up PROTO       noise0 on both sides with fresh keys, configured by
#                     noisectl setconf; tn_handshake then waits for the
#                     first ping (the handshake) and checks 3 more
#   tn_down           removes both noise0
#   tn_driver PROTO   the AEAD driver the engine uses for PROTO's cipher
#   tn_sub V NAME [REASON]   a sub-result (NAME under the test's name)
#   tn_cleanup        (EXIT trap) everything removed, noise unloaded

TN_NS1=tn1 TN_NS2=tn2 TN_DEV=noise0
TN_OUT1=192.168.242.1 TN_OUT2=192.168.242.2
TN_IN1=10.242.0.1 TN_IN2=10.242.0.2
TN_PORT1=51801 TN_PORT2=51802
TN_TMP=$(mktemp -d /tmp/tunnel.XXXXXX)
NOISECTL=${NOISECTL:-$(command -v noisectl)}

tn_x() {	# tn_x SIDE CMD...: CMD in that side's namespace
	local ns=$TN_NS1
	[ "$1" = 2 ] && ns=$TN_NS2
	shift
	ip netns exec "$ns" "$@"
}

tn_sub() {	# tn_sub PASS|FAIL|SKIP NAME [REASON]: to init's result list
	echo "$1 $2${3:+ # $3}" >> "${NOISE_QEMU_SUBRESULTS:-/dev/null}"
	echo "$1: $2${3:+ # $3}"
}

tn_cleanup() {
	ip netns del $TN_NS1 2>/dev/null
	ip netns del $TN_NS2 2>/dev/null
	# The devices go with their namespaces; wait for that before rmmod.
	local i
	for ((i = 0; i < 20; i++)); do
		rmmod noise 2>/dev/null && break
		sleep 0.5
	done
	rm -rf "$TN_TMP"
	true
}

tn_setup() {
	if [ -z "$NOISECTL" ] || [ ! -x "$NOISECTL" ]; then
		echo "no noisectl in the guest (userspace/noisectl not built)"
		exit 4
	fi
	grep -q '^noise ' /proc/modules && rmmod noise
	modprobe noise || exit 1
	trap tn_cleanup EXIT
	ip netns add $TN_NS1 && ip netns add $TN_NS2 &&
	ip link add v1 netns $TN_NS1 type veth peer name v2 netns $TN_NS2 &&
	tn_x 1 ip addr add $TN_OUT1/24 dev v1 &&
	tn_x 2 ip addr add $TN_OUT2/24 dev v2 &&
	tn_x 1 ip link set v1 up && tn_x 2 ip link set v2 up &&
	tn_x 1 ip link set lo up && tn_x 2 ip link set lo up || exit 1
}

# tn_conf FILE PROTO PRIV PORT PEERPUB ENDPOINT ALLOWED [PSK]
tn_conf() {
	local n i
	{
		echo "[Interface]"
		echo "Protocol = $2"
		echo "PrivateKey = $3"
		echo "ListenPort = $4"
		echo "[Peer]"
		echo "PublicKey = $5"
		n=$(echo "$2" | cut -d_ -f2 | grep -o psk | wc -l)
		for ((i = 0; i < n; i++)); do
			echo "PresharedKey = $8"
		done
		echo "Endpoint = $6"
		echo "AllowedIPs = $7"
	} > "$1"
}

tn_up() {	# tn_up PROTO
	local proto=$1 dh priv1 priv2 pub1 pub2 psk s
	dh=$(echo "$proto" | cut -d_ -f3)
	priv1=$("$NOISECTL" genkey --dh "$dh") && pub1=$(echo "$priv1" | "$NOISECTL" pubkey) &&
	priv2=$("$NOISECTL" genkey --dh "$dh") && pub2=$(echo "$priv2" | "$NOISECTL" pubkey) &&
	psk=$("$NOISECTL" genpsk) || return 1
	tn_conf "$TN_TMP/1.conf" "$proto" "$priv1" $TN_PORT1 "$pub2" \
		"$TN_OUT2:$TN_PORT2" "$TN_IN2/32" "$psk"
	tn_conf "$TN_TMP/2.conf" "$proto" "$priv2" $TN_PORT2 "$pub1" \
		"$TN_OUT1:$TN_PORT1" "$TN_IN1/32" "$psk"
	for s in 1 2; do
		tn_x $s ip link add $TN_DEV type noise &&
		tn_x $s ip addr add "10.242.0.$s/24" dev $TN_DEV &&
		tn_x $s "$NOISECTL" setconf $TN_DEV "$TN_TMP/$s.conf" &&
		tn_x $s ip link set $TN_DEV up || return 1
	done
	tn_x 1 "$NOISECTL" show $TN_DEV protocol
}

tn_down() {
	tn_x 1 ip link del $TN_DEV 2>/dev/null
	tn_x 2 ip link del $TN_DEV 2>/dev/null
	true
}

# The first ping starts the handshake (under TCG it takes a while): up to
# 20 tries of one ping, then 3 in a row must come back; then both sides
# must name a handshake with each other.
tn_handshake() {
	local i s hs
	for ((i = 0; i < 20; i++)); do
		tn_x 1 ping -c 1 -W 2 -q $TN_IN2 > /dev/null 2>&1 && break
	done
	tn_x 1 ping -c 3 -i 0.3 -w 20 $TN_IN2 | tail -n 2 | head -n 1 || return 1
	for s in 1 2; do
		hs=$(tn_x $s "$NOISECTL" show $TN_DEV latest-handshakes | cut -f2)
		[ "${hs:-0}" -gt 0 ] 2>/dev/null ||
			{ echo "side $s names no handshake (latest-handshakes: '$hs')"; return 1; }
	done
}

tn_cipher() {	# the cipher field of a protocol name
	echo "$1" | cut -d_ -f4
}

# The engine's AEAD driver for PROTO's cipher (debugfs noise/drivers:
# the tunnel exposes nothing per session yet; see Documentation/real-kernels.rst).
tn_driver() {
	awk -v k="$(tn_cipher "$1")" '$1 == k { $1 = ""; sub(/^ /, ""); print }' \
		/sys/kernel/debug/noise/drivers
}

# tn_driver_expected PROTO DRIVER: SIMD with the CPU features, else generic
tn_driver_expected() {
	local flags want
	flags=" $(grep -m1 ^flags /proc/cpuinfo | cut -d: -f2) "
	shopt -s extglob
	case $(tn_cipher "$1") in
	ChaChaPoly)
		if [[ $flags == *" ssse3 "* ]]; then want='*chacha20-simd*'; else want='*chacha20-generic*'; fi ;;
	AESGCM)
		if [[ $flags == *" aes "* && $flags == *" pclmulqdq "* ]]; then
			want='generic-gcm-@(aesni|vaes)*'
		else
			want='gcm_base(*aes-generic*'
		fi ;;
	*) return 0 ;;
	esac
	# shellcheck disable=SC2053
	[[ $2 == $want ]] || { echo "driver '$2', expected $want"; return 1; }
}
