# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the WireGuard interop selftests (sourced after lib.sh): our
# device with the WireGuard profile in namespace $NT_NS1 (noise0, tunnel
# 10.10.0.1, fd10::1, port 51821), a real WireGuard in $NT_NS2 (the kernel's
# or wireguard-go, interface $WG_IF, tunnel .2, ::2, port 51822), both
# configured from `wg`-format files (the same file syntax for both tools).
#
#   wg_impl kernel|go      which WireGuard runs in $NT_NS2
#   wg_keys                new keys: WG_PRIV1 WG_PUB1 (ours) WG_PRIV2 WG_PUB2
#   wg_setup [4|6] [PSK]   both sides configured, outer family 4 or 6
#   wg_show FIELD          `wg show $WG_IF FIELD` in $NT_NS2

WG_IF=${WG_IF:-wgk0}
WG_IMPL=kernel
WG_GO_PID=

wg_impl() {
	WG_IMPL=$1
	if [ "$1" = go ]; then WG_IF=wgo$$; else WG_IF=wgk0; fi
}

wg_keys() {
	WG_PRIV1=$(wg genkey) && WG_PUB1=$(echo "$WG_PRIV1" | wg pubkey) &&
	WG_PRIV2=$(wg genkey) && WG_PUB2=$(echo "$WG_PRIV2" | wg pubkey)
}

# wg_conf FILE PRIV PORT PEERPUB ENDPOINT ALLOWEDIPS [PSK]: a `wg` file
wg_conf() {
	{
		echo "[Interface]"
		echo "PrivateKey = $2"
		echo "ListenPort = $3"
		echo
		echo "[Peer]"
		echo "PublicKey = $4"
		[ -n "${7:-}" ] && echo "PresharedKey = $7"
		[ -n "$5" ] && echo "Endpoint = $5"
		echo "AllowedIPs = $6"
	} > "$1"
}

# Our side: the device with the WireGuard profile, then the wg file as is.
wg_ours_up() {
	if ! nt_x 1 ip link show "$NT_DEV" > /dev/null 2>&1; then
		nt_x 1 ip link add "$NT_DEV" type noise &&
		nt_x 1 ip addr add "$NT_IN4_1/24" dev "$NT_DEV" &&
		nt_x 1 ip addr add "$NT_IN6_1/64" dev "$NT_DEV" nodad &&
		nt_x 1 ip link set "$NT_DEV" up || return 1
	fi
	nt_ctl 1 set "$NT_DEV" protocol WireGuard &&
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/ours.conf"
}

wg_theirs_create() {
	if [ "$WG_IMPL" = go ]; then
		mkdir -p /run/wireguard
		WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1 \
			nt_bg 2 "$st_tmp/wireguard-go.log" wireguard-go -f "$WG_IF"
		WG_GO_PID=$NT_BG
		local i
		for ((i = 0; i < 50; i++)); do
			[ -S "/run/wireguard/$WG_IF.sock" ] && nt_x 2 ip link show "$WG_IF" \
				> /dev/null 2>&1 && break
			sleep 0.2
		done
		[ -S "/run/wireguard/$WG_IF.sock" ] ||
			{ cat "$st_tmp/wireguard-go.log"; return 1; }
	else
		nt_x 2 ip link add "$WG_IF" type wireguard || return 1
	fi
	nt_x 2 ip addr add "$NT_IN4_2/24" dev "$WG_IF" &&
	nt_x 2 ip addr add "$NT_IN6_2/64" dev "$WG_IF" nodad &&
	nt_x 2 ip link set "$WG_IF" up
}

wg_theirs_up() {
	if ! nt_x 2 ip link show "$WG_IF" > /dev/null 2>&1; then
		wg_theirs_create || return 1
	fi
	nt_x 2 wg setconf "$WG_IF" "$st_tmp/theirs.conf"
}

wg_theirs_down() {
	if [ "$WG_IMPL" = go ] && [ -n "$WG_GO_PID" ]; then
		kill "$WG_GO_PID" 2> /dev/null
		wait "$WG_GO_PID" 2> /dev/null
		WG_GO_PID=
	fi
	nt_x 2 ip link del "$WG_IF" 2> /dev/null
	true
}

# wg_setup [OUTER] [PSK_MODE]: PSK_MODE "" none, "psk" the same PSK on both,
# "wrongpsk" different ones, "wrongkey" WireGuard thinks our key is another.
wg_setup() {
	local outer=${1:-4} mode=${2:-} ep1 ep2 psk1="" psk2="" pub1
	wg_keys || return 1
	if [ "$outer" = 6 ]; then
		ep1="[fd99::1]:$NT_PORT1" ep2="[fd99::2]:$NT_PORT2"
	else
		ep1="10.99.0.1:$NT_PORT1" ep2="10.99.0.2:$NT_PORT2"
	fi
	case "$mode" in
	psk) psk1=$(wg genpsk); psk2=$psk1 ;;
	wrongpsk) psk1=$(wg genpsk); psk2=$(wg genpsk) ;;
	esac
	pub1=$WG_PUB1
	[ "$mode" = wrongkey ] && pub1=$(wg genkey | wg pubkey)
	wg_conf "$st_tmp/ours.conf" "$WG_PRIV1" "$NT_PORT1" "$WG_PUB2" "$ep2" \
		"$NT_IN4_2/32, $NT_IN6_2/128" "$psk1"
	wg_conf "$st_tmp/theirs.conf" "$WG_PRIV2" "$NT_PORT2" "$pub1" "$ep1" \
		"$NT_IN4_1/32, $NT_IN6_1/128" "$psk2"
	wg_ours_up && wg_theirs_up
}

wg_show() {
	nt_x 2 wg show "$WG_IF" "$@"
}

# wg_their_handshake: WireGuard names a handshake with us (epoch seconds)
wg_their_handshake() {
	local t
	t=$(wg_show latest-handshakes | awk '{print $2}')
	st_ge "$WG_IMPL WireGuard's latest handshake with us" "$t" 1
}

# wg_their_rx MIN: WireGuard received at least MIN bytes from us
wg_their_rx() {
	local rx
	rx=$(wg_show transfer | awk '{print $2}')
	echo "wg show transfer: $(wg_show transfer)"
	st_ge "$WG_IMPL WireGuard's rx bytes from us" "$rx" "$1"
}

# wg_ping_both: IPv4 and IPv6 inside, each side pinging the other
wg_ping_both() {
	nt_ping 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN4_1" &&
	nt_ping 1 "$NT_IN6_2" && nt_ping 2 "$NT_IN6_1"
}

# wg_iperf_both: iperf3 TCP one second each way, over IPv4 inside
wg_iperf_both() {
	st_iperf3 "$NT_NS1" "$NT_NS2" "$NT_IN4_2" &&
	st_iperf3 "$NT_NS2" "$NT_NS1" "$NT_IN4_1"
}

# wg_reset: both sides forget the session (peers removed and added again)
wg_reset() {
	nt_ctl 1 set "$NT_DEV" peer "$WG_PUB2" remove &&
	nt_x 2 wg set "$WG_IF" peer "$WG_PUB1" remove &&
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/ours.conf" &&
	nt_x 2 wg setconf "$WG_IF" "$st_tmp/theirs.conf"
}

# wg_interop NAME: the cases every implementation gets
wg_interop() {
	local n=$1
	st_must "$n: configured (IPv4 outside)" wg_setup 4
	st_run "$n: we initiate, ping" nt_ping_first 1 "$NT_IN4_2"
	st_run "$n: wg show names the handshake" wg_their_handshake
	st_run "$n: ping both ways, IPv4 and IPv6 inside" wg_ping_both
	st_run_v "$n: iperf3 TCP both ways" wg_iperf_both
	st_run "$n: wg show counts our bytes" wg_their_rx 100000
	st_run "$n: our counters have no drops" wg_no_drops
	wg_rekey_case "$n"
	st_run_v "$n: its response lost once: our retry is a new initiation, answered" \
		wg_lost_response
	st_must "$n: sessions forgotten" wg_reset
	st_run "$n: WireGuard initiates, ping" nt_ping_first 2 "$NT_IN4_1"
	st_run "$n: ping both ways after their handshake" wg_ping_both
	st_must "$n: configured (IPv6 outside, PSK)" wg_setup 6 psk
	st_run "$n: IPv6 outside with PSK, we initiate" nt_ping_first 1 "$NT_IN6_2"
	st_run "$n: IPv6 outside with PSK, both ways" wg_ping_both
	st_run_v "$n: IPv6 outside with PSK, iperf3 TCP" wg_iperf_both
	st_must "$n: sessions forgotten (IPv6, PSK)" wg_reset
	st_run "$n: IPv6 outside with PSK, WireGuard initiates" nt_ping_first 2 "$NT_IN6_1"
	st_run "$n: endpoint change followed by us" wg_roam_theirs
	st_run "$n: endpoint change followed by WireGuard" wg_roam_ours
	st_must "$n: configured with the wrong PSK" wg_setup 4 wrongpsk
	st_run "$n: wrong PSK: nothing gets through" wg_nothing_through drop_handshake
	st_must "$n: configured with the wrong key" wg_setup 4 wrongkey
	# WireGuard's mac1, keyed by the wrong key for us, fails (drop_mac1).
	st_run "$n: wrong key: nothing gets through" wg_nothing_through drop_mac1
}

# wg_rekey: our side renews the session mid-stream, several times (the
# test-only debug_time_scale=60 shortens our timers, Documentation/
# timers.rst: a session renewed after 2 s; WireGuard keeps its own): not
# one of the pings (every 0.1 s, under an iperf3 TCP stream, 10 s) is lost.
# NOISE_WG_SLOW=1: the real timers instead, across REKEY_AFTER_TIME (120 s;
# 700 pings every 0.2 s, 145 s).
WG_SCALE_P=/sys/module/noise/parameters/debug_time_scale
wg_rekey() {
	local before after secs=10 count=100 every=0.1 min=3 pidf=$st_tmp/rekey-iperf.pid
	if [ "${NOISE_WG_SLOW:-}" = 1 ]; then
		secs=140 count=700 every=0.2 min=1
	else
		echo 60 > "$WG_SCALE_P" || return 1
		st_defer "echo 1 > $WG_SCALE_P"
	fi
	before=$(nt_peer_stat 1 "$WG_PUB2" handshakes)
	nt_x 2 iperf3 -s -1 -D -B "$NT_IN4_2" -I "$pidf" || return 1
	st_defer "kill \$(cat $pidf)"
	sleep 0.5
	nt_x 1 iperf3 -c "$NT_IN4_2" -t "$secs" > "$st_tmp/rekey-iperf.out" 2>&1 &
	local ip=$!
	nt_x 1 ping -c "$count" -i "$every" -q "$NT_IN4_2" > "$st_tmp/rekey-ping.out" 2>&1
	local rc=$?
	wait $ip
	echo 1 > "$WG_SCALE_P"
	tail -n 4 "$st_tmp/rekey-iperf.out"
	cat "$st_tmp/rekey-ping.out"
	after=$(nt_peer_stat 1 "$WG_PUB2" handshakes)
	echo "our sessions with WireGuard: $before -> $after"
	[ $rc = 0 ] && grep -q ' 0% packet loss' "$st_tmp/rekey-ping.out" ||
		st_fail "pings lost across the rekeys"
	st_ge "new sessions during the stream" "$((after - before))" "$min"
}

wg_rekey_case() {
	st_run_v "$1: rekey mid-stream, no loss" wg_rekey
}

# wg_no_drops: our device counted no drop that would mean a framing bug
wg_no_drops() {
	local k
	for k in drop_auth drop_bad_type drop_bad_length drop_handshake drop_source drop_inner; do
		st_eq "our $k" "$(nt_dev_stat 1 $k)" 0 || { nt_ctl 1 show "$NT_DEV" --json; return 1; }
	done
}

# wg_nothing_through COUNTER: no ping either way, our COUNTER grew
wg_nothing_through() {
	local before after
	before=$(nt_dev_stat 1 "$1")
	nt_noping 1 "$NT_IN4_2" && nt_noping 2 "$NT_IN4_1" || return 1
	sleep 1
	after=$(nt_dev_stat 1 "$1")
	echo "our $1: $before -> $after"
	nt_ctl 1 show "$NT_DEV" --json | jq -c .stats
	st_ge "our $1 grew by" "$((after - before))" 1
}

# wg_lost_response: WireGuard's response to our first initiation is lost
# (a udp.py relay in WireGuard's namespace drops every response within
# 0.5 s of the first). WireGuard refuses an initiation whose timestamp it
# has seen, so our retransmission must be a new initiation (a new sender
# index): the first one after the loss is answered and the session comes
# up. (Resending the same bytes would be refused until our fifth try.)
wg_lost_response() {
	local log=$st_tmp/relay-wg.log relay=10.99.0.2:51950 pid rc=0 l
	local inits=() answered=""
	rm -f "$log" "$log.stop"
	UDP_STOP=$log.stop ip netns exec "$NT_NS2" python3 "$st_here/udp.py" relay \
		"$relay" "10.99.0.2:$NT_PORT2" lose:2:0.5 > "$log" 2>&1 &
	pid=$!
	st_defer "kill $pid"
	st_wait_ready "$log" || return 1
	sed "s/^Endpoint = .*/Endpoint = $relay/" "$st_tmp/ours.conf" > "$st_tmp/ours-relay.conf"
	nt_ctl 1 set "$NT_DEV" peer "$WG_PUB2" remove &&
	nt_x 2 wg set "$WG_IF" peer "$WG_PUB1" remove &&
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/ours-relay.conf" &&
	nt_x 2 wg setconf "$WG_IF" "$st_tmp/theirs.conf" || return 1
	nt_ping_first 1 "$NT_IN4_2" > /dev/null || rc=1
	touch "$log.stop"
	wait "$pid"
	grep -v ' 3\.0 ' "$log"
	[ $rc = 0 ] || { echo "no ping through the relay"; return 1; }
	while IFS= read -r l; do
		case "$l" in
		*" c2t 1.1 "*) [ -n "$answered" ] || inits+=("${l##*idx=}") ;;
		*" fwd t2c 1.2 "*) answered=1 ;;
		esac
	done < "$log"
	grep -q ' drop t2c 1.2 ' "$log" || st_fail "no response was dropped" || return 1
	st_eq "our initiations until the first response passed" "${#inits[@]}" 2 &&
	[ "${inits[0]}" != "${inits[1]}" ] ||
		st_fail "the retry reused sender index ${inits[0]}"
}

# wg_roam_theirs: WireGuard moves to another port; we follow it from its
# first authenticated packet.
wg_roam_theirs() {
	local ep
	nt_x 2 wg set "$WG_IF" listen-port 51900 || return 1
	nt_ping 2 "$NT_IN6_1" || return 1
	ep=$(nt_json 1 '.peers[0].endpoint')
	st_eq "our endpoint of WireGuard" "$ep" "[fd99::2]:51900" &&
	nt_ping 1 "$NT_IN6_2"
}

# wg_roam_ours: we move to another port; WireGuard follows.
wg_roam_ours() {
	local ep
	nt_ctl 1 set "$NT_DEV" listen-port 51910 || return 1
	nt_ping 1 "$NT_IN6_2" || return 1
	ep=$(wg_show endpoints | awk '{print $2}')
	st_eq "WireGuard's endpoint of us" "$ep" "[fd99::1]:51910" &&
	nt_ping 2 "$NT_IN6_1"
}
