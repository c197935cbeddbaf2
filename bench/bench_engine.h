/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise_bench: helpers of the groups that drive the engine.
 */
#ifndef _NOISE_BENCH_ENGINE_H
#define _NOISE_BENCH_ENGINE_H

#include <linux/types.h>

/* Scalar multiplications of one handshake, both sides together. */
struct bench_dh_count {
	unsigned int keygens;	/* e tokens: ephemeral key pairs made */
	unsigned int dh;	/* ee, es, se, ss tokens, times two sides */
};

int bench_count_dh(const char *name, struct bench_dh_count *count);

#endif /* _NOISE_BENCH_ENGINE_H */
