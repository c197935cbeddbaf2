/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise_bench: shared declarations of the in-kernel benchmark.
 */
#ifndef _NOISE_BENCH_H
#define _NOISE_BENCH_H

#include <linux/types.h>

/* One measured figure: per-operation times in nanoseconds. */
struct bench_stats {
	u64 mean;
	u64 median;
	u64 stddev;
	u64 min;
	u64 max;
	u32 samples;	/* timed samples */
	u32 batch;	/* operations per sample */
};

/* An operation under test: returns 0 or a negative errno. */
typedef int (*bench_fn)(void *ctx);

/**
 * struct bench_op - what bench_measure() times.
 * @fn: one operation.
 * @prepare: optional, untimed, before every batch: readies @batch operations
 *	(e.g. encrypts the messages a decryption batch will open).
 * @max_batch: the most operations @prepare can ready (0: no limit).
 * @ctx: passed to both.
 */
struct bench_op {
	bench_fn fn;
	int (*prepare)(void *ctx, u32 batch);
	u32 max_batch;
	void *ctx;
};

/*
 * bench_measure() - time @op: @samples samples of a batch of operations each,
 * the batch sized so that one sample lasts at least @min_sample_ns (1 for
 * operations slower than that). Stops at the first error and returns it.
 */
int bench_measure(const struct bench_op *op, u32 samples, u64 min_sample_ns,
		  struct bench_stats *st);

/*
 * bench_measure_pair() - time @a and @b in alternating samples, so that a
 * slow spell of the machine hits both alike: for a figure and its bound.
 * @b may be NULL (then this is bench_measure()).
 */
int bench_measure_pair(const struct bench_op *a, const struct bench_op *b,
		       u32 samples, u64 min_sample_ns, struct bench_stats *sa,
		       struct bench_stats *sb);

/* bench_measure() of a plain function, no preparation. */
int bench_measure_fn(bench_fn fn, void *ctx, u32 samples, struct bench_stats *st);

/* Print one result line: "noise_bench: <kind> <keys> n=... mean=..." */
void bench_report(const char *kind, const char *keys, const struct bench_stats *st);

/* Print a line that carries no timing (driver names, unavailable rows). */
__printf(1, 2) void bench_note(const char *fmt, ...);

/**
 * struct bench_ring - message buffers for the transport and AEAD groups.
 * @buf: @n linearly mapped buffers of @len + 16 (tag) bytes each.
 * @n: buffers; a batch never exceeds it.
 * @len: plaintext length.
 */
struct bench_ring {
	u8 **buf;
	u32 n;
	unsigned int len;
};

#define BENCH_TAG_LEN 16

int bench_ring_alloc(struct bench_ring *r, unsigned int len);
void bench_ring_free(struct bench_ring *r);

/*
 * The AEAD driver the engine uses for a cipher (0 ChaChaPoly, 1 AESGCM), or
 * NULL when there is no engine: the raw AEAD group then uses the algorithm
 * name and the crypto API's choice.
 */
const char *bench_engine_aead_driver(unsigned int cipher);

/*
 * A raw AEAD transform for a cipher (0 ChaChaPoly, 1 AESGCM), allocated by
 * the engine's driver name; bench_raw_size() readies its ring for one
 * payload size and gives the encrypt and decrypt operations.
 */
struct bench_raw_aead;
struct bench_raw_aead *bench_raw_new(unsigned int cipher);
void bench_raw_free(struct bench_raw_aead *c);
int bench_raw_size(struct bench_raw_aead *c, unsigned int len,
		   struct bench_op *enc, struct bench_op *dec);
void bench_raw_setkey_op(struct bench_raw_aead *c, struct bench_op *op);

/* Module parameters shared by the groups. */
extern unsigned int bench_hs_iters;
extern unsigned int bench_dh_iters;
extern unsigned int bench_tr_iters;
extern unsigned int bench_min_sample_us;
extern unsigned int bench_aead_size;
extern bool bench_hs_parts;
extern bool bench_static_pub;
extern char *bench_hs_match;

/* The groups; each prints its own lines and returns 0 or a negative errno. */
int bench_prim_run(void);
int bench_kem_run(void);
int bench_aead_raw_run(void);
int bench_handshake_run(void);
int bench_transport_run(void);

/* Whether noise_x448() works (false with the refusing placeholder). */
bool bench_x448_available(void);

/*
 * bench_dh_ref_op() - one bare scalar multiplication on @curve (0 25519,
 * 1 448) as an operation, to time beside a handshake. -EOPNOTSUPP without
 * X448. bench_dh_ref_wipe() clears its key.
 */
int bench_dh_ref_op(unsigned int curve, struct bench_op *op);
void bench_dh_ref_wipe(void);

/*
 * bench_measure_beside_dh() - time @op in samples alternating with the bare
 * scalar multiplication on @curve (@op alone when that curve is missing),
 * then print "<kind> <keys>" and "dh_ref <keys>". On an error of @op it
 * prints nothing and returns the error.
 */
int bench_measure_beside_dh(const struct bench_op *op, unsigned int curve,
			    u32 samples, const char *kind, const char *keys);

/* Noise's largest plaintext: 65535 minus the 16-byte tag. */
#define BENCH_MAX_PLAINTEXT 65519

/* The transport payload sizes measured (bytes). */
extern const unsigned int bench_sizes[];
extern const unsigned int bench_nsizes;

#endif /* _NOISE_BENCH_H */
