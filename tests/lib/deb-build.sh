# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The Debian packages built from the tree (sourced by tests/check.d/17-debian
# and tests/qemu/dkms-check; debian/, Documentation/install.rst). The
# repository is never written: the tree is copied into a directory of its
# own and built there with dpkg-buildpackage -us -uc -b, which writes the
# .debs and the .changes into that directory's parent.

# deb_build_missing: prints the build tools that are missing (nothing when
# all are there).
deb_build_missing() {
	local t miss=()
	for t in dpkg-buildpackage dh dh_dkms; do
		command -v "$t" > /dev/null || miss+=("$t")
	done
	echo "${miss[*]}"
}

# deb_build REPO DIR: copies REPO's tree as it is (tracked and new files, not
# ignored ones: no out/, no build products) into DIR/src and builds the
# packages there; the output of the build goes to DIR/build.log. The .debs
# are then DIR/noise-dkms_<version>_all.deb and
# DIR/noisectl_<version>_<arch>.deb, <version> being VERSION's (deb_files).
# Returns dpkg-buildpackage's status.
deb_build() {
	local repo=$1 dir=$2
	mkdir -p "$dir/src"
	(
		cd "$repo" || exit 1
		if [ -e .git ] && git rev-parse --git-dir > /dev/null 2>&1; then
			git ls-files -z -co --exclude-standard |
				tar --null -T - --ignore-failed-read -cf - 2> /dev/null
		else
			tar --exclude=./out --exclude=./.git --exclude=./build -cf - .
		fi
	) | tar -xf - -C "$dir/src" || return 1
	(cd "$dir/src" && dpkg-buildpackage -us -uc -b) > "$dir/build.log" 2>&1
}

# deb_files REPO DIR: sets deb_version (REPO's VERSION), deb_dkms and
# deb_ctl (the paths deb_build writes the two packages to).
# shellcheck disable=SC2034	# for the caller
deb_files() {
	deb_version=$(cat "$1/VERSION")
	deb_dkms=$2/noise-dkms_${deb_version}_all.deb
	deb_ctl=$2/noisectl_${deb_version}_$(dpkg-architecture -qDEB_HOST_ARCH 2> /dev/null).deb
}
