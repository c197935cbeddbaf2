# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the noise selftests (sourced), on top of the kernel's own
# KTAP helpers (tools/testing/selftests/kselftest/ktap_helpers.sh). A
# selftest runs as root, prints KTAP and exits 0 when every case passed, 1
# when one failed, 4 (KSFT_SKIP) when it cannot run here.
#
# Cases (every case is one result in `make check`):
#   st_plan N              KTAP header and plan
#   st_run NAME CMD...     run CMD in this shell (its variables stay set),
#                          output captured: "ok" when it succeeds, else
#                          "not ok" with the output as "# " lines
#   st_run_v NAME CMD...   the same, output shown also when it passes
#   st_must NAME CMD...    the same, "Bail out!" when it fails
#   st_skip NAME REASON    a skipped case
#   st_done                totals; exit 0 when all passed, else 1
#   st_skip_all REASON     a plan of 0 and exit 4
# Tools:
#   NOISECTL, noise_load, noise_unload   the tool and the module
#   st_need CMD...         every CMD is there (else: skip all, but fail in
#                          the repository's UML test bed, where they must be)
#   st_defer CMD           run CMD (a string, eval'ed) at exit, in reverse
#   st_netns_pair A B      namespaces A and B, a veth pair between them:
#                          A 10.99.0.1/24 fd99::1/64, B .2 and ::2
#   st_iperf3 FROM TO ADDR [ARGS...]   one second of iperf3
#   st_kmemleak_clean      a kmemleak scan that must find nothing
# Tunnels (nt_*): see below.

st_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# A file of the kernel's kselftest tree: under $KSFT_DIR (set by
# tests/selftests/Makefile), .. (a kselftest_install tree), the UML build
# kernel's source, or the source tests/uml/build-kernel unpacked.
st_ksft_file() {
	local d cache=${NOISE_UML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/noise-uml}
	for d in ${KSFT_DIR:+"$KSFT_DIR"} "$st_here/.." \
		${NOISE_UML_SOURCE:+"$NOISE_UML_SOURCE/tools/testing/selftests"} \
		$(ls -d "$cache"/src/*/linux-source-*/tools/testing/selftests 2>/dev/null | sort -r); do
		if [ -r "$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}
# Its KTAP helpers, and the net selftests' lib.sh (setup_ns, cleanup_ns).
for st_f in kselftest/ktap_helpers.sh net/lib.sh; do
	if ! st_p=$(st_ksft_file "$st_f"); then
		echo "TAP version 13"
		echo "Bail out! $st_f not found: set KSFT_DIR to a kernel's tools/testing/selftests"
		exit 1
	fi
	# shellcheck source=/dev/null
	source "$st_p"
done

# The repository, when we run from it (or $NOISE_REPO names it).
st_repo=${NOISE_REPO:-}
if [ -z "$st_repo" ] && [ -f "$st_here/../../kmod/noise/Kbuild" ]; then
	st_repo=$(cd "$st_here/../.." && pwd)
fi
NOISECTL=${NOISE_NOISECTL:-}
if [ -z "$NOISECTL" ] && [ -n "$st_repo" ] && [ -x "$st_repo/userspace/noisectl/noisectl" ]; then
	NOISECTL=$st_repo/userspace/noisectl/noisectl
fi
[ -n "$NOISECTL" ] || NOISECTL=$(command -v noisectl || echo noisectl)
if [ -z "${NOISE_KO:-}" ] && [ -n "$st_repo" ] && [ -f "$st_repo/kmod/noise/noise.ko" ]; then
	NOISE_KO=$st_repo/kmod/noise/noise.ko
fi
# The uapi header (nl.py reads the attribute numbers from it).
if [ -z "${NOISE_UAPI:-}" ]; then
	if [ -n "$st_repo" ] && [ -f "$st_repo/include/uapi/linux/noise.h" ]; then
		NOISE_UAPI=$st_repo/include/uapi/linux/noise.h
	else
		NOISE_UAPI=$st_here/noise.h
	fi
fi
export NOISE_UAPI
NL="python3 $st_here/nl.py"

noise_load() {
	if [ -n "${NOISE_KO:-}" ]; then
		# shellcheck disable=SC2086 # NOISE_KO_ARGS: module parameters
		insmod "$NOISE_KO" ${NOISE_KO_ARGS:-}
	else
		modprobe noise
	fi
}

noise_unload() {
	rmmod noise
}

st_tmp=$(mktemp -d /tmp/noise-st.XXXXXX)
st_cleanups=("rm -rf $st_tmp")

st_defer() {
	st_cleanups+=("$1")
}

st_cleanup() {
	local i
	for ((i = ${#st_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${st_cleanups[i]}" > /dev/null 2>&1
	done
}
trap st_cleanup EXIT

st_plan() {
	ktap_print_header
	ktap_set_plan "$1"
}

# Case names go through ktap_helpers' unquoted echo: no glob characters.
st_name() {
	echo "$1" | tr '*?[]#' '_____'
}

# NOISE_ST_TIMING=1: every case also prints its wall time ("# time: ...").
st_run() {
	local name rc out=$st_tmp/case.out t0
	name=$(st_name "$1")
	shift
	t0=$(date +%s.%N)
	"$@" > "$out" 2>&1 < /dev/null
	rc=$?
	[ "${NOISE_ST_TIMING:-}" = 1 ] &&
		ktap_print_msg "time: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }')"
	if [ $rc = 0 ]; then
		ktap_test_pass "$name"
	elif [ $rc = "$ST_SKIPPED" ]; then
		sed 's/^/# /' "$out"
		ktap_print_msg "$(tail -n 1 "$out")"
		ktap_test_skip "$name"
	else
		sed 's/^/# /' "$out"
		ktap_print_msg "exit status $rc: $*"
		ktap_test_fail "$name"
	fi
	return $rc
}

# st_run_v NAME CMD...: st_run, and CMD's output is shown (as "# " lines)
# when it passes too (rates, counts).
st_run_v() {
	local rc
	st_run "$@"
	rc=$?
	[ $rc = 0 ] && sed 's/^/# /' "$st_tmp/case.out"
	return $rc
}

# st_must NAME CMD...: st_run, and when it fails the script bails out (the
# cases after it depend on it).
st_must() {
	st_run "$@" || ktap_exit_fail_msg "'$1' failed: the rest cannot run"
}

st_skip() {
	ktap_print_msg "$2"
	ktap_test_skip "$(st_name "$1")"
}

st_done() {
	ktap_finished
}

st_skip_all() {
	ktap_print_header
	ktap_skip_all "$1"
	exit "$KSFT_SKIP"
}

st_need() {
	local c missing=()
	[ "$(id -u)" = 0 ] || st_skip_all "needs root"
	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 || [ -x "$c" ] || missing+=("$c")
	done
	[ ${#missing[@]} = 0 ] && return 0
	if [ "${NOISE_IN_UML:-}" = 1 ]; then
		ktap_print_header
		echo "Bail out! missing in the test bed: ${missing[*]}"
		exit "$KSFT_FAIL"
	fi
	st_skip_all "missing: ${missing[*]}"
}

# st_skip_case REASON: inside a case function, `st_skip_case ... || return`:
# the case is reported skipped, REASON (one line) saying why. Only for what
# the machine decides (a condition a test cannot force), never for a bug.
ST_SKIPPED=75
st_skip_case() {
	echo "$*"
	return "$ST_SKIPPED"
}

# st_fail MESSAGE: print why, return 1 (inside a case function).
st_fail() {
	echo "$*"
	return 1
}

# st_eq WHAT GOT WANT: equal, or say what differs.
st_eq() {
	[ "$2" = "$3" ] && return 0
	echo "$1: got '$2', want '$3'"
	return 1
}

# st_ge WHAT GOT MIN: GOT is an integer >= MIN. (No =~ here: it would
# reset the caller's BASH_REMATCH, often this call's own argument.)
st_ge() {
	[[ -n "$2" && "$2" != *[!0-9]* ]] && [ "$2" -ge "$3" ] && return 0
	echo "$1: got '$2', want >= $3"
	return 1
}

# st_netns_del NS: stop every process still in NS (a background job whose
# $! was a subshell, not the program), killed if it does not end, then
# the net selftests' cleanup_ns. Leftovers would hold the runner's output
# open and the boot would never end.
st_netns_del() {
	local pids i
	pids=$(ip netns pids "$1" 2> /dev/null)
	if [ -n "$pids" ]; then
		kill $pids 2> /dev/null
		for i in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(ip netns pids "$1" 2> /dev/null)
			[ -z "$pids" ] && break
			sleep 0.2
		done
		[ -n "$pids" ] && kill -KILL $pids 2> /dev/null
	fi
	cleanup_ns "$1"
}

# st_netns NS: a new namespace named NS (the net selftests' setup_ns, which
# removes a stale one of that name first; loopback up), deleted (with
# what runs in it) at exit.
st_netns() {
	local st_ns_name=$1

	[ "${NT_VERBOSE:-}" = 1 ] && echo "# ip netns add $1"
	setup_ns st_ns_name > /dev/null || return 1
	st_defer "st_netns_del $1"
}

st_netns_pair() {
	local a=$1 b=$2
	st_netns "$a" && st_netns "$b" &&
	nt_cmd ip -n "$a" link add veth0 type veth peer name veth0 netns "$b" &&
	nt_cmd ip -n "$a" addr add 10.99.0.1/24 dev veth0 &&
	nt_cmd ip -n "$b" addr add 10.99.0.2/24 dev veth0 &&
	ip -n "$a" addr add fd99::1/64 dev veth0 nodad &&
	ip -n "$b" addr add fd99::2/64 dev veth0 nodad &&
	nt_cmd ip -n "$a" link set veth0 up &&
	nt_cmd ip -n "$b" link set veth0 up
}

# st_iperf3 FROM TO ADDR [ARGS...]: a 1-second iperf3 run from namespace
# FROM to a one-shot server in namespace TO listening on ADDR; prints the
# summary. Extra ARGS go to the client (-u -b 2M: UDP).
st_iperf3() {
	local from=$1 to=$2 addr=$3 pidf=$st_tmp/iperf3.$RANDOM.pid
	shift 3
	ip netns exec "$to" iperf3 -s -1 -D -B "$addr" -I "$pidf" || return 1
	st_defer "kill \$(cat $pidf)"
	sleep 0.5
	ip netns exec "$from" iperf3 -c "$addr" -t 1 -f m "$@" | tail -n 4
	return "${PIPESTATUS[0]}"
}

# st_iperf3_json FROM TO ADDR [ARGS...]: the same, the client's JSON
# report to stdout (-J).
st_iperf3_json() {
	local from=$1 to=$2 addr=$3 pidf=$st_tmp/iperf3.$RANDOM.pid
	shift 3
	ip netns exec "$to" iperf3 -s -1 -D -B "$addr" -I "$pidf" || return 1
	st_defer "kill \$(cat $pidf)"
	sleep 0.5
	ip netns exec "$from" timeout 30 iperf3 -c "$addr" -t 1 -J "$@"
}

# st_nap SECONDS: sleep without starting a process (a read that times out
# on a FIFO nobody writes): polling loops in the debug UML kernel, where
# every process start costs.
st_nap() {
	if [ -z "${st_nap_fd:-}" ]; then
		{ [ -p "$st_tmp/nap.fifo" ] || mkfifo "$st_tmp/nap.fifo"; } &&
			exec {st_nap_fd}<> "$st_tmp/nap.fifo" ||
			{ sleep "$1"; return; }
	fi
	read -r -t "$1" -u "$st_nap_fd"
	return 0
}

# st_wait_ready FILE: wait (up to 60 s: python starts slowly on a loaded
# host) for a "# ready" line in FILE, which udp.py sniff/grep/relay prints
# once it captures (builtins only).
st_wait_ready() {
	local i l
	for ((i = 0; i < 300; i++)); do
		if [ -r "$1" ]; then
			while IFS= read -r l; do
				[[ "$l" == "# ready"* ]] && return 0
			done < "$1"
		fi
		st_nap 0.2
	done
	echo "no '# ready' in $1"
	return 1
}

# st_capture_start FILE CMD...: start a udp.py capture (CMD, in the
# background, output in FILE) and wait until it captures; st_capture_stop
# FILE: end it (1 s later, for stragglers) and wait for it.
st_capture_start() {
	local f=$1
	shift
	# The old FILE too: st_wait_ready must not find its "# ready" before
	# the new capture has truncated it.
	rm -f "$f" "$f.stop"
	UDP_STOP=$f.stop "$@" > "$f" 2>&1 &
	ST_CAPTURE=$!
	st_defer "kill $ST_CAPTURE"
	st_wait_ready "$f"
}

st_capture_stop() {
	sleep 1
	touch "$1.stop"
	wait "$ST_CAPTURE"
}

# st_kmemleak_clean: scan for leaks (objects must be 5 s old to count) and
# fail, printing the report, if kmemleak found any.
st_kmemleak_clean() {
	local f=/sys/kernel/debug/kmemleak
	[ -w $f ] || { echo "kmemleak not available"; return 1; }
	sleep 6
	echo scan > $f
	sleep 1
	echo scan > $f
	if [ -s $f ]; then
		cat $f
		return 1
	fi
}

# st_kmemleak_case NAME: st_kmemleak_clean as a case, skipped without
# kmemleak.
st_kmemleak_case() {
	if [ -w /sys/kernel/debug/kmemleak ]; then
		st_run "$1" st_kmemleak_clean
	else
		st_skip "$1" "no kmemleak in this kernel"
	fi
}

# ---------------------------------------------------------------------------
# Tunnels between the two namespaces of st_netns_pair, configured with
# noisectl. Side 1 is namespace $NT_NS1 (veth 10.99.0.1, fd99::1; tunnel
# 10.10.0.1/24, fd10::1/64, port 51821), side 2 is $NT_NS2 (.2, ::2, 51822).
# After nt_up: NT_PRIV1 NT_PUB1 NT_PRIV2 NT_PUB2 (base64), NT_PSK, and the
# config files $st_tmp/noise-1.conf and noise-2.conf. A caller may set
# every NT_ variable below before sourcing; NT_IN6=0 gives the devices no
# inner IPv6 (no address, no /128 allowed), NT_MTU their MTU.

NT_NS1=${NT_NS1:-nt1}
NT_NS2=${NT_NS2:-nt2}
NT_DEV=${NT_DEV:-noise0}
NT_PORT1=${NT_PORT1:-51821}
NT_PORT2=${NT_PORT2:-51822}
NT_IN4_1=${NT_IN4_1:-10.10.0.1}
NT_IN4_2=${NT_IN4_2:-10.10.0.2}
NT_IN6=${NT_IN6:-1}
NT_IN6_1=${NT_IN6_1:-fd10::1}
NT_IN6_2=${NT_IN6_2:-fd10::2}

# nt_proto_dh NAME: the DH function of a protocol name (25519 or 448; of
# an hfs protocol's "<dh>+<kem>" the DH).
nt_proto_dh() {
	case $1 in
	WireGuard) echo 25519 ;;
	*) echo "$1" | cut -d_ -f3 | cut -d+ -f1 ;;
	esac
}

# nt_proto_psks NAME: the number of psk tokens of its pattern.
nt_proto_psks() {
	echo "$1" | cut -d_ -f2 | grep -o psk | wc -l
}

# nt_genkey DH: a private key; nt_pubkey: private key on stdin -> public.
nt_genkey() {
	"$NOISECTL" genkey --dh "$1"
}

nt_pubkey() {
	"$NOISECTL" pubkey
}

# nt_conf FILE PROTO PRIV PORT PEERPUB ENDPOINT ALLOWEDIPS [PSK]
nt_conf() {
	local f=$1 proto=$2 priv=$3 port=$4 pub=$5 ep=$6 aips=$7 psk=${8:-} i n
	# It holds keys: readable by its owner only (noisectl warns otherwise).
	: > "$f" && chmod 600 "$f" || return 1
	{
		echo "[Interface]"
		echo "Protocol = $proto"
		echo "PrivateKey = $priv"
		echo "ListenPort = $port"
		echo
		echo "[Peer]"
		echo "PublicKey = $pub"
		if [ -n "$psk" ]; then
			n=$(nt_proto_psks "$proto")
			for ((i = 0; i < n; i++)); do
				echo "PresharedKey = $psk"
			done
		fi
		[ -n "$ep" ] && echo "Endpoint = $ep"
		echo "AllowedIPs = $aips"
	} > "$f"
}

# nt_cmd CMD...: run CMD; with NT_VERBOSE=1 (the demo) print it first, as
# "# CMD", so that the steps a tunnel takes can be read and copied.
nt_cmd() {
	[ "${NT_VERBOSE:-}" = 1 ] && echo "# $*"
	"$@"
}

nt_ns() {	# nt_ns 1|2: the namespace of that side
	if [ "$1" = 1 ]; then echo "$NT_NS1"; else echo "$NT_NS2"; fi
}

# nt_x SIDE CMD...: run CMD in that side's namespace
nt_x() {
	local ns=$NT_NS2
	[ "$1" = 1 ] && ns=$NT_NS1
	shift
	ip netns exec "$ns" "$@"
}

# nt_bg SIDE OUT CMD...: CMD in that side's namespace in the background,
# its output in the file OUT; NT_BG is its pid (ip netns exec execs CMD, so
# this is CMD itself, not a subshell as with "nt_x ... &"), killed at exit.
# OUT is emptied here, before the fork: the child's own redirection runs
# when it is scheduled, and a caller waiting for a line in OUT must not
# read one an earlier program left there.
nt_bg() {
	local ns out=$2
	ns=$(nt_ns "$1")
	shift 2
	: > "$out"
	ip netns exec "$ns" "$@" >> "$out" 2>&1 < /dev/null &
	NT_BG=$!
	st_defer "kill $NT_BG"
}

# nt_stream_start RATE: a numbered UDP stream both ways through the tunnel
# (stream.py): a receiver on each side (port 9000 of its tunnel address),
# then a sender to the other side at RATE datagrams/s. Its files in
# $st_tmp: stop (create it to end the stream; stop.markK cut it into
# windows), recv-SIDE, send-SIDE; the pids in RECV1, RECV2, SEND1, SEND2.
nt_stream_start() {
	local s i stream="python3 $st_here/stream.py"
	rm -f "$st_tmp/stop" "$st_tmp"/stop.mark* "$st_tmp"/recv-* "$st_tmp"/send-*
	for s in 1 2; do
		nt_bg $s "$st_tmp/recv-$s" $stream recv "$(nt_in4 $s)" 9000 "$st_tmp/stop" 2
		eval "RECV$s=$NT_BG"
	done
	for s in 1 2; do
		for ((i = 0; i < 300; i++)); do
			grep -q ready "$st_tmp/recv-$s" && break
			st_nap 0.2
		done
	done
	nt_bg 1 "$st_tmp/send-1" $stream send "$NT_IN4_2" 9000 "$1" "$st_tmp/stop"
	SEND1=$NT_BG
	nt_bg 2 "$st_tmp/send-2" $stream send "$NT_IN4_1" 9000 "$1" "$st_tmp/stop"
	SEND2=$NT_BG
}

# nt_ctl SIDE ARGS...: noisectl in that side's namespace
nt_ctl() {
	local ns=$NT_NS2
	[ "$1" = 1 ] && ns=$NT_NS1
	shift
	ip netns exec "$ns" "$NOISECTL" "$@"
}

nt_in4() {	# nt_in4 1|2: the inner IPv4 address of that side
	if [ "$1" = 1 ]; then echo "$NT_IN4_1"; else echo "$NT_IN4_2"; fi
}

# nt_dev SIDE: create the device on that side (no config), with the inner
# addresses (/24, /64), up.
nt_dev() {
	local s=$1 ns=$NT_NS2 in6=$NT_IN6_2
	[ "$1" = 1 ] && ns=$NT_NS1 in6=$NT_IN6_1
	nt_cmd ip -n "$ns" link add "$NT_DEV" type noise || return 1
	[ -z "${NT_MTU:-}" ] || ip -n "$ns" link set "$NT_DEV" mtu "$NT_MTU" || return 1
	nt_cmd ip -n "$ns" addr add "$(nt_in4 "$s")/24" dev "$NT_DEV" || return 1
	[ "$NT_IN6" = 0 ] || ip -n "$ns" addr add "$in6/64" dev "$NT_DEV" nodad || return 1
	nt_cmd ip -n "$ns" link set "$NT_DEV" up
}

# nt_up PROTO [OUTER]: a tunnel between the sides, both configured with
# PROTO (OUTER 4 or 6: the endpoints' family, default 4), created when
# missing; keys made here. NT_NO_EP2=1: side 2 is not told side 1's
# endpoint (it learns it from the handshake). NT_ADDR1, NT_ADDR2: the
# sides' outer IPv4 addresses when not those of st_netns_pair.
nt_up() {
	local proto=$1 outer=${2:-4} dh ep1 ep2 s ns a1 a2
	dh=$(nt_proto_dh "$proto")
	NT_PRIV1=$(nt_genkey "$dh") && NT_PUB1=$(echo "$NT_PRIV1" | nt_pubkey) &&
	NT_PRIV2=$(nt_genkey "$dh") && NT_PUB2=$(echo "$NT_PRIV2" | nt_pubkey) ||
		return 1
	NT_PSK=""
	[ "$(nt_proto_psks "$proto")" = 0 ] || NT_PSK=$("$NOISECTL" genpsk) || return 1
	if [ "$outer" = 6 ]; then
		ep1="[fd99::1]:$NT_PORT1" ep2="[fd99::2]:$NT_PORT2"
	else
		ep1="${NT_ADDR1:-10.99.0.1}:$NT_PORT1" ep2="${NT_ADDR2:-10.99.0.2}:$NT_PORT2"
	fi
	a1="$NT_IN4_1/32" a2="$NT_IN4_2/32"
	[ "$NT_IN6" = 0 ] || a1+=", $NT_IN6_1/128" a2+=", $NT_IN6_2/128"
	nt_conf "$st_tmp/noise-1.conf" "$proto" "$NT_PRIV1" "$NT_PORT1" \
		"$NT_PUB2" "$ep2" "$a2" "$NT_PSK"
	[ "${NT_NO_EP2:-}" = 1 ] && ep1=""
	nt_conf "$st_tmp/noise-2.conf" "$proto" "$NT_PRIV2" "$NT_PORT2" \
		"$NT_PUB1" "$ep1" "$a1" "$NT_PSK"
	for s in 1 2; do
		ns=$NT_NS2
		[ $s = 1 ] && ns=$NT_NS1
		if ! ip -n "$ns" link show "$NT_DEV" > /dev/null 2>&1; then
			nt_dev "$s" || return 1
		fi
		nt_cmd ip netns exec "$ns" "$NOISECTL" setconf "$NT_DEV" \
			"$st_tmp/noise-$s.conf" || return 1
	done
}

# nt_down: both devices removed
nt_down() {
	nt_x 1 ip link del "$NT_DEV"
	nt_x 2 ip link del "$NT_DEV"
	true
}

# nt_ping SIDE ADDR [COUNT]: every one of COUNT (3) pings answered within
# a deadline (ping exits non-zero otherwise).
nt_ping() {
	local c=${3:-3}
	nt_x "$1" ping -c "$c" -i 0.2 -w $((c + 5)) -q "$2"
}

# nt_ping_first SIDE ADDR: the first packets start the handshake: wait up
# to 15 s (NT_PING_TRIES pings of 1 s each: more under QEMU's TCG) for one
# answer (the handshake runs in the debug kernel), then 3 in a row must
# come back.
nt_ping_first() {
	local i
	for ((i = 0; i < ${NT_PING_TRIES:-15}; i++)); do
		nt_x "$1" ping -c 1 -W 1 -q "$2" > /dev/null 2>&1 && break
	done
	nt_ping "$1" "$2"
}

# nt_noping SIDE ADDR: no answer at all to 3 pings.
nt_noping() {
	if nt_x "$1" ping -c 3 -i 0.3 -W 1 -q "$2"; then
		echo "ping got through"
		return 1
	fi
	return 0
}

# nt_json SIDE FILTER: jq FILTER over `noisectl show noise0 --json`
nt_json() {
	local s=$1
	shift
	nt_ctl "$s" show "$NT_DEV" --json | jq -r "$@"
}

# nt_dev_stat SIDE KEY: a device counter (rx_bytes, drop_handshake, ...)
nt_dev_stat() {
	nt_json "$1" ".stats.$2"
}

# nt_dev_stats SIDE KEY...: several device counters, space-separated, from
# one look (one noisectl and one jq: each costs in the debug guest)
nt_dev_stats() {
	local s=$1 f
	shift
	printf -v f '\\(.stats.%s) ' "$@"
	nt_json "$s" "\"${f% }\""
}

# nt_peer_stat SIDE PUB KEY: a peer counter
nt_peer_stat() {
	nt_json "$1" --arg k "$2" ".peers[] | select(.public_key == \$k) | .stats.$3"
}

# nt_handshake_ns SIDE PUB: the peer's latest handshake (ns since the epoch)
nt_handshake_ns() {
	nt_json "$1" --arg k "$2" '.peers[] | select(.public_key == $k) | .latest_handshake_ns'
}

# nt_have_session: both sides name a handshake time with each other
nt_have_session() {
	local t1 t2
	t1=$(nt_handshake_ns 1 "$NT_PUB2") && t2=$(nt_handshake_ns 2 "$NT_PUB1") || return 1
	st_ge "side 1's latest handshake with side 2 (ns)" "$t1" 1 &&
	st_ge "side 2's latest handshake with side 1 (ns)" "$t2" 1
}

# nt_iperf3 FROM_SIDE TO_ADDR MIN_MBPS [ARGS...]: one second of iperf3 TCP
# (or UDP, with -u -b RATE) through the tunnel; prints the rate and fails
# below MIN_MBPS (received) or, for UDP, with more than 50% lost.
nt_iperf3() {
	local from=$1 addr=$2 min=$3 to json rate lost
	shift 3
	if [ "$from" = 1 ]; then to=$NT_NS2; else to=$NT_NS1; fi
	json=$(st_iperf3_json "$(nt_ns "$from")" "$to" "$addr" "$@") ||
		{ echo "$json" | tail -n 20; return 1; }
	if [[ " $* " == *" -u "* ]]; then
		# UDP: under a loaded host the slow debug UML loses datagrams
		# even on a bare veth at 10 Mbit/s: offer 2 Mbit/s.
		rate=$(echo "$json" | jq -r '.end.sum.bits_per_second')
		lost=$(echo "$json" | jq -r '.end.sum.lost_percent')
		echo "UDP: $(awk -v r="$rate" 'BEGIN { printf "%.1f", r / 1e6 }') Mbit/s, lost $lost%"
		awk -v l="$lost" 'BEGIN { exit !(l < 50) }' || { echo "lost $lost% of the datagrams"; return 1; }
	else
		rate=$(echo "$json" | jq -r '.end.sum_received.bits_per_second')
		echo "TCP: $(awk -v r="$rate" 'BEGIN { printf "%.1f", r / 1e6 }') Mbit/s received"
	fi
	awk -v r="$rate" -v m="$min" 'BEGIN { exit !(r >= m * 1e6) }' ||
		{ echo "below $min Mbit/s"; return 1; }
}
