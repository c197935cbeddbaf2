// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for noise_x448() (kmod/noise/x448.c): RFC 7748 vectors,
 * low-order and non-canonical inputs, key generation round trip.
 *
 *   insmod kmod/noise/noise.ko; insmod tests/kunit/noise_x448_kunit.ko [slow=1]
 *
 * slow=1 also runs the 1,000,000-iteration vector of RFC 7748 section 5.2
 * (ten chunks; minutes on a plain kernel, far longer under KASAN).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "x448.h"
#include "../ct/x448_rfc7748.h"

static bool slow;
module_param(slow, bool, 0444);
MODULE_PARM_DESC(slow, "also run the 1,000,000-iteration RFC 7748 vector");

static void x448_vector_desc(const struct x448_rfc7748_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x448_vector, x448_rfc7748_vectors, x448_vector_desc);

/* RFC 7748 sections 5.2 (single vectors) and 6.2 (Alice, Bob, shared). */
static void x448_test_rfc7748_vector(struct kunit *test)
{
	const struct x448_rfc7748_vector *v = test->param_value;
	u8 out[X448_KEY_SIZE];

	KUNIT_ASSERT_TRUE(test, noise_x448(out, v->scalar, v->u));
	KUNIT_EXPECT_MEMEQ(test, out, v->out, X448_KEY_SIZE);
}

/* k, u = X448(k, u), k, @n times from k = u = 5; the result is k. */
static bool x448_iterate(u8 k[X448_KEY_SIZE], unsigned long n)
{
	u8 u[X448_KEY_SIZE] = { 5 }, r[X448_KEY_SIZE];
	unsigned long i;
	bool ok = true;

	memset(k, 0, X448_KEY_SIZE);
	k[0] = 5;
	for (i = 0; i < n; i++) {
		ok &= noise_x448(r, k, u);
		memcpy(u, k, X448_KEY_SIZE);
		memcpy(k, r, X448_KEY_SIZE);
		if (i % 256 == 255)
			cond_resched();
	}
	return ok;
}

static void x448_test_iterate_1(struct kunit *test)
{
	u8 k[X448_KEY_SIZE];

	KUNIT_ASSERT_TRUE(test, x448_iterate(k, 1));
	KUNIT_EXPECT_MEMEQ(test, k, x448_rfc7748_iter_1, X448_KEY_SIZE);
}

static void x448_test_iterate_1000(struct kunit *test)
{
	u8 k[X448_KEY_SIZE];

	KUNIT_ASSERT_TRUE(test, x448_iterate(k, 1000));
	KUNIT_EXPECT_MEMEQ(test, k, x448_rfc7748_iter_1000, X448_KEY_SIZE);
}

/*
 * The 1,000,000-iteration vector, opt-in (slow=1), run as ten chunks of
 * 100,000 iterations: KUnit gives each case (and each parameter) at most
 * 300 seconds, and a chunk fits that even on the KASAN kernel. The chunks
 * run in order and carry the state along; a chunk whose predecessor did
 * not finish fails.
 */
#define X448_ITER_CHUNK 100000UL

static struct {
	u8 k[X448_KEY_SIZE], u[X448_KEY_SIZE];
	unsigned long done;
} x448_iter_state;

static const unsigned long x448_iter_chunks[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
};

static void x448_iter_desc(const unsigned long *chunk, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "iterations %lu-%lu",
		 (*chunk - 1) * X448_ITER_CHUNK + 1, *chunk * X448_ITER_CHUNK);
}

KUNIT_ARRAY_PARAM(x448_iter, x448_iter_chunks, x448_iter_desc);

static void x448_test_iterate_1000000(struct kunit *test)
{
	const unsigned long *chunk = test->param_value;
	u8 r[X448_KEY_SIZE];
	unsigned long i;
	bool ok = true;

	if (!slow)
		kunit_skip(test, "slow; load with slow=1 to run it");
	if (*chunk == 1) {
		memset(&x448_iter_state, 0, sizeof(x448_iter_state));
		x448_iter_state.k[0] = 5;
		x448_iter_state.u[0] = 5;
	}
	KUNIT_ASSERT_EQ_MSG(test, x448_iter_state.done,
			    (*chunk - 1) * X448_ITER_CHUNK,
			    "the previous chunk did not finish");
	for (i = 0; i < X448_ITER_CHUNK; i++) {
		ok &= noise_x448(r, x448_iter_state.k, x448_iter_state.u);
		memcpy(x448_iter_state.u, x448_iter_state.k, X448_KEY_SIZE);
		memcpy(x448_iter_state.k, r, X448_KEY_SIZE);
		if (i % 256 == 255)
			cond_resched();
	}
	KUNIT_ASSERT_TRUE(test, ok);
	x448_iter_state.done += X448_ITER_CHUNK;
	if (*chunk == ARRAY_SIZE(x448_iter_chunks))
		KUNIT_EXPECT_MEMEQ(test, x448_iter_state.k,
				   x448_rfc7748_iter_1000000, X448_KEY_SIZE);
}

/*
 * A u-coordinate as p + @add (a little-endian 448-bit integer; @add small),
 * or 2^448 - 1 if @all_ones. p = 2^448 - 2^224 - 1: every byte 0xff but
 * byte 28 (bits 224..231), which is 0xfe.
 */
static void x448_make_u(u8 u[X448_KEY_SIZE], int add, bool all_ones)
{
	int i, carry = add;

	memset(u, 0xff, X448_KEY_SIZE);
	if (all_ones)
		return;
	u[28] = 0xfe;
	for (i = 0; i < X448_KEY_SIZE && carry; i++) {
		carry += u[i];
		u[i] = (u8)carry;
		carry >>= 8;
	}
}

enum x448_u_kind { X448_U_SMALL, X448_U_P_PLUS, X448_U_ALL_ONES };

struct x448_u_case {
	const char *name;
	enum x448_u_kind kind;	/* u = v, u = p + v, or u = 2^448 - 1 */
	int v;
	int reduced_small;	/* u mod p when small, else -1 */
	int reduced_bit;	/* u mod p = 2^reduced_bit otherwise */
};

/* Inputs of order 1, 2 or 4 (u = 0, 1, -1) and their non-canonical forms. */
static const struct x448_u_case x448_low_order[] = {
	{ .name = "u = 0", .kind = X448_U_SMALL, .v = 0 },
	{ .name = "u = 1", .kind = X448_U_SMALL, .v = 1 },
	{ .name = "u = p - 1", .kind = X448_U_P_PLUS, .v = -1 },
	{ .name = "u = p", .kind = X448_U_P_PLUS, .v = 0 },
	{ .name = "u = p + 1", .kind = X448_U_P_PLUS, .v = 1 },
};

/* Non-canonical u >= p: must act as u mod p. */
static const struct x448_u_case x448_noncanonical[] = {
	{ .name = "u = p + 2", .kind = X448_U_P_PLUS, .v = 2, .reduced_small = 2 },
	{ .name = "u = p + 5", .kind = X448_U_P_PLUS, .v = 5, .reduced_small = 5 },
	{ .name = "u = p + 255", .kind = X448_U_P_PLUS, .v = 255,
	  .reduced_small = 255 },
	{ .name = "u = 2^448 - 1", .kind = X448_U_ALL_ONES, .reduced_small = -1,
	  .reduced_bit = 224 },
};

static void x448_u_desc(const struct x448_u_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x448_low_order, x448_low_order, x448_u_desc);
KUNIT_ARRAY_PARAM(x448_noncanonical, x448_noncanonical, x448_u_desc);

static void x448_case_u(const struct x448_u_case *c, u8 u[X448_KEY_SIZE])
{
	if (c->kind == X448_U_SMALL) {
		memset(u, 0, X448_KEY_SIZE);
		u[0] = c->v;
		return;
	}
	x448_make_u(u, c->v, c->kind == X448_U_ALL_ONES);
}

/* Low-order points give an all-zero result: rejected, output zeroed. */
static void x448_test_low_order(struct kunit *test)
{
	const struct x448_u_case *c = test->param_value;
	const u8 *k = x448_rfc7748_vectors[0].scalar;
	u8 u[X448_KEY_SIZE], out[X448_KEY_SIZE], zero[X448_KEY_SIZE] = { 0 };

	x448_case_u(c, u);
	memset(out, 0xaa, sizeof(out));
	KUNIT_EXPECT_FALSE(test, noise_x448(out, k, u));
	KUNIT_EXPECT_MEMEQ(test, out, zero, X448_KEY_SIZE);
}

/* RFC 7748 section 5: non-canonical values are reduced modulo p. */
static void x448_test_noncanonical(struct kunit *test)
{
	const struct x448_u_case *c = test->param_value;
	const u8 *k = x448_rfc7748_vectors[1].scalar;
	u8 u[X448_KEY_SIZE], r[X448_KEY_SIZE];
	u8 out[X448_KEY_SIZE], want[X448_KEY_SIZE];

	x448_case_u(c, u);
	memset(r, 0, sizeof(r));
	if (c->reduced_small >= 0)
		r[0] = c->reduced_small;
	else
		r[c->reduced_bit / 8] = 1 << (c->reduced_bit % 8);

	KUNIT_ASSERT_TRUE(test, noise_x448(want, k, r));
	KUNIT_ASSERT_TRUE(test, noise_x448(out, k, u));
	KUNIT_EXPECT_MEMEQ(test, out, want, X448_KEY_SIZE);
}

/*
 * X448 takes all 448 bits of u (X25519 masks bit 255, X448 masks nothing):
 * RFC vector 2 has bit 447 set and must still match, and flipping that
 * bit in vector 1 must change the result (u and u +- 2^447 are different
 * field elements, both below p).
 */
static void x448_test_top_bit_kept(struct kunit *test)
{
	const struct x448_rfc7748_vector *v1 = &x448_rfc7748_vectors[0];
	const struct x448_rfc7748_vector *v2 = &x448_rfc7748_vectors[1];
	u8 u[X448_KEY_SIZE], out[X448_KEY_SIZE];

	KUNIT_ASSERT_TRUE(test, v2->u[X448_KEY_SIZE - 1] & 0x80);
	KUNIT_ASSERT_TRUE(test, noise_x448(out, v2->scalar, v2->u));
	KUNIT_EXPECT_MEMEQ(test, out, v2->out, X448_KEY_SIZE);

	memcpy(u, v1->u, sizeof(u));
	u[X448_KEY_SIZE - 1] ^= 0x80;
	KUNIT_ASSERT_TRUE(test, noise_x448(out, v1->scalar, u));
	KUNIT_EXPECT_MEMNEQ(test, out, v1->out, X448_KEY_SIZE);
}

/* generate_public is X448(k, 5): RFC 7748 section 6.2 public keys. */
static void x448_test_generate_public(struct kunit *test)
{
	u8 pub[X448_KEY_SIZE];
	int i;

	for (i = 2; i < 4; i++) {	/* Alice's and Bob's public keys */
		const struct x448_rfc7748_vector *v = &x448_rfc7748_vectors[i];

		KUNIT_ASSERT_TRUE(test, noise_x448_generate_public(pub, v->scalar));
		KUNIT_EXPECT_MEMEQ(test, pub, v->out, X448_KEY_SIZE);
	}
}

/* @out may be the same buffer as @scalar or @point. */
static void x448_test_aliasing(struct kunit *test)
{
	const struct x448_rfc7748_vector *v = &x448_rfc7748_vectors[0];
	u8 buf[X448_KEY_SIZE];

	memcpy(buf, v->scalar, sizeof(buf));
	KUNIT_ASSERT_TRUE(test, noise_x448(buf, buf, v->u));
	KUNIT_EXPECT_MEMEQ(test, buf, v->out, X448_KEY_SIZE);

	memcpy(buf, v->u, sizeof(buf));
	KUNIT_ASSERT_TRUE(test, noise_x448(buf, v->scalar, buf));
	KUNIT_EXPECT_MEMEQ(test, buf, v->out, X448_KEY_SIZE);
}

/* Two fresh key pairs agree on the shared secret. */
static void x448_test_round_trip(struct kunit *test)
{
	u8 a[X448_KEY_SIZE], b[X448_KEY_SIZE], ap[X448_KEY_SIZE], bp[X448_KEY_SIZE];
	u8 s1[X448_KEY_SIZE], s2[X448_KEY_SIZE];

	noise_x448_generate_secret(a);
	noise_x448_generate_secret(b);
	KUNIT_EXPECT_MEMNEQ(test, a, b, X448_KEY_SIZE);
	KUNIT_EXPECT_EQ(test, a[0] & 3, 0);
	KUNIT_EXPECT_TRUE(test, a[X448_KEY_SIZE - 1] & 0x80);
	KUNIT_ASSERT_TRUE(test, noise_x448_generate_public(ap, a));
	KUNIT_ASSERT_TRUE(test, noise_x448_generate_public(bp, b));
	KUNIT_ASSERT_TRUE(test, noise_x448(s1, a, bp));
	KUNIT_ASSERT_TRUE(test, noise_x448(s2, b, ap));
	KUNIT_EXPECT_MEMEQ(test, s1, s2, X448_KEY_SIZE);
	KUNIT_EXPECT_MEMNEQ(test, s1, ap, X448_KEY_SIZE);
	memzero_explicit(a, sizeof(a));
	memzero_explicit(b, sizeof(b));
	memzero_explicit(s1, sizeof(s1));
	memzero_explicit(s2, sizeof(s2));
}

static struct kunit_case x448_test_cases[] = {
	KUNIT_CASE_PARAM(x448_test_rfc7748_vector, x448_vector_gen_params),
	KUNIT_CASE(x448_test_iterate_1),
	KUNIT_CASE_SLOW(x448_test_iterate_1000),
	KUNIT_CASE_PARAM_ATTR(x448_test_iterate_1000000, x448_iter_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM(x448_test_low_order, x448_low_order_gen_params),
	KUNIT_CASE_PARAM(x448_test_noncanonical, x448_noncanonical_gen_params),
	KUNIT_CASE(x448_test_top_bit_kept),
	KUNIT_CASE(x448_test_generate_public),
	KUNIT_CASE(x448_test_aliasing),
	KUNIT_CASE(x448_test_round_trip),
	{}
};

static struct kunit_suite x448_test_suite = {
	.name = "noise_x448",
	.test_cases = x448_test_cases,
};

kunit_test_suite(x448_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the noise module's X448 (RFC 7748)");
