#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The generic netlink family "noise", request by request:
# - bad NOISE_CMD_SET_DEVICE requests (raw, built by nl.py): wrong key
#   lengths, unknown and malformed protocol names, one-way and
#   anonymous-initiator patterns, missing attributes, out-of-range values,
#   a bad peer after a good one: each refused with an extack message that
#   names the attribute, and nothing changed (the full dump, byte for byte,
#   before and after)
# - noisectl passes the kernel's extack text on, in one line, exit 1
# - without CAP_NET_ADMIN a set and a dump are refused (and the same set
#   with another capability dropped works)
# - the "peers" multicast group: a listener without capabilities cannot
#   join it (EPERM); root joins and gets a peer's event
# - listen-port changes while the device goes up and down (three
#   concurrent loops): every "ip link set up" works, the final port is the
#   one set and the only socket bound; and one set put where the device is
#   marked running but not yet open (test build) waits for the open
# - the namespace the device was created in deleted while the device lives
#   on in another one (as an unprivileged user, in a user namespace of its
#   own): a new listen port and "ip link set up" are refused with ENONET
#   (the extack says why), nothing crashes
# - tools/net/ynl/cli.py with Documentation/netlink/specs/noise.yaml: the
#   spec validates against the kernel's schema, ynl dumps the device and
#   sets it, and shows the extack of a bad request
source "$(dirname "$0")/lib.sh"

st_need ip jq python3 setpriv "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

NS=nl1
DEV=noise0
PROTO=Noise_IK_25519_ChaChaPoly_BLAKE2s

# The kernel source with tools/net/ynl (cli.py) and its netlink schemas.
ksrc=""
for d in ${KSFT_DIR:+"$KSFT_DIR/../../.."} ${NOISE_UML_SOURCE:+"$NOISE_UML_SOURCE"} \
	$(ls -d "${NOISE_UML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/noise-uml}"/src/*/linux-source-* 2>/dev/null | sort -r); do
	if [ -f "$d/tools/net/ynl/cli.py" ]; then
		ksrc=$(cd "$d" && pwd)
		break
	fi
done
spec=""
schema=${ksrc:+$ksrc/Documentation/netlink/genetlink.yaml}
for f in ${st_repo:+"$st_repo/Documentation/netlink/specs/noise.yaml"} "$st_here/noise.yaml"; do
	[ -f "$f" ] && { spec=$f; break; }
done

x() {	# run in the namespace
	ip netns exec "$NS" "$@"
}

setup() {
	st_netns "$NS" || return 1
	x ip link set lo up &&
	x ip link add "$DEV" type noise || return 1
	cat > "$st_tmp/nl.conf" <<-EOF
	[Interface]
	Protocol = $PROTO
	PrivateKey = $PRIV
	ListenPort = 51900
	[Peer]
	PublicKey = $P1
	Endpoint = 10.1.2.3:51901
	AllowedIPs = 10.80.0.0/16, fd80::/64
	PersistentKeepalive = 15
	[Peer]
	PublicKey = $P2
	AllowedIPs = 10.81.0.1/32
	EOF
	x "$NOISECTL" setconf "$DEV" "$st_tmp/nl.conf" &&
	IFINDEX=$(x cat /sys/class/net/$DEV/ifindex) &&
	x $NL dump "$DEV" --json > "$st_tmp/dump.json" && cat "$st_tmp/dump.json" &&
	DIGEST=$(x $NL dump "$DEV" --digest)
}

unchanged() {
	local now
	now=$(x $NL dump "$DEV" --digest) || { echo "$now"; return 1; }
	[ "$now" = "$DIGEST" ] && return 0
	echo "the device changed:"
	x $NL dump "$DEV" --json | diff -u "$st_tmp/dump.json" - | head -n 40
	return 1
}

hex() {	# hex N: N bytes of 0x41
	printf '41%.0s' $(seq "$1")
}

# refused_answer ANSWER [any]: what nl.py set printed is an error answer
# that carries an extack message and names an attribute (offset or missing
# type; with "any", when no attribute is there to point at, the message
# alone).
refused_answer() {
	[[ "$1" == "error E"*": "* ]] || { echo "not an error answer"; return 1; }
	[[ "$1" != *"(no extack message)"* ]] || { echo "no extack message"; return 1; }
	[[ "$1" == *"[bad_attr_offset "* || "$1" == *"[missing_type "* || "${2:-}" = any ]] ||
		{ echo "the extack names no attribute"; return 1; }
}

# The bad requests go to the kernel in one nl.py batch (python starts
# slowly in the debug UML kernel); each is then one case: refused_at N
# [any] checks request N's answer and the dump digest right after it
# (parsed once, with builtins: ANSWER[N], AFTER[N]).
batch_run() {
	local i l n=0 rc
	: > "$st_tmp/batch.json"
	for ((i = 0; i < ${#BAD[@]}; i += 2)); do
		echo "${BAD[i + 1]}" >> "$st_tmp/batch.json"
	done
	x $NL batch "$DEV" "$st_tmp/batch.json" > "$st_tmp/batch.out"
	rc=$?
	[ $rc = 0 ] || cat "$st_tmp/batch.out"
	ANSWER=() AFTER=()
	while IFS= read -r l; do
		case $l in
		"== "*) n=${l#== } ;;
		"digest "*) AFTER[n]=${l#digest } ;;
		*) ANSWER[n]+=${ANSWER[n]:+$'\n'}$l ;;
		esac
	done < "$st_tmp/batch.out"
	return $rc
}

refused_at() {
	local out=${ANSWER[$1]:-} digest=${AFTER[$1]:-}
	echo "$out"
	[ -n "$out" ] || { echo "no answer in the batch output"; return 1; }
	refused_answer "$out" "${2:-}" || return 1
	[ "$digest" = "$DIGEST" ] && return 0
	echo "the device changed (dump digest $digest after it, $DIGEST before); now:"
	x $NL dump "$DEV" --json | diff -u "$st_tmp/dump.json" - | head -n 40
	return 1
}

dev() {	# the device, by name, as the first attribute
	echo "[\"DEVICE_IFNAME\", {\"str\": \"$DEV\"}]"
}

peer() {	# peer PUB-B64 [MORE-ATTRS]: a peer nest
	echo "[\"DEVICE_PEER\", [[\"PEER_PUBLIC_KEY\", {\"b64\": \"$1\"}]${2:+, $2}]]"
}

aip() {	# aip FAMILY ADDR-JSON CIDR
	echo "[\"PEER_ALLOWEDIP\", [[\"ALLOWEDIP_FAMILY\", {\"u16\": $1}], [\"ALLOWEDIP_ADDR\", $2], [\"ALLOWEDIP_CIDR_MASK\", {\"u8\": $3}]]]"
}

# Keys (noisectl needs no module for them); the bad requests use them.
PRIV=$(nt_genkey 25519) && PUB=$(echo "$PRIV" | nt_pubkey) &&
P1=$(nt_genkey 25519 | nt_pubkey) && P2=$(nt_genkey 25519 | nt_pubkey) ||
	ktap_exit_fail_msg "noisectl genkey/pubkey failed"
NEWPUB=$(head -c 32 /dev/urandom | base64)
GOOD_PEER=$(peer "$NEWPUB" "$(aip 2 '{"ip": "10.90.0.0"}' 16)")

# nl.py can change the device at all (else every refusal proves nothing).
good_set() {
	local out
	out=$(x $NL set "[$(dev), [\"DEVICE_LISTEN_PORT\", {\"u16\": 51999}]]") || { echo "$out"; return 1; }
	st_eq "listen port" "$(x "$NOISECTL" show "$DEV" --json | jq .listen_port)" 51999 &&
	x $NL set "[$(dev), [\"DEVICE_LISTEN_PORT\", {\"u16\": 51900}]]" > /dev/null &&
	unchanged
}

noisectl_extack() {	# the one-way pattern through noisectl
	local want err rc
	want=$(x $NL set "[$(dev), [\"DEVICE_PROTOCOL\", {\"str\": \"Noise_N_25519_ChaChaPoly_BLAKE2s\"}]]")
	want=${want#error *: }
	want=${want%% \[*}
	err=$(x "$NOISECTL" set "$DEV" protocol Noise_N_25519_ChaChaPoly_BLAKE2s 2>&1 > /dev/null)
	rc=$?
	echo "kernel: $want"
	echo "noisectl (exit $rc): $err"
	st_eq "noisectl exit status" "$rc" 1 &&
	st_eq "lines" "$(echo "$err" | wc -l)" 1 &&
	{ [[ "$err" == *"$want"* ]] || { echo "noisectl did not print the extack text"; return 1; }; } &&
	unchanged
}

noisectl_bad_key() {
	local err rc
	head -c 31 /dev/urandom | base64 > "$st_tmp/short.key"
	err=$(x "$NOISECTL" set "$DEV" private-key "$st_tmp/short.key" 2>&1 > /dev/null)
	rc=$?
	echo "noisectl (exit $rc): $err"
	st_eq "noisectl exit status" "$rc" 1 && st_eq "lines" "$(echo "$err" | wc -l)" 1 && unchanged
}

NOCAP="setpriv --inh-caps=-net_admin --bounding-set=-net_admin"
OTHERCAP="setpriv --inh-caps=-sys_time --bounding-set=-sys_time"

nocap_set() {
	local out
	out=$(x $NOCAP $NL set "[$(dev), [\"DEVICE_LISTEN_PORT\", {\"u16\": 4321}]]")
	echo "without CAP_NET_ADMIN: $out"
	[[ "$out" == "error EPERM:"* ]] || return 1
	out=$(x $NOCAP "$NOISECTL" set "$DEV" listen-port 4321 2>&1) && { echo "noisectl: accepted"; return 1; }
	echo "noisectl without CAP_NET_ADMIN: $out"
	unchanged
}

nocap_dump() {
	local out
	out=$(x $NOCAP $NL dump "$DEV" --count)
	echo "without CAP_NET_ADMIN: $out"
	[[ "$out" == "error EPERM"* ]]
}

othercap_set() {
	local out
	out=$(x $OTHERCAP $NL set "[$(dev), [\"DEVICE_LISTEN_PORT\", {\"u16\": 4321}]]") || { echo "$out"; return 1; }
	st_eq "listen port" "$(x "$NOISECTL" show "$DEV" --json | jq .listen_port)" 4321 &&
	x $NL set "[$(dev), [\"DEVICE_LISTEN_PORT\", {\"u16\": 51900}]]" > /dev/null && unchanged
}

# cli.py checks the spec against the schema on every start unless told
# not to (jsonschema is slow to load and run in the debug kernel): the
# spec_valid case checks it once, the other calls skip it.
ynl() {
	x python3 "$ksrc/tools/net/ynl/cli.py" --spec "$spec" --no-schema "$@"
}

spec_valid() {
	local proto
	proto=$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1])).get("protocol", "genetlink"))' "$spec") || return 1
	schema=$ksrc/Documentation/netlink/$proto.yaml
	echo "spec $spec, protocol $proto, schema $schema"
	python3 - "$spec" "$schema" <<-'EOF'
	import sys, yaml, jsonschema
	spec = yaml.safe_load(open(sys.argv[1]))
	jsonschema.validate(spec, yaml.safe_load(open(sys.argv[2])))
	print('valid: %d attribute sets, %d operations' % (
	    len(spec.get('attribute-sets', [])), len(spec.get('operations', {}).get('list', []))))
	EOF
}

ynl_dump() {
	ynl --dump get-device --json "{\"ifname\": \"$DEV\"}" --output-json > "$st_tmp/ynl.json" || { cat "$st_tmp/ynl.json"; return 1; }
	head -c 2000 "$st_tmp/ynl.json"; echo
	local pubhex
	pubhex=$(echo "$PUB" | base64 -d | od -An -tx1 | tr -d ' \n')
	st_eq "ifindex" "$(jq -r '.[0].ifindex' "$st_tmp/ynl.json")" "$IFINDEX" &&
	# display-hint hex: ynl prints the bytes in hex, a space between them
	st_eq "public key" "$(jq -r '.[0]["public-key"]' "$st_tmp/ynl.json" | tr -d ' ')" "$pubhex" &&
	st_eq "listen port" "$(jq -r '.[0]["listen-port"]' "$st_tmp/ynl.json")" 51900 &&
	st_eq "protocol" "$(jq -r '.[0].protocol' "$st_tmp/ynl.json")" "$PROTO" &&
	st_eq "peers" "$(jq '[.[].peer[]?] | length' "$st_tmp/ynl.json")" 2 &&
	st_eq "private key returned" "$(jq '[.. | objects | select(has("private-key"))] | length' "$st_tmp/ynl.json")" 0
}

ynl_set() {
	ynl --do set-device --json "{\"ifname\": \"$DEV\", \"listen-port\": 52042, \"fwmark\": 7}" || return 1
	st_eq "listen port (noisectl)" "$(x "$NOISECTL" show "$DEV" --json | jq .listen_port)" 52042 &&
	st_eq "fwmark (noisectl)" "$(x "$NOISECTL" show "$DEV" --json | jq .fwmark)" 7
}

ynl_extack() {
	local out
	out=$(ynl --do set-device --json "{\"ifname\": \"$DEV\", \"private-key\": \"$(hex 31)\"}" 2>&1) &&
		{ echo "accepted: $out"; return 1; }
	echo "$out"
	[[ "$out" == *extack* ]]
}

# The bad requests: name, JSON.
BAD=(
	"private key of 31 bytes"
		"[$(dev), [\"DEVICE_PRIVATE_KEY\", {\"hex\": \"$(hex 31)\"}]]"
	"private key of 40 bytes"
		"[$(dev), [\"DEVICE_PRIVATE_KEY\", {\"hex\": \"$(hex 40)\"}]]"
	"private key of 56 bytes (X448's) on a 25519 device"
		"[$(dev), [\"DEVICE_PRIVATE_KEY\", {\"hex\": \"$(hex 56)\"}]]"
	"peer public key of 33 bytes"
		"[$(dev), [\"DEVICE_PEER\", [[\"PEER_PUBLIC_KEY\", {\"hex\": \"$(hex 33)\"}]]]]"
	"preshared key of 16 bytes"
		"[$(dev), $(peer "$P1" "[\"PEER_PRESHARED_KEY\", {\"hex\": \"$(hex 16)\"}]")]"
	"unknown protocol (hash MD5)"
		"[$(dev), [\"DEVICE_PROTOCOL\", {\"str\": \"Noise_IK_25519_ChaChaPoly_MD5\"}]]"
	"malformed protocol name"
		"[$(dev), [\"DEVICE_PROTOCOL\", {\"str\": \"Noise_IK\"}]]"
	"one-way pattern N"
		"[$(dev), [\"DEVICE_PROTOCOL\", {\"str\": \"Noise_N_25519_ChaChaPoly_BLAKE2s\"}]]"
	"one-way pattern X"
		"[$(dev), [\"DEVICE_PROTOCOL\", {\"str\": \"Noise_X_25519_ChaChaPoly_BLAKE2s\"}]]"
	"anonymous initiator pattern NK"
		"[$(dev), [\"DEVICE_PROTOCOL\", {\"str\": \"Noise_NK_25519_ChaChaPoly_BLAKE2s\"}]]"
	"no device named"
		"[[\"DEVICE_LISTEN_PORT\", {\"u16\": 1}]]"
	"a read-only attribute (the public key)"
		"[$(dev), [\"DEVICE_PUBLIC_KEY\", {\"hex\": \"$(hex 32)\"}]]"
	"ifindex and ifname of different devices"
		"[[\"DEVICE_IFINDEX\", {\"u32\": 1}], [\"DEVICE_IFNAME\", {\"str\": \"$DEV\"}], [\"DEVICE_LISTEN_PORT\", {\"u16\": 1}]]"
	"no such device"
		"[[\"DEVICE_IFNAME\", {\"str\": \"nosuchdev\"}], [\"DEVICE_LISTEN_PORT\", {\"u16\": 1}]]"
	"peer without a public key"
		"[$(dev), [\"DEVICE_PEER\", [[\"PEER_PERSISTENT_KEEPALIVE\", {\"u16\": 5}]]]]"
	"allowed IP without a prefix length"
		"[$(dev), $(peer "$P1" "[\"PEER_ALLOWEDIP\", [[\"ALLOWEDIP_FAMILY\", {\"u16\": 2}], [\"ALLOWEDIP_ADDR\", {\"ip\": \"10.9.0.0\"}]]]")]"
	"IPv4 allowed IP /33"
		"[$(dev), $(peer "$P1" "$(aip 2 '{"ip": "10.9.0.0"}' 33)")]"
	"IPv6 allowed IP /129"
		"[$(dev), $(peer "$P1" "$(aip 10 '{"ip": "fd09::"}' 129)")]"
	"AF_INET allowed IP with a 16-byte address"
		"[$(dev), $(peer "$P1" "$(aip 2 '{"ip": "fd09::"}' 64)")]"
	"endpoint of 7 bytes"
		"[$(dev), $(peer "$P1" "[\"PEER_ENDPOINT\", {\"hex\": \"$(hex 7)\"}]")]"
	"unknown device flag"
		"[$(dev), [\"DEVICE_FLAGS\", {\"u32\": 128}]]"
	"six preshared keys (at most five)"
		"[$(dev), $(peer "$P1" "[\"PEER_PRESHARED_KEY\", {\"hex\": \"$(hex 192)\"}]")]"
	"two preshared key attributes"
		"[$(dev), $(peer "$P1" "[\"PEER_PRESHARED_KEY\", {\"hex\": \"$(hex 32)\"}], [\"PEER_PRESHARED_KEY\", {\"hex\": \"$(hex 32)\"}]")]"
	"a good new peer, then a peer with a short key"
		"[$(dev), $GOOD_PEER, [\"DEVICE_PEER\", [[\"PEER_PUBLIC_KEY\", {\"hex\": \"$(hex 31)\"}]]]]"
	"a new listen port, then a bad allowed IP"
		"[$(dev), [\"DEVICE_LISTEN_PORT\", {\"u16\": 52001}], $(peer "$P1" "$(aip 2 '{"ip": "10.9.0.0"}' 40)")]"
)


NOBODY="setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all"

mcast_nocap() {
	local out
	out=$(x $NOBODY $NL listen --join-only 2>&1)
	echo "uid 65534, no capabilities: $out"
	[ "$out" = "error EPERM: join" ]
}

mcast_root() {
	local pid i l got="" key
	key=$(nt_genkey 25519 | nt_pubkey) || return 1
	x $NL listen --timeout 120 > "$st_tmp/listen.out" 2>&1 &
	pid=$!
	for ((i = 0; i < 600; i++)); do
		grep -q '^joined' "$st_tmp/listen.out" 2>/dev/null && break
		grep -q '^error' "$st_tmp/listen.out" 2>/dev/null && break
		st_nap 0.2
	done
	cat "$st_tmp/listen.out"
	grep -q '^joined' "$st_tmp/listen.out" || { kill "$pid"; return 1; }
	x "$NOISECTL" set "$DEV" peer "$key" || { kill "$pid"; return 1; }
	wait "$pid"
	cat "$st_tmp/listen.out"
	while IFS= read -r l; do
		[[ "$l" == "event "* ]] && got=$l
	done < "$st_tmp/listen.out"
	x "$NOISECTL" set "$DEV" peer "$key" remove || return 1
	[[ "$got" == "event "*" $key" ]]
}

# One loop: N times "ip link set down; ip link set up" (an up that fails
# is counted), or N listen ports from BASE.
updown_loop() {
	local i fails=0
	for ((i = 0; i < $1; i++)); do
		ip link set "$DEV" down
		ip link set "$DEV" up 2>> "$st_tmp/up.err" || fails=$((fails + 1))
	done
	echo "$fails"
}

port_loop() {
	local i fails=0
	for ((i = 1; i <= $1; i++)); do
		"$NOISECTL" set "$DEV" listen-port $(($2 + i)) 2>> "$st_tmp/port.err" ||
			fails=$((fails + 1))
	done
	echo "$fails"
}

# The sockets bound to PORT in the namespace (IPv4 and IPv6), and all
# sockets of either family.
udp_sockets() {
	local hex
	hex=$(printf ':%04X ' "$1")
	echo "port $1: $(x cat /proc/net/udp /proc/net/udp6 | grep -c "$hex") of $(x cat /proc/net/udp /proc/net/udp6 | grep -vc 'local_address')"
}

updown_ports() {
	local n=50 up p1 p2 got
	export -f updown_loop port_loop
	export DEV NOISECTL st_tmp
	: > "$st_tmp/up.err"
	: > "$st_tmp/port.err"
	x ip link set "$DEV" up || return 1
	x bash -c "updown_loop $n" > "$st_tmp/updown.n" &
	up=$!
	x bash -c "port_loop $n 42000" > "$st_tmp/p1.n" &
	p1=$!
	x bash -c "port_loop $n 43000" > "$st_tmp/p2.n" &
	p2=$!
	wait "$up" "$p1" "$p2"
	echo "failed: ip link set up $(cat "$st_tmp/updown.n") of $n, listen-port $(cat "$st_tmp/p1.n") + $(cat "$st_tmp/p2.n") of 2x$n"
	sort "$st_tmp/up.err" "$st_tmp/port.err" | uniq -c | head -n 5
	x ip link set "$DEV" up &&
	x "$NOISECTL" set "$DEV" listen-port 44044 || return 1
	got=$(udp_sockets 44044)
	echo "$got"
	st_eq "ip link set up failures" "$(cat "$st_tmp/updown.n")" 0 &&
	st_eq "listen-port failures" "$(($(cat "$st_tmp/p1.n") + $(cat "$st_tmp/p2.n")))" 0 &&
	st_eq "listen port" "$(x "$NOISECTL" show "$DEV" --json | jq .listen_port)" 44044 &&
	st_eq "UDP sockets" "$got" "port 44044: 2 of 2"
}

# The window where the device is marked running and its open has not yet
# taken its lock (test build: test_open_delay_ms holds it open 10 s): a new
# listen port asked for then waits for the open (RTNL), and the device
# comes up with that port bound once. Unserialised, the set bound the port
# first and the open failed on it (EADDRINUSE).
open_window() {
	local p=/sys/module/noise/parameters up i rc=0 got during
	[ -e "$p/test_open_delay_ms" ] ||
		{ st_skip_case "noise.ko is not the test build (NOISE_TESTING=1)"; return; }
	x ip link set "$DEV" down || return 1
	echo 10000 > "$p/test_open_delay_ms" || return 1
	st_defer "echo 0 > $p/test_open_delay_ms"
	x ip link set "$DEV" up 2> "$st_tmp/open.err" &
	up=$!
	for ((i = 0; i < 200; i++)); do
		[ "$(cat "$p/test_open_waiting")" = Y ] && break
		st_nap 0.05
	done
	[ "$(cat "$p/test_open_waiting")" = Y ] || { echo "the open never waited"; return 1; }
	x "$NOISECTL" set "$DEV" listen-port 45045 || rc=1
	during=$(cat "$p/test_open_waiting")
	wait "$up" || { echo "ip link set up failed: $(cat "$st_tmp/open.err")"; rc=1; }
	echo 0 > "$p/test_open_delay_ms"
	got=$(udp_sockets 45045)
	echo "the open still waiting when the set came back: $during; $got"
	[ $rc = 0 ] && st_eq "the open still waiting when the set came back" "$during" N &&
	st_eq "listen port" "$(x "$NOISECTL" show "$DEV" --json | jq .listen_port)" 45045 &&
	st_eq "UDP sockets" "$got" "port 45045: 2 of 2"
}

# In a user namespace of its own (the user root in it, nobody outside):
# namespace A makes the device, which moves to namespace B and goes up;
# A is deleted; B then asks for a new listen port and for the device to
# come up again. Both refused (ENONET); the device and the kernel survive.
ENONET_SCRIPT='
set -u
ns_ready() {	# PID: its network namespace is not ours
	local i
	for ((i = 0; i < 300; i++)); do
		[ "$(readlink /proc/$1/ns/net)" != "$(readlink /proc/self/ns/net)" ] && return 0
		sleep 0.1
	done
	return 1
}
unshare -n sleep 600 & A=$!
unshare -n sleep 600 & B=$!
ns_ready $A && ns_ready $B || { echo "no namespaces"; exit 1; }
inA() { nsenter -t $A -n "$@"; }
inB() { nsenter -t $B -n "$@"; }
inA ip link add noise0 type noise &&
inA "$NOISECTL" set noise0 listen-port 41000 peer "$PEER" allowed-ips 10.7.0.0/16 &&
inA ip link set noise0 netns $B &&
inB ip link set noise0 up &&
inB "$NOISECTL" show noise0 listen-port || { echo "setup failed"; exit 1; }
kill $A
wait $A 2>/dev/null
for ((i = 0; i < 600; i++)); do
	inB ip link show noise0 | grep -q NO-CARRIER && break
	sleep 0.1
done
inB ip link show noise0
err=$(inB "$NOISECTL" set noise0 listen-port 40000 2>&1)
echo "set listen-port: exit $?: $err"
inB ip link set noise0 down
err=$(inB ip link set noise0 up 2>&1)
echo "ip link set up: exit $?: $err"
inB "$NOISECTL" show noise0 | head -n 3
inB ip link del noise0
kill $B
wait $B 2>/dev/null
echo done
'

creating_ns_gone() {
	local out who=$NOBODY
	export NOISECTL
	export PEER=$P1
	# Unprivileged user namespaces: try as nobody, else say why and use root.
	if ! $NOBODY unshare -U -r true 2> "$st_tmp/userns.err"; then
		echo "an unprivileged user cannot make a user namespace here: $(cat "$st_tmp/userns.err"); as root"
		who=""
	fi
	out=$($who unshare -U -r --fork bash -c "$ENONET_SCRIPT" 2>&1)
	echo "$out"
	[[ "$out" == *"set listen-port: exit 1: "*"namespace"* ]] || { echo "set listen-port not refused with the reason"; return 1; }
	[[ "$out" == *"ip link set up: exit 2: "*"Machine is not on the network"* ]] ||
		{ echo "ip link set up not refused (ENONET)"; return 1; }
	[[ "$out" == *done ]]
}

st_plan $((5 + ${#BAD[@]} / 2 + 14))
st_must "load noise.ko" noise_load
st_must "a device with two peers (noisectl setconf), its full dump" setup
st_run "a good raw request changes it (the raw requests work)" good_set
st_run "two full dumps in a row are the same" unchanged
st_run "the bad requests sent (one nl.py batch)" batch_run
for ((i = 0; i < ${#BAD[@]}; i += 2)); do
	# No device named: no attribute to point at, the message must say it.
	any=""
	[ "${BAD[i]}" = "no device named" ] && any=any
	st_run_v "refused, with extack, nothing changed: ${BAD[i]}" refused_at $((i / 2 + 1)) $any
done
st_run_v "noisectl prints the kernel's extack in one line, exit 1" noisectl_extack
st_run_v "noisectl refuses a 31-byte private key in one line, exit 1" noisectl_bad_key
st_run_v "without CAP_NET_ADMIN: a set is refused (EPERM), nothing changed" nocap_set
st_run_v "without CAP_NET_ADMIN: a dump is refused (EPERM)" nocap_dump
st_run "with CAP_SYS_TIME dropped instead, the same set works" othercap_set
if [ -z "$ksrc" ] || [ -z "$spec" ]; then
	for c in "the spec validates against the kernel's schema" "ynl cli.py dumps the device" \
		"ynl cli.py sets the device" "ynl cli.py shows the extack of a bad request"; do
		if [ "${NOISE_IN_UML:-}" = 1 ]; then
			ktap_print_msg "no kernel source with tools/net/ynl ('$ksrc') or no spec ('$spec')"
			ktap_test_fail "$c"
		else
			st_skip "$c" "no kernel source with tools/net/ynl, or no noise.yaml"
		fi
	done
else
	st_run_v "the spec validates against the kernel's schema" spec_valid
	st_run_v "ynl cli.py dumps the device" ynl_dump
	st_run "ynl cli.py sets the device" ynl_set
	st_run_v "ynl cli.py shows the extack of a bad request" ynl_extack
fi
st_run_v "peers multicast group: no join without CAP_NET_ADMIN (EPERM)" mcast_nocap
st_run_v "peers multicast group: root joins and gets a peer's event" mcast_root
st_run_v "listen ports set while the device goes up and down: all work, final port alone" updown_ports
st_run_v "a listen port set while the device opens waits for it: port bound once" open_window
st_run_v "the device's creation namespace gone: new port and up refused (ENONET)" creating_ns_gone
st_done
