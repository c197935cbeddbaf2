# SPDX-License-Identifier: GPL-2.0
# make bench-tunnels: our tunnel beside plain veth, the kernel's WireGuard,
# wireguard-go and Nebula, in one boot of the non-debug UML kernel
# (Documentation/bench-tunnels.rst). Prints the Markdown table and writes
# $(BENCH_OUT)/tunnels.json and $(BENCH_OUT)/tunnels.png; with the veth row,
# also the one-CPU bound per cipher and each row's TCP share of it. make
# bench runs it as the "tunnels" stage of bench/run, after the engine stage.
#   BENCH_KDIR=<UML build dir>   use that kernel instead of building "bench"
#   TBENCH_ROWS=veth,wg,...      only these rows (bench/tunnels/guest --help)
#   TBENCH_ARGS="..."            guest options: --tcp-seconds N,
#                                --udp-seconds N, --udp-rate 20M, --pings N,
#                                --stages (where the time goes, per stage)
#   TBENCH_PROFILE=1             the host's perf record of the boot: per
#                                handshake (hsrate) and per MB (TCP rows),
#                                by function, ours beside WireGuard
#                                (bench/tunnels/profile)
#
# make bench-scale: one device of N peers, our tunnel (WireGuard profile
# and an XX suite) beside the kernel's WireGuard, in one boot: setconf,
# set, syncconf, dump and kernel memory per peer; one device of 1,000,000
# allowed IPs; a responder's handshake rate at N peers (Documentation/
# bench-tunnels.rst, "Scale"). The guest gets 2 GiB (NOISE_UML_MEM).
# Writes $(BENCH_OUT)/scale.{log,md,json,png};
# make bench runs it as the "scale" stage of bench/run, after "tunnels".
#   SCALE_N="1 1000 10000 100000"  the peer counts (the default)
#   TBENCH_ARGS="..."            guest options here too: --scale-parts hs,
#                                --scale-hs-rounds N, ...
#   TBENCH_PROFILE=1             the host's perf record of the boot: each
#                                responder's CPU per handshake at each N,
#                                the host's speed taken out
BENCH_OUT ?= build/bench
TBENCH_ROWS ?=
TBENCH_ARGS ?=
TBENCH_PROFILE ?=
SCALE_N ?=
export TBENCH_ROWS TBENCH_ARGS SCALE_N

# make bench: add the tunnels and scale stages to bench/run's default stages, unless
# BENCH_STAGES was given on the command line or in the environment.
tbench_comma := ,
ifeq ($(origin BENCH_STAGES),file)
ifeq ($(filter tunnels,$(subst $(tbench_comma), ,$(BENCH_STAGES))),)
BENCH_STAGES := $(BENCH_STAGES),tunnels
endif
ifeq ($(filter scale,$(subst $(tbench_comma), ,$(BENCH_STAGES))),)
BENCH_STAGES := $(BENCH_STAGES),scale
endif
endif

bench-tunnels: $(if $(TBENCH_PROFILE),deps-profile,deps-bench)
	bench/tunnels/run -o $(BENCH_OUT) $(if $(BENCH_KDIR),-k $(BENCH_KDIR)) \
		$(if $(TBENCH_ROWS),-r $(TBENCH_ROWS)) $(if $(TBENCH_PROFILE),-p) \
		-- $(TBENCH_ARGS)

bench-scale: $(if $(TBENCH_PROFILE),deps-profile,deps-bench)
	NOISE_TBENCH_TIMEOUT=$${NOISE_SCALE_TIMEOUT:-5400} \
	NOISE_UML_MEM=$${NOISE_UML_MEM:-2048M} \
	bench/tunnels/run -o $(BENCH_OUT) $(if $(BENCH_KDIR),-k $(BENCH_KDIR)) \
		-r scale -n scale $(if $(TBENCH_PROFILE),-p) \
		-- $(if $(SCALE_N),--scale-n "$(SCALE_N)") $(TBENCH_ARGS)

.PHONY: bench-tunnels bench-scale
