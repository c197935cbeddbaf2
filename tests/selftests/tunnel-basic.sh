#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A noise tunnel between two namespaces over a veth pair, with the default
# protocol (Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s), configured with
# noisectl setconf: ping and iperf3 TCP and UDP through it, IPv4 and IPv6
# inside, over IPv4 and then IPv6 outside (TCP once more with UDP GSO on,
# udp_gso=1: messages coalesced, nothing dropped); the handshake on the first
# packet, the counters on both sides, `noisectl monitor` seeing the peers
# and the handshake; the per-stage timings (stage_timing=1) counting in
# every stage; then the devices, and the module with a device up,
# removed while traffic runs through them; kmemleak clean.
source "$(dirname "$0")/lib.sh"

st_need ip ping iperf3 jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s

monitor_start() {
	nt_bg 1 "$st_tmp/monitor.out" "$NOISECTL" monitor "$NT_DEV"
	MONITOR=$NT_BG
	sleep 1
	kill -0 "$MONITOR" || { cat "$st_tmp/monitor.out"; return 1; }
}

# monitor_saw EVENT PUB: a line "noise0<TAB>EVENT<TAB>PUB..." arrived
# (while noisectl monitor still runs: lines must not wait in a buffer).
monitor_saw() {
	local i
	for ((i = 0; i < 10; i++)); do
		grep -qF "$NT_DEV"$'\t'"$1"$'\t'"$2" "$st_tmp/monitor.out" && return 0
		sleep 0.5
	done
	echo "no '$1' event for $2; noisectl monitor printed:"
	cat "$st_tmp/monitor.out"
	return 1
}

check_protocol() {
	local proto key port peers
	read -r proto key peers < <(nt_json 1 '"\(.protocol) \(.public_key) \(.peers | length)"')
	read -r port < <(nt_json 2 .listen_port)
	st_eq "side 1 protocol" "$proto" "$PROTO" &&
	st_eq "side 2 protocol" "$(nt_json 2 .protocol)" "$PROTO" &&
	st_eq "side 1 public key" "$key" "$NT_PUB1" &&
	st_eq "side 2 listen port" "$port" "$NT_PORT2" &&
	st_eq "side 1 peers" "$peers" 1
}

# One look per side: the device counters that traffic must have moved,
# the drop counters that must be 0 (checked on side 2, the receiver), and
# the peer's rx_packets.
CHECK_UP="tx_packets rx_packets tx_bytes rx_bytes handshakes"
CHECK_ZERO="drop_auth drop_replay drop_source drop_bad_type drop_bad_length drop_handshake"

check_counters() {
	local s k v i pub f
	# shellcheck disable=SC2086
	printf -v f '\\(.stats.%s) ' $CHECK_UP $CHECK_ZERO
	f+='\(.peers[] | select(.public_key == $k) | .stats.rx_packets)'
	for s in 1 2; do
		pub=$NT_PUB1
		[ $s = 1 ] && pub=$NT_PUB2
		read -r -a v < <(nt_json $s --arg k "$pub" "\"$f\"")
		i=0
		for k in $CHECK_UP; do
			st_ge "side $s device $k" "${v[i++]}" 1 || return 1
		done
		for k in $CHECK_ZERO; do
			[ $s = 1 ] || st_eq "side 2 device $k" "${v[i]}" 0 || return 1
			i=$((i + 1))
		done
		st_ge "side $s peer rx_packets" "${v[i]}" 6 || return 1
	done
	# Idle now: what one side sent, the other received, byte for byte.
	bytes_agree
}

# bytes_agree: what each side sent (on the wire, keepalives included) the
# other received, byte for byte, once no keepalive is in flight between
# the readings (each takes a while in the guest): at most 20 looks.
bytes_agree() {
	local i a b t1 r1 t2 r2 last=""
	for ((i = 0; i < 20; i++)); do
		read -r t1 r1 < <(peer_bytes 1 "$NT_PUB2")
		read -r t2 r2 < <(peer_bytes 2 "$NT_PUB1")
		a="$t1 $t2" b="$r2 $r1"
		# Equal, and the same at two looks in a row.
		[ "$a" = "$b" ] && [ "$a" = "$last" ] && return 0
		last=$a
		[ "$a" = "$b" ] || st_nap 0.5
	done
	st_eq "side 1, side 2 tx_bytes vs side 2, side 1 rx_bytes" "$a" "$b"
}

peer_bytes() {	# SIDE PUB: the peer's tx_bytes and rx_bytes, one look
	nt_json "$1" --arg k "$2" '.peers[] | select(.public_key == $k) | "\(.stats.tx_bytes) \(.stats.rx_bytes)"'
}

# gso_traffic: with udp_gso=1 (module parameter, off by default) iperf3
# TCP both ways, IPv6 outside: side 1's equal-size messages leave in UDP
# GSO skbs (fewer skbs on its veth than messages its device sent: the
# coalescing happened), side 2 gets each one as its own datagram through
# every check: no data-path drop counter moves on either side (each
# side's drop counters before and after are printed), and the byte counts
# are equal both ways once idle.
GSO_P=/sys/module/noise/parameters/udp_gso
# drops_sum SIDE: the sum of the device's data-path drop counters (not
# drop_handshake, drop_mac1...: a rekey's retransmitted message crossing
# the first packets of its session is dropped as a duplicate, and
# drop_no_peer: see no_peer_gap); drops_by_reason SIDE: every non-zero
# drop counter, to print when the sum moved.
drops_sum() {
	nt_json "$1" '[.stats | to_entries[] | select(.key | test("^drop_(auth|replay|source|inner|bad_length|bad_type|unknown_index|no_key)$")) | .value] | add'
}
drops_by_reason() {
	nt_json "$1" -c '.stats | with_entries(select((.key | startswith("drop_")) and .value > 0))'
}
# no_peer_gap SIDE: the device's no_peer drops less the ICMPv6 messages its
# own IPv6 stack sent through it (router solicitations to ff02::2, retried
# with a backoff for as long as the device is up; MLD reports): none has a
# peer, so each is one no_peer drop, and the gap stays as it is unless
# something else found no peer. Two looks that agree (an RS between the two
# reads of one look would tear it).
no_peer_gap() {
	local i g last=""
	for ((i = 0; i < 5; i++)); do
		g=$(($(nt_dev_stat "$1" drop_no_peer) -
			$(nt_x "$1" awk '$1 == "Icmp6OutMsgs" { print $2 }' "/proc/net/dev_snmp6/$NT_DEV")))
		[ "$g" = "$last" ] && break
		last=$g
	done
	echo "$g"
}
gso_traffic() {
	local rc=0 m0 v0 m v d1 d2 d1b d2b g1 g2
	d1=$(drops_sum 1) d2=$(drops_sum 2)
	g1=$(no_peer_gap 1) g2=$(no_peer_gap 2)
	d1b=$(drops_by_reason 1) d2b=$(drops_by_reason 2)
	echo 1 > "$GSO_P" || return 1
	m0=$(nt_dev_stat 1 tx_packets) v0=$(nt_x 1 cat /sys/class/net/veth0/statistics/tx_packets)
	nt_iperf3 1 "$NT_IN4_2" 1 || rc=1
	m=$(($(nt_dev_stat 1 tx_packets) - m0))
	v=$(($(nt_x 1 cat /sys/class/net/veth0/statistics/tx_packets) - v0))
	nt_iperf3 2 "$NT_IN4_1" 1 || rc=1
	echo 0 > "$GSO_P"
	echo "side 1 during its TCP run: $m messages in $v skbs on its veth"
	echo "side 1 drops before: $d1b; after: $(drops_by_reason 1)"
	echo "side 2 drops before: $d2b; after: $(drops_by_reason 2)"
	# Without GSO each message is one skb (10); how many more share one
	# depends on how fast the sender runs, which a loaded host slows.
	[ $rc = 0 ] && st_ge "messages per veth skb x10" "$((m * 10 / (v ? v : 1)))" 12 &&
	st_eq "side 1 drops meanwhile" "$(($(drops_sum 1) - d1))" 0 &&
	st_eq "side 2 drops meanwhile" "$(($(drops_sum 2) - d2))" 0 &&
	st_eq "side 1 no_peer drops meanwhile not its own ICMPv6" "$(($(no_peer_gap 1) - g1))" 0 &&
	st_eq "side 2 no_peer drops meanwhile not its own ICMPv6" "$(($(no_peer_gap 2) - g2))" 0 &&
	bytes_agree
}

# stage_timing: with noise.ko's stage_timing=1, three pings (three
# messages each way, both sides in this kernel) count in every stage of
# both data paths (debugfs noise/stages: "name calls messages ns"; the
# handshake's stages are the bench's: no handshake runs here); zeroed by
# a write; off, three more pings count nowhere.
STAGE_P=/sys/module/noise/parameters/stage_timing
STAGES=/sys/kernel/debug/noise/stages
stage_timing() {
	local name calls msgs ns rc=0
	echo 0 > "$STAGES" && echo 1 > "$STAGE_P" || return 1
	nt_ping 1 "$NT_IN4_2" > /dev/null || rc=1
	echo 0 > "$STAGE_P"
	[ $rc = 0 ] || return 1
	cat "$STAGES"
	while read -r name calls msgs ns; do
		case $name in
		tx_* | rx_*)	# the handshake's (hs_*) stay as they are
			st_ge "$name messages" "$msgs" 6 && st_ge "$name ns" "$ns" 1 || rc=1
		esac
	done < "$STAGES"
	echo 0 > "$STAGES"
	nt_ping 1 "$NT_IN4_2" > /dev/null || return 1
	while read -r name calls msgs ns; do
		st_eq "$name with stage_timing=0" "$calls $msgs $ns" "0 0 0" || rc=1
	done < "$STAGES"
	return $rc
}

check_endpoint() {	# side 2 knows side 1 at $1
	st_eq "side 2's endpoint of side 1" \
		"$(nt_json 2 '.peers[0].endpoint')" "$1"
}

# traffic_start: iperf3 TCP and UDP from side 1 to side 2, 30 s, background
traffic_start() {
	local p
	for p in 5201 5202; do
		nt_x 2 iperf3 -s -D -p $p -B "$NT_IN4_2" -I "$st_tmp/srv$p.pid" || return 1
		st_defer "kill \$(cat $st_tmp/srv$p.pid)"
	done
	sleep 0.5
	nt_bg 1 "$st_tmp/tcp.out" iperf3 -c "$NT_IN4_2" -p 5201 -t 30
	TCP=$NT_BG
	nt_bg 1 "$st_tmp/udp.out" iperf3 -c "$NT_IN4_2" -p 5202 -u -b 20M -t 30
	UDP=$NT_BG
	sleep 3
	# Both flows are moving.
	local a b
	a=$(nt_dev_stat 2 rx_bytes)
	sleep 1
	b=$(nt_dev_stat 2 rx_bytes)
	[ "$b" -gt "$a" ] || { echo "rx_bytes on side 2 did not grow ($a -> $b)"; cat "$st_tmp"/*.out; return 1; }
}

traffic_stop() {
	kill "$TCP" "$UDP" 2> /dev/null
	wait "$TCP" "$UDP" 2> /dev/null
	for p in 5201 5202; do
		kill "$(cat "$st_tmp/srv$p.pid" 2> /dev/null)" 2> /dev/null
	done
	true
}

del_with_traffic() {
	traffic_start || return 1
	timeout 20 ip -n "$NT_NS1" link del "$NT_DEV" &&
	timeout 20 ip -n "$NT_NS2" link del "$NT_DEV" || return 1
	traffic_stop
	! ip -n "$NT_NS1" link show "$NT_DEV" 2> /dev/null &&
	! ip -n "$NT_NS2" link show "$NT_DEV" 2> /dev/null
}

rmmod_with_traffic() {
	traffic_start || return 1
	timeout 30 rmmod noise || return 1
	traffic_stop
	! grep -q '^noise ' /proc/modules || { echo "noise still loaded"; return 1; }
	! ip -n "$NT_NS1" link show "$NT_DEV" 2> /dev/null ||
		{ echo "noise0 survived rmmod"; return 1; }
}

# IPv6 outside; side 2 is not told where side 1 is: it learns it.
# (An Endpoint line left out of a later setconf leaves the endpoint as it
# is, as in wg: the peer is new here, with new keys.)
up6() {
	NT_NO_EP2=1 nt_up "$PROTO" 6 && check_endpoint null
}

nt_devs() {
	nt_dev 1 && nt_dev 2
}

new_tunnel() {
	nt_devs && nt_up "$PROTO" 4 && nt_ping_first 1 "$NT_IN4_2"
}

st_plan 29
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_run_v "iperf3 TCP over the bare veth (baseline)" nt_iperf3 1 10.99.0.2 1
st_must "load noise.ko" noise_load
st_must "ip link add noise0 type noise in both namespaces" nt_devs
st_run "noisectl monitor runs in nt1" monitor_start
st_must "noisectl setconf on both sides ($PROTO, IPv4 outside)" nt_up "$PROTO" 4
st_run "noisectl show: protocol, public key, port, peer" check_protocol
st_run "ping through the tunnel: the first packet starts the handshake" nt_ping_first 1 "$NT_IN4_2"
st_run "both sides have a session (latest handshake set)" nt_have_session
st_run "ping6 inside, IPv4 outside" nt_ping 2 "$NT_IN6_1"
st_run "noisectl monitor saw peer-added" monitor_saw peer-added "$NT_PUB2"
st_run "noisectl monitor saw the handshake" monitor_saw handshake "$NT_PUB2"
st_run "counters on both sides agree and count no drop" check_counters
st_run_v "stage_timing=1: every stage of both paths counts the pings, =0: none" stage_timing
st_run_v "iperf3 TCP, IPv4 inside and outside" nt_iperf3 1 "$NT_IN4_2" 1
st_run_v "iperf3 UDP, IPv4 inside and outside" nt_iperf3 2 "$NT_IN4_1" 0.5 -u -b 2M
st_run_v "iperf3 TCP, IPv6 inside, IPv4 outside" nt_iperf3 2 "$NT_IN6_1" 1
st_run_v "iperf3 UDP, IPv6 inside, IPv4 outside" nt_iperf3 1 "$NT_IN6_2" 0.5 -u -b 2M
st_must "noisectl setconf with IPv6 endpoints, side 2 without side 1's" up6
st_run "ping over IPv6 outside (a new handshake)" nt_ping_first 1 "$NT_IN4_2"
st_run "ping6 inside, IPv6 outside" nt_ping 1 "$NT_IN6_2"
st_run "side 2 learned side 1's IPv6 endpoint from the handshake" check_endpoint "[fd99::1]:$NT_PORT1"
st_run_v "iperf3 TCP, IPv4 inside, IPv6 outside" nt_iperf3 1 "$NT_IN4_2" 1
st_run_v "iperf3 UDP, IPv6 inside and outside" nt_iperf3 2 "$NT_IN6_1" 0.5 -u -b 2M
st_run_v "udp_gso=1: iperf3 TCP both ways, messages coalesced, no drop, bytes equal" gso_traffic
st_run "both devices deleted with TCP and UDP traffic running" del_with_traffic
st_must "a new tunnel: devices, setconf, ping" new_tunnel
st_run "rmmod noise with devices up and traffic running" rmmod_with_traffic
st_kmemleak_case "kmemleak scan clean after the tunnel and the module are gone"
st_done
