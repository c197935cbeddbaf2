/* SPDX-License-Identifier: GPL-2.0 */
/* The suites of noise_fuzz_kunit.ko (fuzz_rx.c, fuzz_nl.c, dp_test.c). */
#ifndef _NOISE_FUZZ_TEST_H
#define _NOISE_FUZZ_TEST_H

#include <kunit/test.h>
#include <linux/prandom.h>

extern struct kunit_suite fz_nl_suite;
extern struct kunit_suite dp_suite;

/* The run's seed (module parameter seed=, else random; printed). */
u64 fz_seed(void);

/* A generator of its own for each case: seed and a case number. */
static inline void fz_rng_init(struct rnd_state *r, u64 salt)
{
	prandom_seed_state(r, fz_seed() ^ (salt * 0x9e3779b97f4a7c15ULL));
}

static inline u32 fz_below(struct rnd_state *r, u32 n)
{
	return n ? prandom_u32_state(r) % n : 0;
}

static inline u64 fz_u64(struct rnd_state *r)
{
	return ((u64)prandom_u32_state(r) << 32) | prandom_u32_state(r);
}

#endif /* _NOISE_FUZZ_TEST_H */
