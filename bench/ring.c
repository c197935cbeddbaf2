// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: message buffers. A batch of decryptions needs that many
 * distinct ciphertexts (each opens once), prepared before the timed loop;
 * encryptions walk the same buffers so both directions touch the same memory.
 * The ring holds about 1 MiB, at least one and at most 4096 messages.
 */

#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include "bench.h"

#define BENCH_RING_BYTES SZ_1M
#define BENCH_RING_MAX 4096U

int bench_ring_alloc(struct bench_ring *r, unsigned int len)
{
	u32 i;

	r->len = len;
	r->n = clamp(BENCH_RING_BYTES / (len + BENCH_TAG_LEN), 1U, BENCH_RING_MAX);
	r->buf = kcalloc(r->n, sizeof(*r->buf), GFP_KERNEL);
	if (!r->buf)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		r->buf[i] = kzalloc(len + BENCH_TAG_LEN, GFP_KERNEL);
		if (!r->buf[i]) {
			bench_ring_free(r);
			return -ENOMEM;
		}
	}
	return 0;
}

void bench_ring_free(struct bench_ring *r)
{
	u32 i;

	for (i = 0; r->buf && i < r->n; i++)
		kfree(r->buf[i]);
	kfree(r->buf);
	r->buf = NULL;
}
