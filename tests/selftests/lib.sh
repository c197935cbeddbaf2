# SPDX-License-Identifier: GPL-2.0
#
# Helpers for kselftest-style selftests (sourced). A selftest runs as root
# inside UML (tests/uml/run), prints TAP version 13 and exits 0 when every
# case passed, 1 when one failed, 4 (KSFT_SKIP) when it could not run.
#
#   st_plan N              print the header and the plan
#   st_run NAME CMD...     run CMD; "ok" if it succeeds, else "not ok" with
#                          its output as TAP diagnostics
#   st_skip NAME REASON    a skipped case
#   st_done                exit with the right status
#   st_netns_pair A B      two fresh network namespaces A and B joined by a
#                          veth pair (A: 10.99.0.1/24, fd99::1; B: .2, ::2),
#                          removed again on exit
#   st_iperf3 A B ADDR     one second of iperf3 from A to a server in B
#   st_kmemleak_clean      a kmemleak scan that must find nothing

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

st_n=0
st_failed=0
st_cleanups=()

st_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

st_run() {
	local name=$1 out rc
	shift
	st_n=$((st_n + 1))
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		echo "ok $st_n $name"
	else
		echo "not ok $st_n $name"
		[ -n "$out" ] && echo "$out" | sed 's/^/# /'
		echo "# exit status $rc: $*"
		st_failed=1
	fi
	return $rc
}

st_skip() {
	st_n=$((st_n + 1))
	echo "ok $st_n $1 # SKIP $2"
}

st_done() {
	[ $st_failed = 0 ] && exit $KSFT_PASS
	exit $KSFT_FAIL
}

st_cleanup() {
	local i
	for ((i = ${#st_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${st_cleanups[i]}" > /dev/null 2>&1
	done
}
trap st_cleanup EXIT

st_netns_pair() {
	local a=$1 b=$2
	ip netns add "$a" || return 1
	st_cleanups+=("ip netns del $a")
	ip netns add "$b" || return 1
	st_cleanups+=("ip netns del $b")
	ip -n "$a" link set lo up &&
	ip -n "$b" link set lo up &&
	ip -n "$a" link add veth0 type veth peer name veth0 netns "$b" &&
	ip -n "$a" addr add 10.99.0.1/24 dev veth0 &&
	ip -n "$b" addr add 10.99.0.2/24 dev veth0 &&
	ip -n "$a" addr add fd99::1/64 dev veth0 nodad &&
	ip -n "$b" addr add fd99::2/64 dev veth0 nodad &&
	ip -n "$a" link set veth0 up &&
	ip -n "$b" link set veth0 up
}

# st_iperf3 FROM TO ADDR [ARGS...]: a 1-second iperf3 run from namespace
# FROM to a one-shot server in namespace TO listening on ADDR.
st_iperf3() {
	local from=$1 to=$2 addr=$3
	shift 3
	ip netns exec "$to" iperf3 -s -1 -D -B "$addr" || return 1
	sleep 0.5
	ip netns exec "$from" iperf3 -c "$addr" -t 1 -f m "$@" | tail -n 4
	return "${PIPESTATUS[0]}"
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
