// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: timing loop and statistics.
 *
 * Each sample times a batch of operations with ktime_get_ns() and records the
 * time per operation. The batch is one operation for anything slower than the
 * minimum sample time (handshakes, scalar multiplications) and grows for fast
 * operations so that the clock's own cost stays negligible. The mean, median,
 * standard deviation, minimum and maximum are taken over the samples; the
 * median is the headline figure because it ignores the odd sample that an
 * interrupt or a host-side stall (UML) stretched.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include "bench.h"

#define BENCH_MAX_BATCH 4096
#define BENCH_CALIBRATE_RUNS 5

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void bench_summarise(u64 *t, u32 n, struct bench_stats *st)
{
	u64 sum = 0, var = 0;
	u32 i;

	sort(t, n, sizeof(*t), cmp_u64, NULL);
	for (i = 0; i < n; i++)
		sum += t[i];
	st->mean = div_u64(sum, n);
	for (i = 0; i < n; i++) {
		u64 d = t[i] > st->mean ? t[i] - st->mean : st->mean - t[i];

		d = min_t(u64, d, U32_MAX);
		var += div_u64(d * d, n);
	}
	st->stddev = int_sqrt64(var);
	st->median = n & 1 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	st->min = t[0];
	st->max = t[n - 1];
	st->samples = n;
}

/* Time one batch; returns the total in ns, or 0 with *@err set. */
static u64 bench_batch(const struct bench_op *op, u32 batch, int *err)
{
	u64 start;
	u32 i;

	*err = op->prepare ? op->prepare(op->ctx, batch) : 0;
	if (*err)
		return 0;
	start = ktime_get_ns();
	for (i = 0; i < batch; i++) {
		*err = op->fn(op->ctx);
		if (*err)
			return 0;
	}
	return ktime_get_ns() - start;
}

/*
 * One warm-up run (caches, lazy allocations), then the batch is sized from
 * the fastest of a few single runs, so that one stalled run does not shrink
 * it.
 */
static int bench_calibrate(const struct bench_op *op, u64 min_sample_ns, u32 *batch)
{
	u64 one = U64_MAX, ns;
	u32 limit, i;
	int err;

	bench_batch(op, 1, &err);
	for (i = 0; i < BENCH_CALIBRATE_RUNS && !err; i++) {
		ns = bench_batch(op, 1, &err);
		one = min(one, max_t(u64, ns, 1));
	}
	if (err)
		return err;
	limit = op->max_batch ? min_t(u32, op->max_batch, BENCH_MAX_BATCH) : BENCH_MAX_BATCH;
	*batch = clamp_t(u64, div64_u64(min_sample_ns, one), 1, limit);
	return 0;
}

/* One sample of @op: time per operation of one batch, in ns. */
static int bench_sample(const struct bench_op *op, u32 batch, u64 *t)
{
	u64 ns;
	int err;

	ns = bench_batch(op, batch, &err);
	*t = div_u64(ns + batch / 2, batch);
	return err;
}

int bench_measure_pair(const struct bench_op *a, const struct bench_op *b,
		       u32 samples, u64 min_sample_ns, struct bench_stats *sa,
		       struct bench_stats *sb)
{
	u32 batch_a, batch_b = 0, i;
	u64 *ta, *tb = NULL;
	int err = -ENOMEM;

	samples = max_t(u32, samples, 1);
	ta = kvmalloc_array(samples, sizeof(*ta), GFP_KERNEL);
	if (b)
		tb = kvmalloc_array(samples, sizeof(*tb), GFP_KERNEL);
	if (!ta || (b && !tb))
		goto out;
	err = bench_calibrate(a, min_sample_ns, &batch_a);
	if (!err && b)
		err = bench_calibrate(b, min_sample_ns, &batch_b);
	for (i = 0; i < samples && !err; i++) {
		err = bench_sample(a, batch_a, &ta[i]);
		if (!err && b)
			err = bench_sample(b, batch_b, &tb[i]);
		cond_resched();
	}
	if (err)
		goto out;
	sa->batch = batch_a;
	bench_summarise(ta, samples, sa);
	if (b) {
		sb->batch = batch_b;
		bench_summarise(tb, samples, sb);
	}
out:
	kvfree(tb);
	kvfree(ta);
	return err;
}

int bench_measure(const struct bench_op *op, u32 samples, u64 min_sample_ns,
		  struct bench_stats *st)
{
	return bench_measure_pair(op, NULL, samples, min_sample_ns, st, NULL);
}

int bench_measure_fn(bench_fn fn, void *ctx, u32 samples, struct bench_stats *st)
{
	struct bench_op op = { .fn = fn, .ctx = ctx };

	return bench_measure(&op, samples, bench_min_sample_us * 1000ULL, st);
}

void bench_report(const char *kind, const char *keys, const struct bench_stats *st)
{
	pr_info("noise_bench: %s %s n=%u samples=%u batch=%u mean=%llu median=%llu std=%llu min=%llu max=%llu\n",
		kind, keys, st->samples * st->batch, st->samples, st->batch,
		st->mean, st->median, st->stddev, st->min, st->max);
}

void bench_note(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("noise_bench: %pV\n", &vaf);
	va_end(args);
}
