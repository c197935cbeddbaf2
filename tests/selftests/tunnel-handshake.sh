#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lost and duplicated handshake messages, with an IK pattern (two messages)
# and an XX pattern (three). Side 1's peer endpoint is a UDP relay (udp.py
# relay, in side 2's namespace) in front of side 2, which knows no endpoint
# and answers through the relay, so every handshake message passes it. The
# UML test kernel has neither netfilter nor tc (tests/uml/base.config): the
# relay drops, doubles and replays instead. On fresh devices each time:
# - a lost message 1, 2 (and, XX, 3): the relay drops the first one (and
#   any copy within 0.5 s); it is sent again, the session comes up (ping
#   both ways), the initiator completes one handshake
# - message 1 twice in a row: one session on each side (one handshake
#   each), the responder answers the copy again (a second message 2), and
#   the tunnel works
# - message 1 replayed once the session is up: no second session (the
#   handshake count and time unchanged on both sides), the tunnel still
#   works
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/relay-lib.sh"

st_need ip ping jq python3 timeout "$NOISECTL"
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

RELAY=10.99.0.2:51900
RELAY_TARGET=10.99.0.2:$NT_PORT2
UDP="python3 $st_here/udp.py"

# keys PROTO: keys for both sides (kept for the protocol's cases)
keys() {
	local dh
	dh=$(nt_proto_dh "$1")
	NT_PRIV1=$(nt_genkey "$dh") && NT_PUB1=$(echo "$NT_PRIV1" | nt_pubkey) &&
	NT_PRIV2=$(nt_genkey "$dh") && NT_PUB2=$(echo "$NT_PRIV2" | nt_pubkey)
}

# fresh PROTO RULE...: side 1's peer behind the relay (which applies
# RULE...), side 2 without an endpoint for side 1; the devices are made
# once, the peers anew every time (a setconf without peers first: no
# session, no handshake state left).
fresh() {
	local proto=$1 s
	shift
	nt_conf "$st_tmp/noise-1.conf" "$proto" "$NT_PRIV1" "$NT_PORT1" \
		"$NT_PUB2" "$RELAY" "$NT_IN4_2/32, $NT_IN6_2/128"
	nt_conf "$st_tmp/noise-2.conf" "$proto" "$NT_PRIV2" "$NT_PORT2" \
		"$NT_PUB1" "" "$NT_IN4_1/32, $NT_IN6_1/128"
	for s in 1 2; do
		sed '/^\[Peer\]/,$d' "$st_tmp/noise-$s.conf" > "$st_tmp/nopeer-$s.conf" &&
		nt_ctl "$s" setconf "$NT_DEV" "$st_tmp/nopeer-$s.conf" &&
		nt_ctl "$s" setconf "$NT_DEV" "$st_tmp/noise-$s.conf" || return 1
	done
	relay_rules "$@"
}

setup() {
	nt_dev 1 && nt_dev 2 && relay_start
}

# snap SIDE: from one noisectl show --json of that side: SNAP_HS (its
# handshakes with the other side), SNAP_T (the latest one, ns), SNAP_DH (the
# device's drop_handshake) and SNAP_DROPS (its non-zero drop counters).
snap() {
	local pub=$NT_PUB2 out
	[ "$1" = 2 ] && pub=$NT_PUB1
	out=$(nt_json "$1" --arg k "$pub" '(first(.peers[] | select(.public_key == $k)) // {}) as $p |
		"\($p.stats.handshakes // "none") \($p.latest_handshake_ns // "none") \(.stats.drop_handshake)",
		(.stats | to_entries | map(select((.key | startswith("drop_")) and .value > 0)) |
		 map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end)') || return 1
	{ read -r SNAP_HS SNAP_T SNAP_DH; read -r SNAP_DROPS; } <<< "$out"
}

# counters: both sides' handshakes and drops, printed; H1 H2 (handshakes),
# T1 T2 (latest handshake), DH2 (side 2's drop_handshake) set.
counters() {
	snap 1 || return 1
	H1=$SNAP_HS T1=$SNAP_T
	echo "side 1: handshakes $SNAP_HS, drops: $SNAP_DROPS"
	snap 2 || return 1
	H2=$SNAP_HS T2=$SNAP_T DH2=$SNAP_DH
	echo "side 2: handshakes $SNAP_HS, drops: $SNAP_DROPS"
}

# answered_or_counted N2 DROPS: side 2 dealt with a copy of message 1: it
# answered it (more than N2 messages 2 came back) or counted it as a
# dropped handshake (DH2, from counters, more than DROPS).
answered_or_counted() {
	count "t2c 1.2"
	echo "side 2: messages 2 sent $N (before: $1), drop_handshake $DH2 (before: $2)"
	[ "$N" -gt "$1" ] || [ "$DH2" -gt "$2" ] ||
		{ echo "side 2 neither answered nor counted the copy of message 1"; return 1; }
}

both_ways() {
	nt_ping_first 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN6_1"
}

# lost PROTO M DIR: message M (DIR c2t: sent by side 1, t2c: by side 2) is
# lost: the first one and any copy within half a second (a responder may
# send its answer twice at once); it is sent again later and the session
# comes up. Side 1 pings every 0.2 s until an answer comes, so packets
# wait for the session while the lost message is resent: they must not
# start a second handshake (side 1 makes one session).
lost() {
	local proto=$1 m=$2 dir=$3 t0 rc=0
	fresh "$proto" "lose:$m:0.5" || return 1
	nt_x 1 ping -q -c 1 -i 0.2 -w 15 "$NT_IN4_2" > /dev/null || rc=1
	both_ways || rc=1
	show_log
	counters || return 1
	[ $rc = 0 ] || return 1
	count "drop $dir 1.$m"
	t0=$AT
	st_ge "messages $m dropped" "$N" 1 || return 1
	echo "message $m dropped $N times"
	count "fwd $dir 1.$m"
	st_ge "message $m passed on after the loss" "$N" 1 || return 1
	echo "message $m again after $(awk -v a="$t0" -v b="$AT" 'BEGIN { printf "%.2f", b - a }') s"
	st_ge "side 1's latest handshake (ns)" "$T1" 1 &&
	st_ge "side 2's latest handshake (ns)" "$T2" 1 &&
	st_eq "side 1's handshakes" "$H1" 1 &&
	st_ge "side 2's handshakes" "$H2" 1
}

# twice PROTO: message 1 passed on twice. One session each side.
twice() {
	local proto=$1 rc=0 d
	# The device's counters go on from the cases before.
	counters > /dev/null || return 1
	d=$DH2
	fresh "$proto" "dup:1:1" || return 1
	both_ways || rc=1
	# The copy may be answered (a second message 2): a moment for that.
	wait_count "t2c 1.2" 2 3 > /dev/null
	sleep 1
	show_log
	counters || return 1
	[ $rc = 0 ] || return 1
	count "dup c2t 1.1"
	st_eq "message 1 doubled" "$N" 1 &&
	answered_or_counted 1 "$d" &&
	st_ge "side 1's latest handshake (ns)" "$T1" 1 &&
	st_ge "side 2's latest handshake (ns)" "$T2" 1 &&
	st_eq "side 1's handshakes" "$H1" 1 &&
	st_eq "side 2's handshakes" "$H2" 1
}

# replayed: the first message 1 sent again once the session is up: the
# same session on each side afterwards, and it works.
replayed() {
	local t1 t2 n2 d
	counters > /dev/null || return 1
	t1=$T1 t2=$T2 d=$DH2
	count "t2c 1.2"
	n2=$N
	touch "$RLOG.stop.replay"
	wait_count "replay c2t 1.1" 1 20 || return 1
	# The responder may answer it (IK: its final message again; XX: a new
	# message 2 the initiator has no handshake for): a moment for that, and
	# for the initiator to deal with it.
	wait_count "t2c 1.2" $((n2 + 1)) 3 > /dev/null
	sleep 2
	show_log
	counters || return 1
	answered_or_counted "$n2" "$d" &&
	st_eq "side 1's handshakes" "$H1" 1 &&
	st_eq "side 2's handshakes" "$H2" 1 &&
	st_eq "side 1's latest handshake (ns)" "$T1" "$t1" &&
	st_eq "side 2's latest handshake (ns)" "$T2" "$t2" &&
	nt_ping 1 "$NT_IN4_2" && nt_ping 2 "$NT_IN6_1"
}

unload() {
	nt_down
	noise_unload
}

# protocol, its number of messages
PROTOS=(
	"Noise_IK_25519_ChaChaPoly_BLAKE2s 2"
	"Noise_XX_25519_ChaChaPoly_BLAKE2s 3"
)

cases=0
for p in "${PROTOS[@]}"; do
	set -- $p
	cases=$((cases + 1 + $2 + 2))
done
st_plan $((3 + cases + 2))
st_must "namespaces nt1 and nt2 joined by a veth pair" st_netns_pair "$NT_NS1" "$NT_NS2"
st_must "load noise.ko" noise_load
st_must "devices on both sides, the relay (udp.py relay $RELAY -> $RELAY_TARGET)" setup
for p in "${PROTOS[@]}"; do
	set -- $p
	proto=$1 msgs=$2
	st_must "$proto: keys" keys "$proto"
	for ((m = 1; m <= msgs; m++)); do
		dir=c2t
		[ $((m % 2)) = 0 ] && dir=t2c
		st_run_v "$proto: message $m lost once: sent again, the session comes up" \
			lost "$proto" $m $dir
	done
	if st_run_v "$proto: message 1 twice: one session on each side, the tunnel works" twice "$proto"; then
		st_run_v "$proto: message 1 replayed after the session: no second session, the first works" replayed
	else
		st_skip "$proto: message 1 replayed after the session: no second session, the first works" \
			"no session to replay into"
	fi
done
relay_stop
st_run "devices deleted, rmmod noise" unload
st_kmemleak_case "kmemleak scan clean"
st_done
