#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# noisectl's configuration verbs against a live tunnel between two
# namespaces (default protocol, with a preshared key):
# - showconf prints the config without the private key and PSK, and
#   setconf of what showconf printed (plus the keys) gives the same showconf
#   again and the same settings as the original file, tunnel still working
# - syncconf keeps the session of an unchanged peer (the same handshake
#   time before and after) while it adds, changes and removes others;
#   addconf adds and keeps; set ... remove removes one peer; a syncconf
#   of a file with no preshared key does not load libcrypto
# - a config file with a bad line names the file and line, changes nothing
# - 1,000 peers with 10,000 allowed IPs: set with setconf and dumped back
#   whole (noisectl show, show dump, which streams the peers, and the raw
#   netlink dump: split over several messages, every peer and allowed IP
#   counted)
# - show dump: wg show dump's columns, each equal to show --json's; the
#   module's version (MODULE_VERSION) is noisectl --version's
source "$(dirname "$0")/lib.sh"

st_need ip ping jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s

# conf_norm FILE: the settings of a config file, one "section key value" a
# line, sorted; keys lowercased, AllowedIPs split, FwMark as a number;
# comments, PrivateKey and PresharedKey left out.
conf_norm() {
	python3 - "$1" <<-'EOF'
	import sys
	secs, cur = [], None
	for line in open(sys.argv[1]):
	    line = line.split('#', 1)[0].strip()
	    if line.startswith('['):
	        cur = {'section': line.lower(), 'allowedips': []}
	        secs.append(cur)
	    elif '=' in line and cur is not None:
	        k, v = (x.strip() for x in line.split('=', 1))
	        k = k.lower()
	        if k in ('privatekey', 'presharedkey'):
	            continue
	        if k == 'allowedips':
	            cur[k] += [a.strip() for a in v.split(',') if a.strip()]
	        elif k == 'fwmark':
	            cur[k] = str(int(v, 0)) if v != 'off' else '0'
	        else:
	            cur[k] = v
	for s in secs:
	    s['allowedips'] = ','.join(sorted(s['allowedips']))
	for line in sorted(' '.join('%s=%s' % kv for kv in sorted(s.items())) for s in secs):
	    print(line)
	EOF
}

write_conf() {
	cat > "$st_tmp/full.conf" <<-EOF
	# side 1, written by the selftest
	[Interface]
	Protocol = $PROTO
	PrivateKey = $NT_PRIV1
	ListenPort = $NT_PORT1
	FwMark = 0x1234

	[Peer]
	PublicKey = $NT_PUB2
	PresharedKey = $NT_PSK
	Endpoint = 10.99.0.2:$NT_PORT2
	AllowedIPs = $NT_IN4_2/32, $NT_IN6_2/128, 10.20.0.0/16
	PersistentKeepalive = 25

	[Peer]
	PublicKey = $FAKE1
	Endpoint = [fd99::5]:4444
	AllowedIPs = 10.30.0.0/24, fd30::/64, 10.31.1.1/32
	EOF
}

setconf_full() {
	FAKE1=$(nt_genkey 25519 | nt_pubkey) && FAKE2=$(nt_genkey 25519 | nt_pubkey) || return 1
	write_conf
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/full.conf" && nt_ping_first 1 "$NT_IN4_2" && nt_have_session
}

showconf_hides_keys() {
	nt_ctl 1 showconf "$NT_DEV" > "$st_tmp/show1.conf" || return 1
	cat "$st_tmp/show1.conf"
	if grep -qF -e "$NT_PRIV1" -e "$NT_PSK" "$st_tmp/show1.conf"; then
		echo "showconf printed a private key or PSK"; return 1
	fi
	if grep -Eiq '^[[:space:]]*(PrivateKey|PresharedKey)[[:space:]]*=' "$st_tmp/show1.conf"; then
		echo "showconf has an uncommented PrivateKey/PresharedKey line"; return 1
	fi
	diff <(conf_norm "$st_tmp/full.conf") <(conf_norm "$st_tmp/show1.conf")
}

# show dump against show --json, field by field: the device line, and one
# line per peer (counters and handshake time between two --json reads, as
# the keepalive may move them); show all dump: the same lines after the
# interface name.
dump_matches_json() {
	nt_ctl 1 show "$NT_DEV" --json > "$st_tmp/j1" &&
	nt_ctl 1 show "$NT_DEV" dump > "$st_tmp/dump" &&
	nt_ctl 1 show all dump > "$st_tmp/dump.all" &&
	nt_ctl 1 show "$NT_DEV" --json > "$st_tmp/j2" || return 1
	cat "$st_tmp/dump"
	python3 - "$st_tmp" "$NT_DEV" <<-'EOF'
	import json, sys
	d, dev = sys.argv[1], sys.argv[2]
	j1, j2 = (json.load(open('%s/%s' % (d, f))) for f in ('j1', 'j2'))
	lines = [l.rstrip('\n').split('\t') for l in open(d + '/dump')]
	bad = []
	def eq(what, got, want):
	    if got != want:
	        bad.append('%s: dump %r, json %r' % (what, got, want))
	def within(what, got, lo, hi):
	    if not lo <= int(got) <= hi:
	        bad.append('%s: dump %s, json %d..%d' % (what, got, lo, hi))
	pub = j1['public_key']
	eq('device', lines[0], ['(hidden)' if pub else '(none)', pub or '(none)',
	                        str(j1['listen_port']),
	                        '0x%x' % j1['fwmark'] if j1['fwmark'] else 'off'])
	eq('peers', len(lines) - 1, len(j1['peers']))
	for f, p, q in zip(lines[1:], j1['peers'], j2['peers']):
	    k = p['public_key'][:8]
	    eq(k + ' fields', len(f), 8)
	    if len(f) != 8:
	        continue
	    eq(k + ' key', f[0], p['public_key'])
	    eq(k + ' psk', f[1], '(hidden)' if p['preshared_key'] else '(none)')
	    eq(k + ' endpoint', f[2], p['endpoint'] or '(none)')
	    eq(k + ' allowed ips', f[3], ','.join(p['allowed_ips']) or '(none)')
	    within(k + ' handshake', f[4], p['latest_handshake_ns'] // 10**9,
	           q['latest_handshake_ns'] // 10**9)
	    within(k + ' rx', f[5], p['stats']['rx_bytes'], q['stats']['rx_bytes'])
	    within(k + ' tx', f[6], p['stats']['tx_bytes'], q['stats']['tx_bytes'])
	    ka = p['persistent_keepalive']
	    eq(k + ' keepalive', f[7], str(ka) if ka else 'off')
	hidden = [p for p in j1['peers'] if p['preshared_key']]
	if not hidden or not any(p['latest_handshake_ns'] for p in j1['peers']):
	    bad.append('no peer with a PSK and a handshake: the case proves little')
	mine = [l.rstrip('\n') for l in open(d + '/dump.all') if l.startswith(dev + '\t')]
	eq('show all dump lines of ' + dev, len(mine), len(lines))
	for l in mine:
	    eq('show all dump fields', len(l.split('\t')), 5 if l == mine[0] else 9)
	for b in bad:
	    print(b)
	sys.exit(1 if bad else 0)
	EOF
}

# The module and noisectl, built from one tree, say the same version.
same_version() {
	local mod ctl
	mod=$(cat /sys/module/noise/version) && ctl=$("$NOISECTL" --version) || return 1
	st_eq "version" "noisectl $mod" "$ctl"
}

# the keys put back into what showconf printed
with_keys() {	# IN OUT
	awk -v priv="$NT_PRIV1" -v psk="$NT_PSK" -v pub="$NT_PUB2" '
	{ print }
	/^[ \t]*\[Interface\]/ { print "PrivateKey = " priv }
	/^[ \t]*PublicKey[ \t]*=/ && index($0, pub) { print "PresharedKey = " psk }
	' "$1" > "$2"
}

round_trip() {
	with_keys "$st_tmp/show1.conf" "$st_tmp/again.conf"
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/again.conf" || return 1
	nt_ctl 1 showconf "$NT_DEV" > "$st_tmp/show2.conf" || return 1
	diff -u "$st_tmp/show1.conf" "$st_tmp/show2.conf" &&
	nt_ping 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN6_1"
}

# peer_line FILE PUB KEY VALUE: in the [Peer] section of PUB, KEY's lines
# become one "KEY = VALUE" (right after its PublicKey line).
peer_line() {
	awk -v p="$2" -v k="$3" -v v="$4" '
	/^[ \t]*\[/ { in_p = 0 }
	/^[ \t]*PublicKey[ \t]*=/ && index($0, p) { in_p = 1; print; print k " = " v; next }
	in_p && $0 ~ "^[ \t]*" k "[ \t]*=" { next }
	{ print }' "$1" > "$1.new" && mv "$1.new" "$1"
	grep -qxF "$3 = $4" "$1"
}

# kept_session WHAT T1 H1: the tunnel peer's session is still the one of
# handshake time T1 and H1 handshakes, or was renewed by age: a handshake
# REKEY_AFTER_TIME (120 s) or more after T1 is the timers' (a slow guest
# gets there in the middle of a case), not the change's, which would come
# at once. (This side's handshakes count need not move then: a run saw
# the time move by 128 s with the count at 4 before and after.)
kept_session() {
	local t2 h2
	t2=$(nt_handshake_ns 1 "$NT_PUB2") && h2=$(nt_peer_stat 1 "$NT_PUB2" handshakes) ||
		return 1
	[ "$t2" = "$2" ] && { st_eq "$1: handshakes" "$h2" "$3"; return; }
	if [ "$t2" -ge $(($2 + 120000000000)) ] && [ "$h2" -ge "$3" ]; then
		echo "$1: renewed by age, $(((t2 - $2) / 1000000000)) s after the last handshake (handshakes $3 -> $h2)"
		return 0
	fi
	echo "$1: handshakes $3 -> $h2"
	st_eq "$1: latest handshake" "$t2" "$2"
}

syncconf_keeps() {
	local t1 h1
	nt_ping 1 "$NT_IN4_2" > /dev/null
	t1=$(nt_handshake_ns 1 "$NT_PUB2") && st_ge "handshake time before" "$t1" 1 || return 1
	h1=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	# The tunnel peer unchanged; the other peer changed; a third added.
	with_keys "$st_tmp/show1.conf" "$st_tmp/sync.conf"
	peer_line "$st_tmp/sync.conf" "$FAKE1" AllowedIPs "10.30.0.0/24, fd30::/64" || return 1
	printf '\n[Peer]\nPublicKey = %s\nAllowedIPs = 10.40.0.0/16\n' "$FAKE2" >> "$st_tmp/sync.conf"
	nt_ctl 1 syncconf "$NT_DEV" "$st_tmp/sync.conf" || return 1
	kept_session "after syncconf" "$t1" "$h1" &&
	st_eq "peers" "$(nt_json 1 '.peers | length')" 3 &&
	st_eq "FAKE2 allowed IPs" "$(nt_json 1 --arg k "$FAKE2" '.peers[] | select(.public_key == $k) | .allowed_ips | join(",")')" 10.40.0.0/16 &&
	st_eq "FAKE1 allowed IPs" "$(nt_json 1 --arg k "$FAKE1" '.peers[] | select(.public_key == $k) | .allowed_ips | sort | join(",")')" "10.30.0.0/24,fd30::/64" &&
	nt_ping 1 "$NT_IN4_2" &&
	kept_session "after syncconf and ping" "$t1" "$h1"
}

syncconf_removes() {
	local t1 h1
	t1=$(nt_handshake_ns 1 "$NT_PUB2") && h1=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	with_keys "$st_tmp/show1.conf" "$st_tmp/sync2.conf"
	# leave FAKE1 out: cut its [Peer] section
	awk -v p="$FAKE1" '
	/^[ \t]*\[/ { flush(); buf = $0 "\n"; drop = 0; next }
	{ buf = buf $0 "\n"; if (index($0, p)) drop = 1 }
	function flush() { if (!drop) printf "%s", buf; buf = "" }
	END { flush() }' "$st_tmp/sync2.conf" > "$st_tmp/sync3.conf"
	grep -qF "$FAKE1" "$st_tmp/sync3.conf" && { echo "could not cut the peer"; return 1; }
	nt_ctl 1 syncconf "$NT_DEV" "$st_tmp/sync3.conf" || return 1
	st_eq "peers" "$(nt_json 1 '.peers | length')" 1 &&
	st_eq "the one left" "$(nt_json 1 '.peers[0].public_key')" "$NT_PUB2" &&
	kept_session "after syncconf" "$t1" "$h1" &&
	nt_ping 1 "$NT_IN4_2"
}

# syncconf of a file with no preshared key loads no libcrypto: the private
# key goes to the kernel as it is, which keeps it (and every session) when
# it is the same, where noisectl used to derive its public key to compare.
# The dynamic loader names every file it opens (LD_DEBUG=files).
syncconf_no_libcrypto() {
	local conf=$st_tmp/nocrypto.conf n
	{
		printf '[Interface]\nPrivateKey = %s\n' "$(head -c 32 /dev/urandom | base64)"
		printf '\n[Peer]\nPublicKey = %s\nAllowedIPs = 10.60.0.0/16\n' "$FAKE1"
	} > "$conf" && chmod 600 "$conf" || return 1
	nt_x 1 ip link add noise9 type noise || return 1
	nt_ctl 1 setconf noise9 "$conf" 2> /dev/null &&
	n=$(nt_x 1 env LD_DEBUG=files "$NOISECTL" syncconf noise9 "$conf" 2>&1 > /dev/null |
		grep -c 'file=libcrypto\.so')
	nt_x 1 ip link del noise9
	st_eq "libcrypto loads of a syncconf with no preshared key" "$n" 0
}

addconf_adds() {
	local t1 h1
	t1=$(nt_handshake_ns 1 "$NT_PUB2") && h1=$(nt_peer_stat 1 "$NT_PUB2" handshakes)
	printf '[Peer]\nPublicKey = %s\nAllowedIPs = 10.50.0.0/16, fd50::/48\n' "$FAKE1" > "$st_tmp/add.conf"
	nt_ctl 1 addconf "$NT_DEV" "$st_tmp/add.conf" || return 1
	st_eq "peers" "$(nt_json 1 '.peers | length')" 2 &&
	kept_session "after addconf" "$t1" "$h1" &&
	nt_ping 1 "$NT_IN4_2"
}

set_remove() {
	nt_ctl 1 set "$NT_DEV" peer "$FAKE1" remove || return 1
	st_eq "peers" "$(nt_json 1 '.peers | length')" 1 &&
	st_eq "the one left" "$(nt_json 1 '.peers[0].public_key')" "$NT_PUB2"
}

# bad_line LINE-TEXT WANT: a config whose line 9 is LINE-TEXT is refused,
# with a message that names the file and line and says WANT.
bad_line() {
	local err rc
	nt_ctl 1 showconf "$NT_DEV" > "$st_tmp/before.conf" || return 1
	{
		echo "[Interface]"
		echo "PrivateKey = $NT_PRIV1"
		echo "ListenPort = 40000"
		echo
		echo "[Peer]"
		echo "PublicKey = $FAKE2"
		echo "AllowedIPs = 10.60.0.0/16"
		echo "# line 8"
		echo "$1"
	} > "$st_tmp/bad.conf"
	err=$(nt_ctl 1 setconf "$NT_DEV" "$st_tmp/bad.conf" 2>&1 > /dev/null)
	rc=$?
	echo "noisectl: exit $rc, said: $err"
	[ $rc != 0 ] || { echo "accepted"; return 1; }
	st_eq "lines of the message" "$(echo "$err" | wc -l)" 1 &&
	[[ "$err" == *"$st_tmp/bad.conf:9:"* ]] || { echo "does not name bad.conf:9"; return 1; }
	[[ "$err" == *"$2"* ]] || { echo "does not say '$2'"; return 1; }
	nt_ctl 1 showconf "$NT_DEV" | diff -u "$st_tmp/before.conf" -
}

many_conf() {	# 1000 peers, 10 allowed IPs each (5 IPv4, 5 IPv6)
	python3 - "$st_tmp/many.conf" "$st_tmp/many.expect" "$NT_PRIV1" <<-'EOF'
	import base64, ipaddress, os, sys
	conf, expect, priv = sys.argv[1:4]
	with open(conf, 'w') as c, open(expect, 'w') as e:
	    c.write('[Interface]\nProtocol = Noise_IK_25519_ChaChaPoly_BLAKE2s\n'
	            'PrivateKey = %s\nListenPort = 52000\n' % priv)
	    for p in range(1000):
	        pub = base64.b64encode(os.urandom(32)).decode()
	        ips = ['10.%d.%d.%d/32' % (100 + p // 250, p % 250, i) for i in range(1, 6)]
	        ips += ['%s/128' % ipaddress.IPv6Address('fd77:%x::%x' % (p, i)) for i in range(1, 6)]
	        c.write('\n[Peer]\nPublicKey = %s\nAllowedIPs = %s\n' % (pub, ', '.join(ips)))
	        for ip in ips:
	            e.write('%s %s\n' % (pub, ip))
	EOF
	sort -o "$st_tmp/many.expect" "$st_tmp/many.expect"
	wc -l < "$st_tmp/many.expect"
}

many_set() {
	local t0 t1
	nt_x 1 ip link add noise1 type noise || return 1
	t0=$(date +%s.%N)
	nt_ctl 1 setconf noise1 "$st_tmp/many.conf" || return 1
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "setconf of 1000 peers: %.1f s\n", b - a }'
}

many_show() {
	local n
	n=$(nt_ctl 1 show noise1 peers | wc -l)
	st_eq "noisectl show noise1 peers" "$n" 1000 || return 1
	nt_ctl 1 show noise1 allowed-ips |
		awk '{ for (i = 2; i <= NF; i++) print $1, $i }' | sort > "$st_tmp/many.got"
	echo "allowed IPs: $(wc -l < "$st_tmp/many.got")"
	diff "$st_tmp/many.expect" "$st_tmp/many.got" > "$st_tmp/many.diff" ||
		{ head -n 20 "$st_tmp/many.diff"; return 1; }
	# show dump streams the peers (no model): the same pairs, each peer
	# on one line although the kernel split the dump over many messages.
	nt_ctl 1 show noise1 dump |
		awk -F'\t' 'NR > 1 { n = split($4, a, ","); for (i = 1; i <= n; i++) print $1, a[i] }' |
		sort > "$st_tmp/many.dump"
	echo "show dump: $(wc -l < "$st_tmp/many.dump") (peer, allowed IP) pairs"
	diff "$st_tmp/many.expect" "$st_tmp/many.dump" > "$st_tmp/many.diff" ||
		{ head -n 20 "$st_tmp/many.diff"; return 1; }
}

many_json() {
	local counts
	counts=$(nt_ctl 1 show noise1 --json | jq -r '"\(.peers | length) \([.peers[].allowed_ips[]] | length)"') ||
		return 1
	echo "show --json: ${counts% *} peers, ${counts#* } allowed IPs"
	st_eq "show --json: peers" "${counts% *}" 1000 &&
	st_eq "show --json: allowed IPs" "${counts#* }" 10000
}

# The raw dump (nl.py, no noisectl): split over several messages, and
# every peer and allowed IP in it is one that setconf set (many.expect),
# none missing, none twice.
many_raw() {
	local out msgs peers aips
	out=$(nt_x 1 $NL dump noise1 --count --list "$st_tmp/raw.list") || { echo "$out"; return 1; }
	# Read the counts before st_ge/st_eq: their own =~ resets BASH_REMATCH.
	[[ "$out" =~ messages=([0-9]+)\ peers=([0-9]+)\ allowedips=([0-9]+) ]] ||
		{ echo "nl.py said: $out"; return 1; }
	msgs=${BASH_REMATCH[1]} peers=${BASH_REMATCH[2]} aips=${BASH_REMATCH[3]}
	echo "set: $(cut -d' ' -f1 "$st_tmp/many.expect" | sort -u | wc -l) peers, $(wc -l < "$st_tmp/many.expect") allowed IPs"
	echo "raw dump: $msgs messages, $peers peers, $aips allowed IPs"
	st_ge "messages" "$msgs" 2 &&
	st_eq "peers" "$peers" 1000 &&
	st_eq "allowed IPs" "$aips" 10000 || return 1
	sort "$st_tmp/raw.list" | diff "$st_tmp/many.expect" - > "$st_tmp/raw.diff" ||
		{ echo "the dump differs from what was set:"; head -n 20 "$st_tmp/raw.diff"; return 1; }
	echo "dump = set: every (peer, allowed IP) pair, once"
}

tunnel() {
	nt_dev 1 && nt_dev 2 && nt_up "$PROTO" 4
}

# The 1000 peers' device deleted (ip link del waits for its teardown),
# then the tunnel's, then the module: what kmemleak then finds is a leak,
# not an object still being torn down by a namespace's deletion.
many_del() {
	local t0 t1
	t0=$(date +%s.%N)
	nt_x 1 ip link del noise1 || return 1
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "ip link del of 1000 peers: %.1f s\n", b - a }'
}

unload() {
	nt_down
	noise_unload
}

st_plan 24
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_must "a tunnel, setconf on both sides" tunnel
st_must "setconf side 1: two peers, fwmark, keepalive, PSK; ping" setconf_full
st_run_v "showconf: the same settings, no private key or PSK" showconf_hides_keys
st_run_v "show dump: wg's columns, field for field as show --json" dump_matches_json
st_run "the module's version is noisectl's" same_version
st_run "setconf of showconf's output: the same showconf, tunnel works" round_trip
st_run "syncconf keeps the session (same handshake time) and changes the rest" syncconf_keeps
st_run "syncconf removes a peer left out, keeps the session" syncconf_removes
st_run "syncconf of a file with no preshared key loads no libcrypto" syncconf_no_libcrypto
st_run "addconf adds a peer, keeps the session" addconf_adds
st_run "set peer ... remove" set_remove
st_run_v "setconf with an out-of-range prefix names file and line, changes nothing" \
	bad_line "AllowedIPs = 10.0.0.0/33" "prefix length"
st_run_v "setconf with an unknown key names file and line, changes nothing" \
	bad_line "Bogus = 1" "unknown key 'Bogus'"
# (A PSK: a second PublicKey line would be refused for being the second.)
st_run_v "setconf with a bad base64 key names file and line, changes nothing" \
	bad_line "PresharedKey = not-base64!" "not a base64"
st_must "a config of 1000 peers with 10 allowed IPs each" many_conf
st_run_v "setconf of 1000 peers on noise1" many_set
st_run_v "noisectl show: 1000 peers, the 10000 allowed IPs configured" many_show
st_run_v "noisectl show --json: 1000 peers, 10000 allowed IPs" many_json
st_run_v "raw netlink dump: several messages, 1000 peers, 10000 allowed IPs" many_raw
st_run_v "ip link del of the device with 1000 peers" many_del
st_run "the tunnel's devices deleted, rmmod noise" unload
st_kmemleak_case "kmemleak scan clean"
st_done
