# SPDX-License-Identifier: GPL-2.0
#
# A udp.py relay that runs for a whole selftest, given new rules for each
# case, and its log (sourced after lib.sh). The caller sets RELAY (where it
# listens), RELAY_TARGET (where it passes messages on), UDP (how udp.py is
# run) and NT_NS2 (the namespace it runs in).
#   relay_start, relay_stop   start it (and wait until it listens), end it
#   relay_rules RULE...       its rules from now on, its counting anew
#   log_lines, count WHAT, wait_count WHAT MIN SECONDS, show_log
#                             its log since the latest rules

# The relay runs for the whole program (python starts slowly in the debug
# kernel); each case gives it new rules (udp.py relay: $UDP_STOP.rules).
# Polling its log uses builtins only: a process per poll costs much here.
RLOG=$st_tmp/relay.log
RELAY_PID=""
RELAY_SETS=0

relay_start() {
	rm -f "$RLOG" "$RLOG.stop"*
	# ip netns exec execs python: $! is the relay itself.
	UDP_STOP=$RLOG.stop ip netns exec "$NT_NS2" $UDP relay "$RELAY" "$RELAY_TARGET" \
		> "$RLOG" 2>&1 &
	RELAY_PID=$!
	st_defer "kill $RELAY_PID"
	st_wait_ready "$RLOG"
}

relay_stop() {
	local i
	[ -n "$RELAY_PID" ] || return 0
	touch "$RLOG.stop"
	for ((i = 0; i < 50; i++)); do
		kill -0 "$RELAY_PID" 2> /dev/null || break
		st_nap 0.2
	done
	kill "$RELAY_PID" 2> /dev/null
	wait "$RELAY_PID"
	RELAY_PID=""
}

# log_lines: LOG, the relay's lines since its latest rules
log_lines() {
	local all i
	mapfile -t all < "$RLOG"
	LOG=()
	for ((i = ${#all[@]} - 1; i >= 0; i--)); do
		[[ "${all[i]}" == "# rules "* ]] && break
	done
	LOG=("${all[@]:i+1}")
}

# count WHAT: N, how many of those lines say WHAT ("drop c2t 1.1", ...);
# AT, the time of the first one
count() {
	local l
	log_lines
	N=0 AT=""
	for l in "${LOG[@]}"; do
		if [[ "$l" == *" $1 "* ]]; then
			N=$((N + 1))
			[ -n "$AT" ] || AT=${l%% *}
		fi
	done
}

# wait_count WHAT MIN SECONDS: until count WHAT reaches MIN
wait_count() {
	local i
	for ((i = 0; i < $3 * 5; i++)); do
		count "$1"
		[ "$N" -ge "$2" ] && return 0
		st_nap 0.2
	done
	echo "relay: $N '$1', not $2, after $3 s"
	return 1
}

# relay_rules RULE...: from now on (and counting anew). Done once the
# relay has printed "# rules N" (N: this set's number), not once the rules
# file is gone: the relay may be scheduled out in between.
relay_rules() {
	local i l
	echo "$*" > "$RLOG.stop.rules.new" && mv "$RLOG.stop.rules.new" "$RLOG.stop.rules" ||
		return 1
	RELAY_SETS=$((RELAY_SETS + 1))
	for ((i = 0; i < 150; i++)); do
		while IFS= read -r l; do
			[ "$l" = "# rules $RELAY_SETS" ] && return 0
		done < "$RLOG"
		st_nap 0.2
	done
	if [ -e "$RLOG.stop.rules" ]; then
		echo "the relay did not take the rules ($RELAY_SETS) in 30 s"
	else
		echo "the relay took the rules ($RELAY_SETS) but did not say so in 30 s"
	fi
	return 1
}

show_log() {
	local l t=0
	log_lines
	echo "relay log (seconds, action, direction, type.msgno, bytes):"
	for l in "${LOG[@]}"; do
		if [[ "$l" == *" 3.0 "* ]]; then
			t=$((t + 1))
		else
			echo "$l"
		fi
	done
	echo "transport messages through the relay: $t"
}
