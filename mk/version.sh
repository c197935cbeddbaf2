#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mk/version.sh [ROOT]: the version of the tree at ROOT (default: this
# script's parent), for noisectl --version and noise.ko's MODULE_VERSION:
# in a git checkout of ROOT, `git describe` of the latest v<N> tag without
# its "v" (0.1.0, 0.1.0-3-g<commit>[-dirty]), or with no such tag
# <VERSION>-g<commit>[-dirty]; elsewhere (a release tarball, the DKMS
# sources) the content of ROOT/VERSION. VERSION agrees with dkms.conf's
# PACKAGE_VERSION (tests/check.d/15-noisectl checks it).
root=${1:-$(dirname "$0")/..}
base=$(cat "$root/VERSION") || exit 1
top=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$root" && pwd -P)" ]; then
	v=$(git -C "$root" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null) &&
		{ echo "${v#v}"; exit 0; }
	v=$(git -C "$root" describe --always --dirty 2>/dev/null) &&
		{ echo "$base-g$v"; exit 0; }
fi
echo "$base"
