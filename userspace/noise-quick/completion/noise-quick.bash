# SPDX-License-Identifier: GPL-2.0
# bash completion for noise-quick: the command, then an interface name (a
# NAME.conf in the config directory) or a .conf file.

_noise_quick() {
	local cur=${COMP_WORDS[COMP_CWORD]} dir=${NOISE_QUICK_CONFIG_DIR:-/etc/noise} f
	COMPREPLY=()
	if [[ $COMP_CWORD == 1 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "up down save strip --help" -- "$cur")
		return
	fi
	[[ $COMP_CWORD == 2 ]] || return
	if [[ $cur != */* ]]; then
		for f in "$dir"/*.conf; do
			[[ -e $f ]] || continue
			f=${f##*/}
			f=${f%.conf}
			[[ $f == "$cur"* ]] && COMPREPLY+=("$f")
		done
	fi
	while IFS= read -r f; do
		COMPREPLY+=("$f")
	done < <(compgen -f -X '!*.conf' -- "$cur"; compgen -d -- "$cur")
}
complete -o filenames -F _noise_quick noise-quick
