# SPDX-License-Identifier: GPL-2.0
# make bench: the benchmark on the non-debug UML kernel (built once, cached),
# with real iteration counts; prints the Markdown table and writes
# $(BENCH_OUT)/bench.json and $(BENCH_OUT)/throughput.png.
#   BENCH_KDIR=<UML build dir>  use that kernel instead of building "bench"
#   BENCH_PARAMS="..."          noise_bench.ko parameters (see bench/main.c)
#   BENCH_STAGES=engine,tunnels,scale stages of bench/run, comma-separated
BENCH_OUT ?= build/bench
BENCH_PARAMS ?= hs_iters=500 dh_iters=1000 tr_iters=1000
BENCH_STAGES ?= engine

bench: deps-bench
	bench/run -o $(BENCH_OUT) -s $(BENCH_STAGES) $(if $(BENCH_KDIR),-k $(BENCH_KDIR)) \
		-- $(BENCH_PARAMS)

.PHONY: bench
