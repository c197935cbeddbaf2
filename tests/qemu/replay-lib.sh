# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the tests whose module replays vectors at insmod (t-vectors,
# t-mlkem): the module prints "<name>: N passed, M failed, K skipped".

# replay_verdict NAME RC: prints the module's kernel lines since the last
# dmesg -c (the PASS/ok ones of t-vectors' module left out; at most 40)
# and its summary; returns 0 when M is 0 and N is not, RC being insmod's
# exit status, 1 otherwise. Then the module is unloaded.
replay_verdict() {
	local name=$1 rc=$2 log summary
	log=$(dmesg | sed 's/^\[[^]]*\] //')
	echo "$log" | grep -E "^$name:" | grep -Ev "^$name: (ok|PASS)" | tail -n 40
	summary=$(echo "$log" | grep -Eo "$name: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped" | tail -n 1)
	echo "summary: ${summary:-none}"
	if [[ $summary =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]] &&
	   [ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
		[ "$rc" -eq 0 ] || echo "insmod failed although no vector failed"
	else
		rc=1
	fi
	grep -q "^$name " /proc/modules && { rmmod "$name" || rc=1; }
	return "$rc"
}
