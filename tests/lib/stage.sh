# SPDX-License-Identifier: GPL-2.0
#
# Helpers for tests/check.d stages (sourced). See tests/check for the
# environment a stage gets; a stage can also run on its own: the variables
# are then filled in here.

NOISE_REPO=${NOISE_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$NOISE_REPO" || exit 1
NOISE_RESULTS=${NOISE_RESULTS:-/dev/null}
if [ -z "${NOISE_UML_DEBUG+set}" ]; then
	NOISE_UML_DEBUG=$(tests/uml/build-kernel debug | tail -n 1) || NOISE_UML_DEBUG=""
fi
if [ -n "$NOISE_UML_DEBUG" ] && [ -z "${NOISE_UML_SOURCE:-}" ]; then
	NOISE_UML_SOURCE=$(readlink -f "$NOISE_UML_DEBUG/source")
fi
export NOISE_REPO NOISE_RESULTS NOISE_UML_DEBUG NOISE_UML_SOURCE

# result PASS|FAIL|SKIP NAME [REASON]: record one result and show it.
result() {
	local line="$1 $2"
	[ -n "${3:-}" ] && line+=" # $3"
	echo "$line" >> "$NOISE_RESULTS"
	echo "$line"
}

# need_uml NAME: record a FAIL for NAME and return 1 without a UML kernel.
need_uml() {
	if [ -z "$NOISE_UML_DEBUG" ] || [ ! -x "$NOISE_UML_DEBUG/linux" ]; then
		result FAIL "$1" "no UML kernel (tests/uml/build-kernel debug failed)"
		return 1
	fi
}

# uml_make ARGS...: kbuild for our modules against the UML kernel: the test
# build (NOISE_TESTING=1: the KUnit modules and the test-only entry points
# of noise.ko, kmod/noise/Kbuild).
uml_make() {
	make -C "$NOISE_UML_DEBUG" ARCH=um M="$NOISE_REPO" -j"${NOISE_JOBS:-2}" \
		NOISE_TESTING=1 "$@"
}

# build_uml_modules: build the modules quietly; print the log on failure.
build_uml_modules() {
	local log
	log=$(mktemp)
	if uml_make modules > "$log" 2>&1; then
		rm -f "$log"
		return 0
	fi
	cat "$log"
	rm -f "$log"
	return 1
}
