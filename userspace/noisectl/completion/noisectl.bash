# SPDX-License-Identifier: GPL-2.0
#
# Bash completion for noisectl: verbs, interfaces, show's fields, set's
# keys (the device's until "peer", then the peer's), configuration and key
# files. Installed as share/bash-completion/completions/noisectl.

# _noisectl_words WORDS CUR: the words (blank-separated) that start with CUR.
_noisectl_words() {
	local w
	for w in $(compgen -W "$1" -- "$2"); do
		COMPREPLY+=("$w")
	done
}

_noisectl_files() {
	local f
	compopt -o filenames 2> /dev/null
	while IFS= read -r f; do
		COMPREPLY+=("$f")
	done < <(compgen -f -- "$1")
}

# set <interface> [key value]... [peer <key> [key value | remove]...]...
_noisectl_set() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local i in_peer=0

	# The word after a key is its value.
	for ((i = 3; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		peer) in_peer=1; i=$((i + 1)) ;;
		remove) ;;
		*) i=$((i + 1)) ;;
		esac
	done
	if ((i > COMP_CWORD)); then
		case $prev in
		private-key|preshared-key) _noisectl_files "$cur" ;;
		protocol) _noisectl_words "WireGuard Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s Noise_IKhfs+psk2_25519+MLKEM768_ChaChaPoly_BLAKE2s" "$cur" ;;
		peer) _noisectl_words "$(noisectl show "${COMP_WORDS[2]}" peers 2> /dev/null)" "$cur" ;;
		fwmark|persistent-keepalive) _noisectl_words "off" "$cur" ;;
		esac
	elif ((in_peer)); then
		_noisectl_words "preshared-key endpoint allowed-ips persistent-keepalive remove peer" "$cur"
	else
		_noisectl_words "protocol private-key listen-port fwmark peer" "$cur"
	fi
}

_noisectl() {
	local cur=${COMP_WORDS[COMP_CWORD]} verb=${COMP_WORDS[1]} extra=

	COMPREPLY=()
	if ((COMP_CWORD == 1)); then
		_noisectl_words "show showconf set setconf addconf syncconf monitor genkey genpsk pubkey version help" "$cur"
		return
	fi
	case $verb in
	genkey|pubkey)
		if ((COMP_CWORD == 2)); then
			_noisectl_words "--dh" "$cur"
		elif ((COMP_CWORD == 3)) && [[ ${COMP_WORDS[2]} == --dh ]]; then
			_noisectl_words "25519 448" "$cur"
		fi
		return ;;
	show|showconf|set|setconf|addconf|syncconf|monitor) ;;
	*) return ;;
	esac
	if ((COMP_CWORD == 2)); then
		[[ $verb == show ]] && extra=" all interfaces --json"
		_noisectl_words "$(noisectl show interfaces 2> /dev/null)$extra" "$cur"
		return
	fi
	case $verb in
	show)
		((COMP_CWORD == 3)) && [[ ${COMP_WORDS[2]} != interfaces ]] &&
			_noisectl_words "public-key protocol listen-port fwmark peers preshared-keys endpoints allowed-ips latest-handshakes transfer persistent-keepalive drops dump --json" "$cur" ;;
	setconf|addconf|syncconf)
		((COMP_CWORD == 3)) && _noisectl_files "$cur" ;;
	set)
		_noisectl_set ;;
	esac
	return 0
}

complete -F _noisectl noisectl
