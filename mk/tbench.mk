# SPDX-License-Identifier: GPL-2.0
# make bench-tunnels: our tunnel beside plain veth, the kernel's WireGuard,
# wireguard-go and Nebula, in one boot of the non-debug UML kernel
# (Documentation/bench-tunnels.rst). Prints the Markdown table and writes
# $(BENCH_OUT)/tunnels.json and $(BENCH_OUT)/tunnels.png. make bench runs it
# as the "tunnels" stage of bench/run, after the engine stage.
#   BENCH_KDIR=<UML build dir>   use that kernel instead of building "bench"
#   TBENCH_ROWS=veth,wg,...      only these rows (bench/tunnels/guest --help)
#   TBENCH_ARGS="..."            guest options: --tcp-seconds N,
#                                --udp-seconds N, --udp-rate 20M, --pings N
BENCH_OUT ?= build/bench
TBENCH_ROWS ?=
TBENCH_ARGS ?=
export TBENCH_ROWS TBENCH_ARGS

# make bench: add the tunnels stage to bench/run's default stages, unless
# BENCH_STAGES was given on the command line or in the environment.
tbench_comma := ,
ifeq ($(origin BENCH_STAGES),file)
ifeq ($(filter tunnels,$(subst $(tbench_comma), ,$(BENCH_STAGES))),)
BENCH_STAGES := $(BENCH_STAGES),tunnels
endif
endif

bench-tunnels:
	bench/tunnels/run -o $(BENCH_OUT) $(if $(BENCH_KDIR),-k $(BENCH_KDIR)) \
		$(if $(TBENCH_ROWS),-r $(TBENCH_ROWS)) -- $(TBENCH_ARGS)

.PHONY: bench-tunnels
