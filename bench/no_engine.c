// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: built when the engine API (kmod/noise/noise.h) is absent; the
 * engine groups then report that they could not run.
 */

#include <linux/errno.h>
#include "bench.h"

int bench_handshake_run(void)
{
	bench_note("unavailable group=hs reason=no_engine");
	return -EOPNOTSUPP;
}

int bench_kem_run(void)
{
	bench_note("unavailable group=kem reason=no_engine");
	return -EOPNOTSUPP;
}

int bench_transport_run(void)
{
	bench_note("unavailable group=transport reason=no_engine");
	return -EOPNOTSUPP;
}

const char *bench_engine_aead_driver(unsigned int cipher)
{
	return NULL;
}
