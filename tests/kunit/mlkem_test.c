// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ML-KEM (kmod/noise/mlkem.c) and Keccak (keccak.c).
 *
 *   insmod tests/kunit/noise_mlkem_kunit.ko [accumulated=N]
 *
 * The module compiles both sources itself (#include below) with
 * NOISE_MLKEM_TESTING, which makes the deterministic KeyGen(d || z) and
 * Encaps(m) callable; noise.ko has them static. Vectors: the table that
 * gen_mlkem_vectors.py made at build time from $(NOISE_SHARED)/vectors/mlkem
 * (known-answer files, the accumulated test's hashes) and the Wycheproof
 * ML-KEM JSON files named in NOISE_MLKEM_VECTORS, plus a JSON file it made
 * from the known answers. accumulated=N runs the accumulated test with N
 * runs per parameter set (10000 by default; 1000000 has an expected hash
 * too; 0 skips it).
 */
#define NOISE_MLKEM_TESTING 1
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "keccak.c"
#include "mlkem.c"
#define MLKEM_TEST_YIELD() cond_resched()
#include "mlkem_test_common.h"

static unsigned int accumulated = 10000;
module_param(accumulated, uint, 0444);
MODULE_PARM_DESC(accumulated, "runs of the accumulated test per parameter set (0: skip)");

/* FIPS 202 answers for "abc" and the empty string. */
static void mlkem_test_keccak(struct kunit *test)
{
	static const u8 sha3_256_abc[32] = {
		0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2, 0x04, 0x5c, 0x17,
		0x2d, 0x6b, 0xd3, 0x90, 0xbd, 0x85, 0x5f, 0x08, 0x6e, 0x3e, 0x9d,
		0x52, 0x5b, 0x46, 0xbf, 0xe2, 0x45, 0x11, 0x43, 0x15, 0x32,
	};
	static const u8 sha3_512_abc[8] = {
		0xb7, 0x51, 0x85, 0x0b, 0x1a, 0x57, 0x16, 0x8a,
	};
	static const u8 shake128_empty[16] = {
		0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d,
		0x61, 0x60, 0x45, 0x50, 0x76, 0x05, 0x85, 0x3e,
	};
	static const u8 shake256_empty[8] = {
		0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13,
	};
	struct noise_keccak k;
	u8 out[64], again[64];
	unsigned int i;

	noise_sha3_256(out, (const u8 *)"abc", 3);
	KUNIT_EXPECT_MEMEQ(test, out, sha3_256_abc, 32);
	noise_sha3_512(out, (const u8 *)"abc", 3);
	KUNIT_EXPECT_MEMEQ(test, out, sha3_512_abc, 8);
	noise_shake128_init(&k);
	noise_keccak_squeeze(&k, out, 16);
	KUNIT_EXPECT_MEMEQ(test, out, shake128_empty, 16);
	noise_shake256(out, 8, NULL, 0);
	KUNIT_EXPECT_MEMEQ(test, out, shake256_empty, 8);
	/* Absorbing and squeezing in odd pieces gives the same stream. */
	noise_shake256(out, 64, sha3_256_abc, 32);
	noise_shake256_init(&k);
	for (i = 0; i < 32; i += 5)
		noise_keccak_absorb(&k, sha3_256_abc + i, min(5U, 32 - i));
	for (i = 0; i < 64; i += 7)
		noise_keccak_squeeze(&k, again + i, min(7U, 64 - i));
	KUNIT_EXPECT_MEMEQ(test, out, again, 64);
}

/* One parameter per vector file; a single empty one when there is none. */
static const struct mlkem_vec_file mlkem_no_files = { .name = "none" };

static const void *mlkem_file_gen(const void *prev, char *desc)
{
	const struct mlkem_vec_file *f;

	if (prev == &mlkem_no_files)
		return NULL;
	f = prev ? (const struct mlkem_vec_file *)prev + 1 : mlkem_vec_files;
	if (!f->name)
		f = prev ? NULL : &mlkem_no_files;
	if (f)
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", f->name);
	return f;
}

/* Every vector of one file; the count goes to the log. */
static void mlkem_test_vectors(struct kunit *test)
{
	const struct mlkem_vec_file *f = test->param_value;
	struct mlkem_test_bufs *b;
	unsigned int i, passed = 0;
	const char *why;

	if (f == &mlkem_no_files)
		kunit_skip(test, "no ML-KEM vector files at build time (NOISE_SHARED)");
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = f->first; i < f->first + f->count; i++) {
		why = mlkem_vec_run(&mlkem_vecs[i], b);
		if (!why)
			passed++;
		else if (i - f->first - passed < 20)
			KUNIT_FAIL(test, "%s: %s", mlkem_vecs[i].name, why);
	}
	kunit_info(test, "%s: %u/%u vectors passed, %u ML-KEM-512 vectors skipped\n",
		   f->name, passed, f->count, f->skipped);
	KUNIT_EXPECT_EQ(test, passed, f->count);
	KUNIT_EXPECT_GT(test, f->count, 0U);
}

static const enum noise_mlkem_param mlkem_params_all[] = {
	NOISE_MLKEM768, NOISE_MLKEM1024,
};

static void mlkem_param_desc(const enum noise_mlkem_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "ML-KEM-%d", *p * 256);
}

KUNIT_ARRAY_PARAM(mlkem_param, mlkem_params_all, mlkem_param_desc);

/* The accumulated test with @accumulated runs; timed in the log. */
static void mlkem_test_accumulated(struct kunit *test)
{
	enum noise_mlkem_param p = *(const enum noise_mlkem_param *)test->param_value;
	const struct mlkem_acc_expect *e = NULL;
	struct mlkem_test_bufs *b;
	unsigned int i;
	u64 start;
	u8 hash[32];

	if (!accumulated)
		kunit_skip(test, "accumulated=0");
	for (i = 0; i < mlkem_acc_expect_count; i++)
		if (mlkem_acc_expects[i].param == p &&
		    mlkem_acc_expects[i].count == accumulated)
			e = &mlkem_acc_expects[i];
	if (!e)
		kunit_skip(test, "no expected hash for %u runs (NOISE_SHARED)", accumulated);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	start = ktime_get_ns();
	KUNIT_ASSERT_EQ(test, mlkem_accumulated(p, accumulated, hash, b), 0);
	KUNIT_EXPECT_MEMEQ(test, hash, e->hash, 32);
	kunit_info(test, "ML-KEM-%d: %u runs in %llu ms\n", p * 256, accumulated,
		   div_u64(ktime_get_ns() - start, NSEC_PER_MSEC));
}

static bool mlkem_all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/* Random key pair, Encaps, Decaps; a flipped ciphertext bit. */
static void mlkem_test_roundtrip(struct kunit *test)
{
	enum noise_mlkem_param p = *(const enum noise_mlkem_param *)test->param_value;
	size_t ek_len = noise_mlkem_ek_size(p), dk_len = noise_mlkem_dk_size(p);
	size_t ct_len = noise_mlkem_ct_size(p);
	struct mlkem_test_bufs *b;
	u8 j[NOISE_MLKEM_SS_SIZE];

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_EQ(test, noise_mlkem_keygen(p, b->ek, b->dk, &b->a, &b->w), 0);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(&b->w, sizeof(b->w)));
	KUNIT_ASSERT_EQ(test, noise_mlkem_encaps(p, b->ct, b->ss, b->ek, ek_len, &b->w), 0);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(&b->w, sizeof(b->w)));
	/* Without A^ (sampled again from rho), then with KeyGen's. */
	KUNIT_ASSERT_EQ(test, noise_mlkem_decaps(p, b->ss2, b->ct, ct_len, b->dk, dk_len,
						 NULL, &b->w), 0);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(&b->w, sizeof(b->w)));
	KUNIT_EXPECT_MEMEQ(test, b->ss, b->ss2, NOISE_MLKEM_SS_SIZE);
	memset(b->ss2, 0, sizeof(b->ss2));
	KUNIT_ASSERT_EQ(test, noise_mlkem_decaps(p, b->ss2, b->ct, ct_len, b->dk, dk_len,
						 &b->a, &b->w), 0);
	KUNIT_EXPECT_MEMEQ(test, b->ss, b->ss2, NOISE_MLKEM_SS_SIZE);

	/* Implicit rejection: J(z || ct) for a ciphertext that is not ours. */
	b->ct[ct_len - 1] ^= 0x01;
	KUNIT_ASSERT_EQ(test, noise_mlkem_decaps(p, b->ss2, b->ct, ct_len, b->dk, dk_len,
						 &b->a, &b->w), 0);
	KUNIT_EXPECT_MEMNEQ(test, b->ss, b->ss2, NOISE_MLKEM_SS_SIZE);
	memcpy(b->ek_in, b->dk + dk_len - 32, 32);
	memcpy(b->ek_in + 32, b->ct, ct_len);
	noise_shake256(j, sizeof(j), b->ek_in, 32 + ct_len);
	KUNIT_EXPECT_MEMEQ(test, b->ss2, j, NOISE_MLKEM_SS_SIZE);
}

/* Wrong lengths, parameters and keys are refused with zeroed outputs. */
static void mlkem_test_refusals(struct kunit *test)
{
	enum noise_mlkem_param p = *(const enum noise_mlkem_param *)test->param_value;
	size_t ek_len = noise_mlkem_ek_size(p), dk_len = noise_mlkem_dk_size(p);
	size_t ct_len = noise_mlkem_ct_size(p);
	struct mlkem_test_bufs *b;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, noise_mlkem_keygen(2, b->ek, b->dk, NULL, &b->w), -EINVAL);
	KUNIT_EXPECT_EQ(test, noise_mlkem_ek_size(5), 0);
	KUNIT_ASSERT_EQ(test, noise_mlkem_keygen(p, b->ek, b->dk, NULL, &b->w), 0);
	memset(b->ss, 0xaa, sizeof(b->ss));
	KUNIT_EXPECT_EQ(test, noise_mlkem_encaps(p, b->ct, b->ss, b->ek, ek_len - 1, &b->w),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(b->ss, sizeof(b->ss)));
	/* The first coefficient of t^ set to 4095: the modulus check. */
	b->ek[0] = 0xff;
	b->ek[1] |= 0x0f;
	memset(b->ct, 0xaa, ct_len);
	KUNIT_EXPECT_EQ(test, noise_mlkem_encaps(p, b->ct, b->ss, b->ek, ek_len, &b->w),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(b->ct, ct_len));
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(&b->w, sizeof(b->w)));
	memset(b->ss, 0xaa, sizeof(b->ss));
	KUNIT_EXPECT_EQ(test, noise_mlkem_decaps(p, b->ss, b->ct, ct_len + 1, b->dk, dk_len,
						 NULL, &b->w), -EINVAL);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(b->ss, sizeof(b->ss)));
	KUNIT_EXPECT_EQ(test, noise_mlkem_decaps(p, b->ss, b->ct, ct_len, b->dk, dk_len - 1,
						 NULL, &b->w), -EINVAL);
	/* The hash check: H(ek) in dk no longer matches ek in dk. */
	b->dk[dk_len - 64] ^= 0x80;
	memset(b->ss, 0xaa, sizeof(b->ss));
	KUNIT_EXPECT_EQ(test, noise_mlkem_decaps(p, b->ss, b->ct, ct_len, b->dk, dk_len,
						 NULL, &b->w), -EINVAL);
	KUNIT_EXPECT_TRUE(test, mlkem_all_zero(b->ss, sizeof(b->ss)));
}

static struct kunit_case mlkem_test_cases[] = {
	KUNIT_CASE(mlkem_test_keccak),
	KUNIT_CASE_PARAM(mlkem_test_vectors, mlkem_file_gen),
	KUNIT_CASE_PARAM(mlkem_test_roundtrip, mlkem_param_gen_params),
	KUNIT_CASE_PARAM(mlkem_test_refusals, mlkem_param_gen_params),
	KUNIT_CASE_PARAM(mlkem_test_accumulated, mlkem_param_gen_params),
	{}
};

static struct kunit_suite mlkem_test_suite = {
	.name = "noise_mlkem",
	.test_cases = mlkem_test_cases,
};

kunit_test_suite(mlkem_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the noise module's ML-KEM (FIPS 203) and Keccak");
