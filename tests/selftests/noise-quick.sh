#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# noise-quick (userspace/noise-quick): two namespaces joined by a veth,
# each side brought up by `noise-quick up FILE` from a wg-quick format file
# (Address, ListenPort, a hook, a [Peer]); ping through; `save` (the
# private key moves into NAME.key, the PSK and the addresses stay), `down`
# and `up` again from the saved file; the systemd unit's ExecReload line
# applying a changed file; a 0.0.0.0/0 + ::/0 tunnel whose
# encapsulated packets do not loop (the endpoint is reachable only by
# side 1's default route; the fwmark rules send the device's own packets
# to the main table) and whose rules `down` removes (SaveConfig = true:
# saving first); Table = 1234 (routes there, no rule); a failing PostUp
# hook (exit 1, no device left); then, when the real
# wg-quick and the kernel's WireGuard are there, an unmodified wg-quick file
# plus `Protocol = WireGuard` against WireGuard brought up by wg-quick.
source "$(dirname "$0")/lib.sh"

NQ=${NOISE_QUICK:-}
if [ -z "$NQ" ]; then
	if [ -n "$st_repo" ]; then
		NQ=$st_repo/userspace/noise-quick/noise-quick
	elif [ -x "$st_here/noise-quick" ]; then
		NQ=$st_here/noise-quick
	else
		NQ=$(command -v noise-quick || echo noise-quick)
	fi
fi
export NOISECTL

st_need ip ping timeout "$NOISECTL" "$NQ"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

IF=nq0
PORT1=51821
PORT2=51822
MARK=0xca6c	# 51820, the first free table

# nq SIDE ARGS...: noise-quick in that side's namespace
nq() {
	local s=$1
	shift
	nt_x "$s" "$NQ" "$@"
}

keys() {
	PRIV1=$(nt_genkey 25519) && PUB1=$(echo "$PRIV1" | nt_pubkey) &&
	PRIV2=$(nt_genkey 25519) && PUB2=$(echo "$PRIV2" | nt_pubkey) &&
	PSK=$("$NOISECTL" genpsk)
}

# conf SIDE ENDPOINT ALLOWEDIPS [EXTRA]: side SIDE's file
# $st_tmp/SIDE/nq0.conf (mode 600), EXTRA lines added to [Interface].
conf() {
	local s=$1 priv port pub
	if [ "$s" = 1 ]; then priv=$PRIV1 port=$PORT1 pub=$PUB2; else priv=$PRIV2 port=$PORT2 pub=$PUB1; fi
	mkdir -p "$st_tmp/$s"
	(umask 077 && cat > "$st_tmp/$s/$IF.conf") <<EOF
[Interface]
Address = 10.10.0.$s/24, fd10::$s/64
PrivateKey = $priv
ListenPort = $port
PostUp = echo up > $st_tmp/$s/hook-%i
PostDown = echo down > $st_tmp/$s/hook-%i
${4:-}

[Peer]
PublicKey = $pub
PresharedKey = $PSK
Endpoint = $2
AllowedIPs = $3
EOF
}

both_up() {
	keys || return 1
	conf 1 "10.99.0.2:$PORT2" "10.10.0.2/32, fd10::2/128" &&
	conf 2 "10.99.0.1:$PORT1" "10.10.0.1/32, fd10::1/128" &&
	nq 1 up "$st_tmp/1/$IF.conf" && nq 2 up "$st_tmp/2/$IF.conf"
}

# ping6_first SIDE ADDR: like nt_ping_first, once DAD is over.
ping6_first() {
	local i
	for ((i = 0; i < 20; i++)); do
		nt_x "$1" ip -6 address show dev "$IF" tentative | grep -q inet6 || break
		st_nap 0.5
	done
	nt_ping_first "$1" "$2"
}

# The addresses, the MTU (1500 - 60: an IPv4 endpoint), the hook.
check_up() {
	local a
	a=$(nt_x 1 ip -o address show dev "$IF" | awk '{ print $4 }' | sort | tr '\n' ' ')
	case $a in
	"10.10.0.1/24 fd10::1/64 "*) ;;
	*) st_fail "addresses: $a" ;;
	esac || return 1
	st_eq "mtu" "$(nt_x 1 cat /sys/class/net/$IF/mtu)" 1440 &&
	st_eq "PostUp hook" "$(cat "$st_tmp/1/hook-$IF")" up &&
	st_eq "route" "$(nt_x 1 ip -o route get 10.10.0.2 | grep -o "dev $IF")" "dev $IF"
}

# save: the key in nq0.key (600), not in the file; PSK, Address kept.
save_side1() {
	local f=$st_tmp/1/$IF.conf
	nq 1 save "$f" || return 1
	cat "$f"
	st_eq "key file" "$(cat "$st_tmp/1/$IF.key")" "$PRIV1" &&
	st_eq "key file mode" "$(stat -c %a "$st_tmp/1/$IF.key")" 600 &&
	st_eq "config mode" "$(stat -c %a "$f")" 600 &&
	! grep -q "^PrivateKey *=" "$f" &&
	grep -qx "PrivateKeyFile = $IF.key" "$f" &&
	grep -qx "PresharedKey = $PSK" "$f" &&
	grep -qx "Address = 10.10.0.1/24" "$f" &&
	grep -qx "Address = fd10::1/64" "$f" &&
	grep -q "^PostUp = echo up" "$f"
}

down_side1() {
	nq 1 down "$st_tmp/1/$IF.conf" || return 1
	st_eq "PostDown hook" "$(cat "$st_tmp/1/hook-$IF")" down &&
	! nt_x 1 ip link show "$IF" 2> /dev/null
}

up_saved() {
	nq 1 up "$st_tmp/1/$IF.conf" &&
	st_eq "public key" "$(nt_ctl 1 show "$IF" public-key)" "$PUB1"
}

# The unit's ExecReload line (its programs in $st_tmp/bin, the instance
# nq0 looked up in side 1's directory) applies a changed file: a keepalive
# added to the peer.
reload_unit() {
	local unit=${st_repo:-/nonexistent}/userspace/noise-quick/systemd/noise-quick@.service line
	[ -r "$unit" ] || { st_skip_case "no unit file (not run from the repository)"; return; }
	mkdir -p "$st_tmp/bin" && ln -sf "$NOISECTL" "$st_tmp/bin/noisectl" &&
	ln -sf "$NQ" "$st_tmp/bin/noise-quick" || return 1
	line=$(sed -n 's/^ExecReload=//p' "$unit")
	line=${line//@BINDIR@/$st_tmp/bin}
	line=${line//%i/$IF}
	echo "PersistentKeepalive = 25" >> "$st_tmp/1/$IF.conf"
	echo "$line"
	nt_x 1 env NOISE_QUICK_CONFIG_DIR="$st_tmp/1" sh -c "$line" &&
	st_eq "keepalive" "$(nt_ctl 1 show "$IF" persistent-keepalive | cut -f 2)" 25 &&
	st_eq "public key" "$(nt_ctl 1 show "$IF" public-key)" "$PUB1"
}

# Side 2's endpoint 10.98.0.2 (and fd98::2) is reachable from side 1 only
# by its default route, via the veth: a 0.0.0.0/0 tunnel would send its
# own packets into itself without the fwmark rules.
default_setup() {
	nt_x 2 ip address add 10.98.0.2/32 dev veth0 &&
	nt_x 2 ip address add fd98::2/128 dev veth0 nodad &&
	nt_x 1 ip route add default via 10.99.0.2 &&
	nt_x 1 ip -6 route add default via fd99::2 &&
	conf 1 "10.98.0.2:$PORT2" "0.0.0.0/0, ::/0" "SaveConfig = true" &&
	nq 1 up "$st_tmp/1/$IF.conf"
}

default_check() {
	local r
	nt_x 1 ip -4 rule; nt_x 1 ip -6 rule
	st_eq "fwmark" "$(nt_ctl 1 show "$IF" fwmark)" "$MARK" &&
	nt_x 1 ip -4 rule | grep -q "not from all fwmark $MARK lookup 51820" &&
	nt_x 1 ip -6 rule | grep -q "not from all fwmark $MARK lookup 51820" &&
	nt_x 1 ip -4 rule | grep -q "from all lookup main suppress_prefixlength 0" || return 1
	r=$(nt_x 1 ip -o route get 10.98.0.2 mark "$MARK")
	echo "underlay (marked): $r"
	[[ $r == *"dev veth0"* ]] || st_fail "the encapsulated packets would go: $r" || return 1
	r=$(nt_x 1 ip -o route get 10.98.0.2)
	echo "unmarked: $r"
	[[ $r == *"dev $IF"* ]] || st_fail "unmarked traffic is not through the tunnel: $r"
}

# Through the default route: side 2's outer address too, inside the tunnel.
default_ping() {
	local rx
	nt_ping_first 1 10.10.0.2 && ping6_first 1 fd10::2 || return 1
	rx=$(nt_x 2 cat /sys/class/net/$IF/statistics/rx_packets)
	nt_ping 1 10.98.0.2 &&
	st_ge "side 2 tunnel rx packets grew by" "$(($(nt_x 2 cat /sys/class/net/$IF/statistics/rx_packets) - rx))" 3
}

# SaveConfig = true: down saved the file first (the fwmark in it).
default_down() {
	local f=$st_tmp/1/$IF.conf
	nq 1 down "$f" || return 1
	nt_x 1 ip -4 rule; nt_x 1 ip -6 rule
	! nt_x 1 ip -4 rule | grep -q "51820\|suppress_prefixlength" &&
	! nt_x 1 ip -6 rule | grep -q "51820\|suppress_prefixlength" &&
	[[ $(nt_x 1 ip -o route get 10.98.0.2) == *"dev veth0"* ]] || return 1
	if ! { grep -qx "FwMark = $MARK" "$f" && grep -qx "SaveConfig = true" "$f" &&
	       grep -qx "PrivateKeyFile = $IF.key" "$f"; }; then
		cat "$f"
		st_fail "down did not save the file"
	fi
}

# Table = 1234: the routes go there, no rule, nothing in main; a failing
# PostUp hook: exit 1 and no device left.
table_and_hook() {
	conf 1 "10.99.0.2:$PORT2" "10.10.0.2/32, 0.0.0.0/0" "Table = 1234" &&
	nq 1 up "$st_tmp/1/$IF.conf" || return 1
	nt_x 1 ip route show table 1234
	nt_x 1 ip route show table 1234 | grep -q "^default dev $IF" &&
	nt_x 1 ip route show table 1234 | grep -q "^10.10.0.2 dev $IF" &&
	! nt_x 1 ip rule | grep -q "1234\|suppress_prefixlength" &&
	! nt_x 1 ip route show table main | grep -q "^default dev $IF" &&
	nq 1 down "$st_tmp/1/$IF.conf" || return 1
	conf 1 "10.99.0.2:$PORT2" "10.10.0.2/32" "PostUp = false" &&
	if nq 1 up "$st_tmp/1/$IF.conf"; then
		st_fail "up succeeded with a failing hook"
	else
		! nt_x 1 ip link show "$IF" 2> /dev/null ||
			st_fail "the device is still there"
	fi
}

# wg-quick on side 2 (kernel WireGuard), noise-quick on side 1 from the
# same kind of file with Protocol = WireGuard.
WG_IF=wgq0
wgquick_case() {
	local wpriv wpub
	nq 2 down "$st_tmp/2/$IF.conf" || return 1
	wpriv=$(wg genkey) && wpub=$(echo "$wpriv" | wg pubkey) || return 1
	mkdir -p "$st_tmp/w"
	(umask 077 && cat > "$st_tmp/w/$WG_IF.conf") <<EOF
[Interface]
Address = 10.20.0.2/24
PrivateKey = $wpriv
ListenPort = $PORT2

[Peer]
PublicKey = $PUB1
Endpoint = 10.99.0.1:$PORT1
AllowedIPs = 10.20.0.1/32
EOF
	(umask 077 && cat > "$st_tmp/1/$IF.conf") <<EOF
[Interface]
Protocol = WireGuard
Address = 10.20.0.1/24
PrivateKey = $PRIV1
ListenPort = $PORT1

[Peer]
PublicKey = $wpub
Endpoint = 10.99.0.2:$PORT2
AllowedIPs = 10.20.0.2/32
EOF
	nt_x 2 wg-quick up "$st_tmp/w/$WG_IF.conf" &&
	nq 1 up "$st_tmp/1/$IF.conf" &&
	st_eq "protocol" "$(nt_ctl 1 show "$IF" protocol)" WireGuard &&
	nt_ping_first 1 10.20.0.2 &&
	nt_x 2 wg-quick down "$st_tmp/w/$WG_IF.conf" &&
	nq 1 down "$st_tmp/1/$IF.conf"
}

wgquick_or_skip() {
	if ! command -v wg-quick > /dev/null || ! command -v wg > /dev/null; then
		st_skip "$1" "no wg-quick here"
	elif ! nt_x 2 ip link add wgprobe0 type wireguard 2> /dev/null; then
		st_skip "$1" "no WireGuard in this kernel"
	else
		nt_x 2 ip link del wgprobe0
		st_run_v "$1" wgquick_case
	fi
}

st_plan 16
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_defer "rmmod noise"
st_run_v "noise-quick up on both sides" both_up ||
	ktap_exit_fail_msg "noise-quick up failed: the rest cannot run"
st_run_v "addresses, MTU 1440, PostUp hook, route" check_up
st_run "ping and ping6 through the tunnel" eval 'nt_ping_first 1 10.10.0.2 && ping6_first 2 fd10::1'
st_run_v "noise-quick save: key into nq0.key (600), PSK and addresses kept" save_side1
st_must "noise-quick down: PostDown hook, device gone" down_side1
st_must "noise-quick up from the saved file" up_saved
st_run "ping through again" nt_ping_first 1 10.10.0.2
st_run_v "the unit's ExecReload (noisectl syncconf of the stripped file) applies a change" reload_unit
st_must "0.0.0.0/0 and ::/0: down, endpoint only by the default route, up again" \
	eval 'down_side1 && default_setup'
st_run_v "fwmark rules: the underlay route of marked packets is not the device" default_check
st_run "ping, ping6 and side 2's outer address through the default route" default_ping
st_run_v "noise-quick down removes the rules (SaveConfig = true: saved first)" default_down
st_run_v "Table = 1234: routes there, no rule; a failing PostUp: no device left" table_and_hook
wgquick_or_skip "an unmodified wg-quick file with Protocol = WireGuard against wg-quick"
st_done
