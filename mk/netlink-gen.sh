#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mk/netlink-gen.sh [-o DIR] [--user]
#
# Runs the kernel's YNL code generator (tools/net/ynl/ynl-gen-c.py of a
# linux-source tree: $NOISE_UML_SOURCE, else the one tests/uml/build-kernel
# unpacked into the cache) on Documentation/netlink/specs/noise.yaml and
# writes what it generates, under DIR (default: the repository itself):
#
#   include/uapi/linux/noise.h          the uapi header (--mode uapi)
#   kmod/noise/tunnel/noise-nl-gen.h    the kernel's policies and ops
#   kmod/noise/tunnel/noise-nl-gen.c    (--mode kernel)
#
# and with --user also the user library (--mode user), which the check
# stage compiles but the repository does not keep:
#
#   user/noise-user.h, user/noise-user.c
#
# The generator finds the schema next to the spec and the tree's root by a
# MAINTAINERS file, so it runs on a copy of the spec in a scratch tree that
# has both. `make netlink-gen` regenerates the repository's files; the check
# stage 13-netlink-spec fails when they differ from a fresh run.
set -eu -o pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo
user=0
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--user) user=1; shift ;;
	*) echo "usage: $0 [-o DIR] [--user]" >&2; exit 2 ;;
	esac
done
src=${NOISE_UML_SOURCE:-}
if [ -z "$src" ]; then
	for d in "${NOISE_UML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/noise-uml}"/src/*/linux-source-6.12; do
		[ -d "$d" ] && src=$d && break
	done
fi
gen=$src/tools/net/ynl/ynl-gen-c.py
if [ -z "$src" ] || [ ! -f "$gen" ]; then
	echo "$0: no linux-source tree with tools/net/ynl (make uml unpacks one; or set NOISE_UML_SOURCE)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Documentation/netlink/specs"
touch "$tmp/MAINTAINERS"
ln -s "$src"/Documentation/netlink/genetlink*.yaml "$tmp/Documentation/netlink/"
cp "$repo/Documentation/netlink/specs/noise.yaml" "$tmp/Documentation/netlink/specs/"
spec=$tmp/Documentation/netlink/specs/noise.yaml

run() {	# run FILE ARGS...: one generator run, into FILE under $out
	local file=$1
	shift
	# The generator derives include names and guards from the output
	# name: write under the real name in the scratch tree, then move.
	mkdir -p "$tmp/out/$(dirname "$file")" "$out/$(dirname "$file")"
	python3 "$gen" --spec "$spec" "$@" -o "$tmp/out/$file" > "$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; echo "$0: ynl-gen-c failed for $file" >&2; exit 1; }
	mv "$tmp/out/$file" "$out/$file"
}
run include/uapi/linux/noise.h --mode uapi --header
run kmod/noise/tunnel/noise-nl-gen.h --mode kernel --header
run kmod/noise/tunnel/noise-nl-gen.c --mode kernel --source
if [ "$user" = 1 ]; then
	run user/noise-user.h --mode user --header
	run user/noise-user.c --mode user --source --user-header noise-user.h
fi
