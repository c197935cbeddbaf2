// SPDX-License-Identifier: GPL-2.0
/*
 * X448 (RFC 7748, section 5) on Curve448, written from the RFC text.
 *
 * The field is GF(p), p = 2^448 - 2^224 - 1. An element is held in
 * X448_LIMBS unsigned limbs of X448_RADIX bits each (8 x 56 bits with 64-bit
 * limbs and 128-bit products, 16 x 28 bits on 32-bit builds); since
 * 2^448 = 2^224 + 1 (mod p), a product's high half folds back onto limbs
 * 0 and X448_LIMBS / 2 with two additions and no multiplication.
 *
 * Limbs are kept "loosely reduced": every field operation returns limbs of
 * at most 2^X448_RADIX + 1, not necessarily the canonical value below p;
 * only fe_tobytes() produces the canonical encoding.
 *
 * Constant time: no branch and no memory index depends on the scalar, the
 * point or any intermediate value. Loops run a fixed number of times, the
 * ladder swaps with a mask, the final reduction and the all-zero check
 * select with masks. tests/ct/ checks this under valgrind (see
 * Documentation/x448.rst).
 */
#include <linux/export.h>
#include <linux/random.h>
#include <linux/string.h>
#include "x448.h"

#if defined(CONFIG_64BIT) && defined(__SIZEOF_INT128__) && !defined(NOISE_X448_LIMB32)
typedef u64 x448_limb;
typedef u128 x448_wide;
#define X448_RADIX 56
#else
typedef u32 x448_limb;
typedef u64 x448_wide;
#define X448_RADIX 28
#endif

#define X448_BITS 448
#define X448_LIMBS (X448_BITS / X448_RADIX)
/* Index of the limb that holds 2^224. */
#define X448_HALF (X448_LIMBS / 2)
#define X448_MASK (((x448_limb)1 << X448_RADIX) - 1)
/* (A - 2) / 4 for Curve448, A = 156326 (RFC 7748, section 5). */
#define X448_A24 39081

struct x448_fe {
	x448_limb l[X448_LIMBS];
};

/* Everything the ladder touches, so that a single wipe clears it. */
struct x448_state {
	u8 k[X448_KEY_SIZE];
	struct x448_fe x1, x2, z2, x3, z3;
	struct x448_fe a, aa, b, bb, e, c, d, da, cb;
	struct x448_fe inv[3];
};

/* Propagate carries in place; limbs below 2^(X448_RADIX + 3) on entry. */
static void fe_carry(struct x448_fe *r)
{
	x448_limb top;
	int i;

	for (i = 0; i < X448_LIMBS - 1; i++) {
		r->l[i + 1] += r->l[i] >> X448_RADIX;
		r->l[i] &= X448_MASK;
	}
	top = r->l[X448_LIMBS - 1] >> X448_RADIX;
	r->l[X448_LIMBS - 1] &= X448_MASK;
	/* top * 2^448 = top * (2^224 + 1) */
	r->l[0] += top;
	r->l[X448_HALF] += top;
}

/* Reduce X448_LIMBS wide column sums into @r (loosely reduced). */
static void fe_reduce_wide(struct x448_fe *r, x448_wide *c)
{
	x448_wide top;
	x448_limb top2;
	int i;

	for (i = 0; i < X448_LIMBS - 1; i++) {
		c[i + 1] += c[i] >> X448_RADIX;
		c[i] &= X448_MASK;
	}
	top = c[X448_LIMBS - 1] >> X448_RADIX;
	c[X448_LIMBS - 1] &= X448_MASK;
	c[0] += top;
	c[X448_HALF] += top;

	for (i = 0; i < X448_LIMBS - 1; i++) {
		c[i + 1] += c[i] >> X448_RADIX;
		r->l[i] = (x448_limb)c[i] & X448_MASK;
	}
	r->l[X448_LIMBS - 1] = (x448_limb)c[X448_LIMBS - 1] & X448_MASK;
	top2 = (x448_limb)(c[X448_LIMBS - 1] >> X448_RADIX);
	r->l[0] += top2;
	r->l[X448_HALF] += top2;
}

/*
 * Fold columns X448_LIMBS..2*X448_LIMBS-2 of a product down, top first:
 * 2^(R*k) = 2^(R*(k - HALF)) + 2^(R*(k - LIMBS)) (mod p) for k >= LIMBS,
 * and k - HALF may itself be >= LIMBS, so it must still be folded later.
 */
static void fe_fold(x448_wide *c)
{
	int k;

	for (k = 2 * X448_LIMBS - 2; k >= X448_LIMBS; k--) {
		c[k - X448_HALF] += c[k];
		c[k - X448_LIMBS] += c[k];
	}
}

static void fe_mul(struct x448_fe *r, const struct x448_fe *a,
		   const struct x448_fe *b)
{
	x448_wide c[2 * X448_LIMBS - 1] = { 0 };
	int i, j;

	for (i = 0; i < X448_LIMBS; i++)
		for (j = 0; j < X448_LIMBS; j++)
			c[i + j] += (x448_wide)a->l[i] * b->l[j];
	fe_fold(c);
	fe_reduce_wide(r, c);
}

static void fe_sqr(struct x448_fe *r, const struct x448_fe *a)
{
	x448_wide c[2 * X448_LIMBS - 1] = { 0 };
	x448_limb twice;
	int i, j;

	for (i = 0; i < X448_LIMBS; i++) {
		c[2 * i] += (x448_wide)a->l[i] * a->l[i];
		twice = 2 * a->l[i];
		for (j = i + 1; j < X448_LIMBS; j++)
			c[i + j] += (x448_wide)twice * a->l[j];
	}
	fe_fold(c);
	fe_reduce_wide(r, c);
}

/* @r = @a squared @n times (n >= 1). */
static void fe_sqr_n(struct x448_fe *r, const struct x448_fe *a, int n)
{
	fe_sqr(r, a);
	while (--n > 0)
		fe_sqr(r, r);
}

static void fe_mul_a24(struct x448_fe *r, const struct x448_fe *a)
{
	x448_wide c[X448_LIMBS];
	int i;

	for (i = 0; i < X448_LIMBS; i++)
		c[i] = (x448_wide)a->l[i] * X448_A24;
	fe_reduce_wide(r, c);
}

static void fe_add(struct x448_fe *r, const struct x448_fe *a,
		   const struct x448_fe *b)
{
	int i;

	for (i = 0; i < X448_LIMBS; i++)
		r->l[i] = a->l[i] + b->l[i];
	fe_carry(r);
}

/* @r = @a - @b + 4p, so that no limb goes negative. */
static void fe_sub(struct x448_fe *r, const struct x448_fe *a,
		   const struct x448_fe *b)
{
	x448_limb p4;
	int i;

	for (i = 0; i < X448_LIMBS; i++) {
		/* limbs of p: all 2^R - 1 except 2^R - 2 at X448_HALF */
		p4 = 4 * (X448_MASK - (i == X448_HALF));
		r->l[i] = a->l[i] + p4 - b->l[i];
	}
	fe_carry(r);
}

static void fe_set_small(struct x448_fe *r, x448_limb v)
{
	memset(r, 0, sizeof(*r));
	r->l[0] = v;
}

/* Swap @a and @b when @bit is 1, leave them when 0, without branching. */
static void fe_cswap(struct x448_fe *a, struct x448_fe *b, x448_limb bit)
{
	x448_limb mask = 0 - bit, t;
	int i;

	for (i = 0; i < X448_LIMBS; i++) {
		t = mask & (a->l[i] ^ b->l[i]);
		a->l[i] ^= t;
		b->l[i] ^= t;
	}
}

/* Little-endian 56 bytes, all 448 bits used (no masking for X448). */
static void fe_frombytes(struct x448_fe *r, const u8 s[X448_KEY_SIZE])
{
	u64 acc = 0;
	int i, bits = 0, j = 0;

	for (i = 0; i < X448_KEY_SIZE; i++) {
		acc |= (u64)s[i] << bits;
		bits += 8;
		if (bits >= X448_RADIX) {
			r->l[j++] = (x448_limb)acc & X448_MASK;
			acc >>= X448_RADIX;
			bits -= X448_RADIX;
		}
	}
}

/*
 * Canonical little-endian encoding. Two carry passes leave every limb
 * below 2^R and the value below 2^448 < 2p; then p is subtracted once
 * if the value is >= p, found by adding 2^448 - p = 2^224 + 1 and
 * looking at bit 448.
 */
static void fe_tobytes(u8 s[X448_KEY_SIZE], const struct x448_fe *a)
{
	struct x448_fe v = *a, t;
	x448_limb over, mask;
	u64 acc = 0;
	int i, bits = 0, j = 0;

	fe_carry(&v);
	fe_carry(&v);

	t = v;
	t.l[0] += 1;
	t.l[X448_HALF] += 1;
	for (i = 0; i < X448_LIMBS - 1; i++) {
		t.l[i + 1] += t.l[i] >> X448_RADIX;
		t.l[i] &= X448_MASK;
	}
	over = t.l[X448_LIMBS - 1] >> X448_RADIX;
	t.l[X448_LIMBS - 1] &= X448_MASK;
	mask = 0 - over;
	for (i = 0; i < X448_LIMBS; i++)
		v.l[i] = (t.l[i] & mask) | (v.l[i] & ~mask);

	for (i = 0; i < X448_KEY_SIZE; i++) {
		if (bits < 8) {
			acc |= (u64)v.l[j++] << bits;
			bits += X448_RADIX;
		}
		s[i] = (u8)acc;
		acc >>= 8;
		bits -= 8;
	}
	memzero_explicit(&v, sizeof(v));
	memzero_explicit(&t, sizeof(t));
}

/*
 * @r = @z^(p - 2) = 1 / @z (0 for @z = 0). p - 2 in binary is 223 ones,
 * a zero, 222 ones, a zero, a one. With a_n = z^(2^n - 1), built by
 * a_(m+n) = a_m^(2^n) * a_n: 453 squarings and 13 multiplications.
 */
static void fe_invert(struct x448_fe *r, const struct x448_fe *z,
		      struct x448_fe tmp[3])
{
	struct x448_fe *t = &tmp[0], *a6 = &tmp[1], *a24 = &tmp[2];

	fe_sqr(t, z);
	fe_mul(t, t, z);		/* a2 */
	fe_sqr(t, t);
	fe_mul(t, t, z);		/* a3 */
	fe_sqr_n(a6, t, 3);
	fe_mul(a6, a6, t);		/* a6 */
	fe_sqr_n(t, a6, 6);
	fe_mul(t, t, a6);		/* a12 */
	fe_sqr_n(a24, t, 12);
	fe_mul(a24, a24, t);		/* a24 */
	fe_sqr_n(t, a24, 6);
	fe_mul(a6, t, a6);		/* a30 (a6 no longer needed) */
	fe_sqr_n(t, a24, 24);
	fe_mul(t, t, a24);		/* a48 */
	fe_sqr_n(a24, t, 48);
	fe_mul(t, a24, t);		/* a96 */
	fe_sqr_n(a24, t, 96);
	fe_mul(t, a24, t);		/* a192 */
	fe_sqr_n(t, t, 30);
	fe_mul(t, t, a6);		/* a222 */
	fe_sqr(a24, t);
	fe_mul(a24, a24, z);		/* a223 */
	fe_sqr_n(a24, a24, 223);
	fe_mul(a24, a24, t);		/* a223 * 2^223 + a222 */
	fe_sqr_n(a24, a24, 2);
	fe_mul(r, a24, z);		/* ... * 4 + 1 = p - 2 */
}

/* One ladder step (RFC 7748, section 5), after the conditional swap. */
static void x448_ladder_step(struct x448_state *s)
{
	fe_add(&s->a, &s->x2, &s->z2);		/* A = x_2 + z_2 */
	fe_sqr(&s->aa, &s->a);			/* AA = A^2 */
	fe_sub(&s->b, &s->x2, &s->z2);		/* B = x_2 - z_2 */
	fe_sqr(&s->bb, &s->b);			/* BB = B^2 */
	fe_sub(&s->e, &s->aa, &s->bb);		/* E = AA - BB */
	fe_add(&s->c, &s->x3, &s->z3);		/* C = x_3 + z_3 */
	fe_sub(&s->d, &s->x3, &s->z3);		/* D = x_3 - z_3 */
	fe_mul(&s->da, &s->d, &s->a);		/* DA = D * A */
	fe_mul(&s->cb, &s->c, &s->b);		/* CB = C * B */
	fe_add(&s->x3, &s->da, &s->cb);
	fe_sqr(&s->x3, &s->x3);			/* x_3 = (DA + CB)^2 */
	fe_sub(&s->z3, &s->da, &s->cb);
	fe_sqr(&s->z3, &s->z3);
	fe_mul(&s->z3, &s->z3, &s->x1);		/* z_3 = x_1 * (DA - CB)^2 */
	fe_mul(&s->x2, &s->aa, &s->bb);		/* x_2 = AA * BB */
	fe_mul_a24(&s->z2, &s->e);
	fe_add(&s->z2, &s->z2, &s->aa);
	fe_mul(&s->z2, &s->z2, &s->e);		/* z_2 = E * (AA + a24 * E) */
}

static void x448_scalarmult(u8 out[X448_KEY_SIZE],
			    const u8 scalar[X448_KEY_SIZE],
			    const u8 point[X448_KEY_SIZE])
{
	struct x448_state s;
	x448_limb swap = 0, bit;
	int t;

	/* decodeScalar448: clear the two low bits, set the top bit */
	memcpy(s.k, scalar, X448_KEY_SIZE);
	s.k[0] &= 252;
	s.k[X448_KEY_SIZE - 1] |= 128;

	fe_frombytes(&s.x1, point);
	fe_set_small(&s.x2, 1);
	fe_set_small(&s.z2, 0);
	s.x3 = s.x1;
	fe_set_small(&s.z3, 1);

	for (t = X448_BITS - 1; t >= 0; t--) {
		bit = (s.k[t / 8] >> (t % 8)) & 1;
		swap ^= bit;
		fe_cswap(&s.x2, &s.x3, swap);
		fe_cswap(&s.z2, &s.z3, swap);
		swap = bit;
		x448_ladder_step(&s);
	}
	fe_cswap(&s.x2, &s.x3, swap);
	fe_cswap(&s.z2, &s.z3, swap);

	fe_invert(&s.z2, &s.z2, s.inv);
	fe_mul(&s.x2, &s.x2, &s.z2);
	fe_tobytes(out, &s.x2);

	memzero_explicit(&s, sizeof(s));
}

/*
 * Whether @out is not all zero (a low-order input point gives zero, which
 * then is what @out holds), computed without a data-dependent branch.
 */
static bool x448_check_nonzero(u8 out[X448_KEY_SIZE])
{
	u32 acc = 0, nonzero;
	int i;

	for (i = 0; i < X448_KEY_SIZE; i++)
		acc |= out[i];
	nonzero = (acc + 0xff) >> 8;	/* 1 iff acc != 0, no branch */
	return nonzero;
}

bool noise_x448(u8 out[X448_KEY_SIZE], const u8 scalar[X448_KEY_SIZE],
		const u8 point[X448_KEY_SIZE])
{
	x448_scalarmult(out, scalar, point);
	return x448_check_nonzero(out);
}
EXPORT_SYMBOL_GPL(noise_x448);

bool noise_x448_generate_public(u8 pub[X448_KEY_SIZE],
				const u8 secret[X448_KEY_SIZE])
{
	static const u8 basepoint[X448_KEY_SIZE] = { 5 };

	return noise_x448(pub, secret, basepoint);
}
EXPORT_SYMBOL_GPL(noise_x448_generate_public);

void noise_x448_generate_secret(u8 secret[X448_KEY_SIZE])
{
	get_random_bytes(secret, X448_KEY_SIZE);
	secret[0] &= 252;
	secret[X448_KEY_SIZE - 1] |= 128;
}
EXPORT_SYMBOL_GPL(noise_x448_generate_secret);
