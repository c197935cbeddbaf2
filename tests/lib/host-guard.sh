# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The host's kernels are not ours to touch (sourced by the real-kernel
# stages): a stage takes a listing of the host's kernel state first, and
# compares at its end. The listing: every file under /boot, /lib/modules
# and /var/lib/dkms (DKMS's tree), and the entries of /usr/src (kernel
# headers, DKMS sources), each with its type, size, mtime and link target,
# sorted; a directory that does not exist is listed as absent.
# NOISE_HOST_GUARD_DIRS replaces the directories (the test bed tests the
# guard with a scratch one).

host_listing() {
	local d
	for d in ${NOISE_HOST_GUARD_DIRS:-/boot /lib/modules /var/lib/dkms /usr/src}; do
		if [ ! -e "$d" ]; then
			echo "$d absent"
		elif [ "$d" = /usr/src ]; then
			find "$d" -maxdepth 1 -printf '%p %y %s %T@ %l\n'
		else
			find "$d" -printf '%p %y %s %T@ %l\n'
		fi
	done 2>&1 | LC_ALL=C sort
}

# host_guard_start FILE: the listing before.
host_guard_start() {
	host_listing > "$1"
}

# host_guard_check NAME FILE RESULTS: PASS NAME when the listing is still
# the one in FILE; otherwise FAIL NAME and the difference.
host_guard_check() {
	local name=$1 before=$2 results=$3 after
	after=$(mktemp)
	host_listing > "$after"
	if cmp -s "$before" "$after"; then
		echo "host-guard: /boot, /lib/modules, /var/lib/dkms and /usr/src unchanged ($(wc -l < "$after") entries)"
		echo "PASS $name" | tee -a "$results"
	else
		echo "host-guard: the host's kernel state changed during the stage (- before, + after):"
		diff "$before" "$after" | grep '^[<>]' | sed 's/^</-/; s/^>/+/' | head -n 40
		echo "FAIL $name # the host's /boot, /lib/modules, DKMS tree or /usr/src changed" |
			tee -a "$results"
	fi
	rm -f "$after"
}
