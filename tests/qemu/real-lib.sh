# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the programs of the noise-real collection (tests/qemu/Makefile)
# after the selftests' lib.sh: what only a real kernel's guest has.
#
#   replay_verdict NAME RC   a vector module's verdict (t-vectors, t-mlkem)
#   real_driver CIPHER       the engine's AEAD driver for ChaChaPoly or
#                            AESGCM (debugfs noise/drivers)
#   real_driver_want CIPHER  the glob that driver must match on this CPU:
#                            the x86 SIMD driver when the CPU has the
#                            features, else the generic one
#   real_unload              rmmod noise, once its devices are gone

# replay_verdict NAME RC: prints the module's kernel lines since the last
# dmesg -c (the PASS/ok ones of t-vectors' module left out; at most 40)
# and its summary ("<name>: N passed, M failed, K skipped"); returns 0
# when M is 0 and N is not, RC being insmod's exit status, 1 otherwise.
# Then the module is unloaded.
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

real_driver() {
	awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' \
		/sys/kernel/debug/noise/drivers
}

real_cpu_has() {
	local flags
	flags=" $(grep -m1 ^flags /proc/cpuinfo | cut -d: -f2) "
	[[ $flags == *" $1 "* ]]
}

real_driver_want() {
	case $1 in
	ChaChaPoly)
		if real_cpu_has ssse3; then echo '*chacha20-simd*'; else echo '*chacha20-generic*'; fi ;;
	Poly1305)
		# poly1305-x86_64 registers poly1305-simd on every x86-64 CPU.
		echo '*poly1305-simd*' ;;
	AESGCM)
		if real_cpu_has aes && real_cpu_has pclmulqdq; then
			echo 'generic-gcm-@(aesni|vaes)*'
		else
			echo 'gcm_base(*aes-generic*'
		fi ;;
	esac
}

# real_driver_is WHAT CIPHER: the engine's driver for CIPHER (ChaChaPoly,
# AESGCM) matches what real_driver_want says for WHAT (ChaChaPoly,
# Poly1305, AESGCM).
real_driver_is() {
	local d want
	shopt -s extglob
	d=$(real_driver "$2")
	want=$(real_driver_want "$1")
	echo "$1: $d"
	# shellcheck disable=SC2053
	[[ $d == $want ]] || st_fail "$1 is '$d', expected $want"
}

# real_unload: the devices go with their namespaces, a little later than
# ip netns del returns: retry rmmod for up to 10 s.
real_unload() {
	local i
	for ((i = 0; i < 20; i++)); do
		rmmod noise 2> /dev/null && return 0
		st_nap 0.5
	done
	rmmod noise
}
