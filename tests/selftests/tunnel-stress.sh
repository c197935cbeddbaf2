#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Concurrency: for a bounded time ($NOISE_STRESS_SECS, default 45 s, and
# at least one round of each loop) the configuration of a working tunnel
# changes in a loop (allowed IPs
# replaced, a peer added and removed, the real peer removed and added
# back, side 1's private key changed with side 2's peer replaced to match,
# PSKs changed, the listen port changed, the whole configuration set again
# with setconf) while pings (50/s) run through it both ways (IPv4 and
# IPv6 inside) with an iperf3 TCP stream (4 Mbit/s: the loops must get
# some of the one CPU of the guest), and devices are created,
# configured, brought up and deleted in a third namespace in another loop.
# Every configuration request must succeed; afterwards the tunnel works
# both ways, nothing is left in the third namespace, and the debug kernel
# (lockdep, KASAN, UBSAN, DEBUG_ATOMIC_SLEEP, PREEMPT with DEBUG_PREEMPT)
# said nothing: the kernel log is checked here, and the runner fails on
# any report anyway. Prints how many configuration changes, device
# creations/deletions and packets were done; speed is not asserted.
source "$(dirname "$0")/lib.sh"

st_need ip ping iperf3 jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

PROTO=Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s
SECS=${NOISE_STRESS_SECS:-45}
NS3=nt3

setup() {
	st_netns "$NS3" && ip -n "$NS3" link set lo up || return 1
	nt_dev 1 && nt_dev 2 && nt_up "$PROTO" 4 && nt_ping_first 1 "$NT_IN4_2" &&
	nt_ping 2 "$NT_IN6_1" || return 1
	echo "$NT_PSK" > "$st_tmp/psk" &&
	nt_genkey 25519 > "$st_tmp/priv1b" &&
	PUB1B=$(nt_pubkey < "$st_tmp/priv1b") &&
	"$NOISECTL" genpsk > "$st_tmp/psk2" &&
	nt_genkey 25519 > "$st_tmp/priv3" &&
	DUMMY=$(nt_genkey 25519 | nt_pubkey)
}

# ctl SIDE ARGS...: one configuration change, counted; a refusal is
# counted and its message kept.
ctl() {
	CHANGES=$((CHANGES + 1))
	if ! nt_ctl "$@" >> "$st_tmp/config.err" 2>&1; then
		FAILED=$((FAILED + 1))
		echo "refused: noisectl $*" >> "$st_tmp/config.err"
	fi
}

# config_loop: until the deadline (and one round at least), one kind of
# change after the other on both sides; counts in $st_tmp/config.count.
config_loop() {
	local end=$((SECONDS + SECS)) i=0 aips="$NT_IN4_1/32,$NT_IN6_1/128"
	CHANGES=0 FAILED=0
	while ((SECONDS < end || i < 7)); do
		case $((i % 7)) in
		0)	# allowed IPs of the real peer replaced (one more prefix)
			ctl 2 set "$NT_DEV" peer "$NT_PUB1" allowed-ips "$aips,10.30.$((i % 250)).0/24"
			ctl 1 set "$NT_DEV" peer "$NT_PUB2" allowed-ips "$NT_IN4_2/32,$NT_IN6_2/128,10.31.$((i % 250)).0/24"
			;;
		1)	# another peer added, then removed
			ctl 2 set "$NT_DEV" peer "$DUMMY" endpoint 10.99.0.77:4242 allowed-ips 10.40.0.0/16
			ctl 2 set "$NT_DEV" peer "$DUMMY" remove
			;;
		2)	# the real peer removed and added back (side 1)
			ctl 1 set "$NT_DEV" peer "$NT_PUB2" remove
			ctl 1 set "$NT_DEV" peer "$NT_PUB2" preshared-key "$st_tmp/psk" \
				endpoint "10.99.0.2:$NT_PORT2" allowed-ips "$NT_IN4_2/32,$NT_IN6_2/128"
			;;
		3)	# side 1's private key changed; side 2's peer replaced
			ctl 1 set "$NT_DEV" private-key "$st_tmp/priv1b"
			ctl 2 set "$NT_DEV" peer "$NT_PUB1" remove peer "$PUB1B" preshared-key "$st_tmp/psk" \
				endpoint "10.99.0.1:$NT_PORT1" allowed-ips "$aips"
			;;
		4)	# PSK changed on both sides (side 1's peer has key PUB1B)
			ctl 1 set "$NT_DEV" peer "$NT_PUB2" preshared-key "$st_tmp/psk2"
			ctl 2 set "$NT_DEV" peer "$PUB1B" preshared-key "$st_tmp/psk2"
			;;
		5)	# side 1 listens elsewhere: side 2 follows (roaming)
			ctl 1 set "$NT_DEV" listen-port $((NT_PORT1 + 10))
			;;
		6)	# everything as at the start, with setconf
			ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf"
			ctl 2 setconf "$NT_DEV" "$st_tmp/noise-2.conf"
			;;
		esac
		i=$((i + 1))
	done
	echo "changes=$CHANGES refused=$FAILED rounds=$((i / 7))" > "$st_tmp/config.count"
}

# device_loop: until the deadline (once at least), in nt3: three devices
# created, one configured with a peer, all brought up, a packet sent into
# one, all deleted; counts in $st_tmp/dev.count.
device_loop() {
	local end=$((SECONDS + SECS)) n=0 bad=0
	# ip -batch: one process for each step (processes are dear in the
	# debug guest); -force goes on after an error, and exits 1 then.
	printf 'link add noise%d type noise\n' 1 2 3 > "$st_tmp/dev-add"
	{ printf 'link set noise%d up\n' 1 2 3; echo "addr add 10.50.1.1/24 dev noise1"; } > "$st_tmp/dev-up"
	printf 'link del noise%d\n' 1 2 3 > "$st_tmp/dev-del"
	while ((SECONDS < end || n == 0)); do
		ip -n "$NS3" -force -batch "$st_tmp/dev-add" || bad=$((bad + 1))
		ip netns exec "$NS3" "$NOISECTL" set noise1 private-key "$st_tmp/priv3" \
			listen-port 51900 peer "$NT_PUB2" endpoint 10.99.0.2:51822 \
			allowed-ips 10.50.0.0/24 || bad=$((bad + 1))
		ip -n "$NS3" -force -batch "$st_tmp/dev-up" || bad=$((bad + 1))
		ip netns exec "$NS3" ping -c 1 -W 1 -q 10.50.0.1 > /dev/null 2>&1
		ip -n "$NS3" -force -batch "$st_tmp/dev-del" || bad=$((bad + 1))
		n=$((n + 3))
	done
	echo "devices=$n failed=$bad" > "$st_tmp/dev.count"
}

traffic_start() {
	nt_x 2 iperf3 -s -D -p 5201 -B "$NT_IN4_2" -I "$st_tmp/srv.pid" || return 1
	st_defer "kill \$(cat $st_tmp/srv.pid)"
	sleep 0.5
	nt_bg 1 "$st_tmp/ping-1" ping -q -i 0.02 "$NT_IN4_2"
	PING1=$NT_BG
	nt_bg 2 "$st_tmp/ping-2" ping -q -i 0.02 "$NT_IN6_1"
	PING2=$NT_BG
	nt_bg 1 "$st_tmp/iperf3" iperf3 -c "$NT_IN4_2" -p 5201 -t 3600 -b 4M -f m
	IPERF=$NT_BG
}

pings() {	# FILE: "transmitted received" of a ping summary
	sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) received.*/\1 \2/p' "$1"
}

# stress: everything at once until both loops are done (the traffic is
# stopped then: SIGINT, for the summaries); then the figures and checks.
stress() {
	local rc=0 t r
	rm -f "$st_tmp/config.err"
	traffic_start || return 1
	config_loop &
	CONF=$!
	st_defer "kill $CONF"
	device_loop &
	DEVS=$!
	st_defer "kill $DEVS"
	wait "$CONF" "$DEVS"
	kill -INT "$PING1" "$PING2" "$IPERF"
	wait "$PING1" "$PING2" "$IPERF"
	echo "configuration: $(cat "$st_tmp/config.count")"
	echo "devices in nt3: $(cat "$st_tmp/dev.count") (created and deleted)"
	read -r t r <<< "$(pings "$st_tmp/ping-1")"
	echo "ping side 1 -> 2 (IPv4): transmitted=$t received=$r"
	st_ge "side 1's pings answered" "$r" 1 || rc=1
	read -r t r <<< "$(pings "$st_tmp/ping-2")"
	echo "ping side 2 -> 1 (IPv6): transmitted=$t received=$r"
	st_ge "side 2's pings answered" "$r" 1 || rc=1
	# (stopped by SIGINT: the client's sender line is its summary)
	echo "iperf3 TCP side 1 -> 2: $(grep -E 'sender' "$st_tmp/iperf3" | tr -s ' ')"
	echo "side 1 device: tx_packets=$(nt_dev_stat 1 tx_packets) rx_packets=$(nt_dev_stat 1 rx_packets) handshakes=$(nt_dev_stat 1 handshakes)"
	echo "side 2 device: tx_packets=$(nt_dev_stat 2 tx_packets) rx_packets=$(nt_dev_stat 2 rx_packets) handshakes=$(nt_dev_stat 2 handshakes)"
	grep -q ' refused=0 ' "$st_tmp/config.count" ||
		{ echo "refused configuration requests:"; head -n 20 "$st_tmp/config.err"; rc=1; }
	grep -q ' failed=0$' "$st_tmp/dev.count" || { echo "device operations failed"; rc=1; }
	return $rc
}

# after: the configuration of the start once more; the tunnel works both
# ways (a new handshake), side 2 has its one peer, nt3 no device.
after() {
	nt_ctl 1 setconf "$NT_DEV" "$st_tmp/noise-1.conf" &&
	nt_ctl 2 setconf "$NT_DEV" "$st_tmp/noise-2.conf" || return 1
	nt_ping_first 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN6_1" || return 1
	st_eq "side 2 peers" "$(nt_json 2 '.peers | length')" 1 &&
	st_eq "devices left in nt3" "$(ip -n "$NS3" -o link show type noise | wc -l)" 0
}

# dmesg_clean: no report from the debug kernel in the log.
dmesg_clean() {
	local pat='BUG:|WARNING:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called|scheduling while atomic|using smp_processor_id|Oops|Call Trace'
	if dmesg | grep -E "$pat"; then
		dmesg | tail -n 80
		return 1
	fi
	echo "kernel log: $(dmesg | wc -l) lines, no report"
}

st_plan 6
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_defer "rmmod noise"
st_must "a tunnel ($PROTO) both ways, nt3" setup
st_run_v "${SECS} s: config changes and device create/delete loops under pings and iperf3" stress
st_run "the start's configuration again: the tunnel works both ways" after
st_run_v "the debug kernel reported nothing" dmesg_clean
st_done
