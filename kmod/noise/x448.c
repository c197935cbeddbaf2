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
 * Limbs are kept "loosely reduced": every field operation returns limbs a
 * little above 2^X448_RADIX at most (2^R + 8 into any multiplication; the
 * bounds are noted where they matter), not necessarily the canonical value
 * below p; only fe_tobytes() produces the canonical encoding.
 *
 * NOISE_X448_LIMB32 forces the 32-bit form on a 64-bit build; only the
 * userspace checks in tests/ct/ set it, to test that form too.
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
#define X448_LIMB64 1
typedef u64 x448_limb;
/* Not the kernel's u128: that typedef only exists from 6.5 on. */
#define x448_u128 unsigned __int128
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
	struct x448_fe t[4];
};

/* Propagate carries in place; limbs below 2^(X448_RADIX + 3) on entry. */
static __always_inline void fe_carry(struct x448_fe *r)
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

/*
 * Multiplication uses the golden-ratio Karatsuba step. With phi = 2^224,
 * p = phi^2 - phi - 1, a = a0 + a1 phi and b = b0 + b1 phi:
 *   a b = a0 b0 + a1 b1 + (a0 b1 + a1 b0 + a1 b1) phi   (mod p)
 *       = D + E phi,  D = a0 b0 + a1 b1,  E = (a0 + a1)(b0 + b1) - a0 b0,
 * three half-size products instead of four. Column k of E phi lands at
 * 2^(R (k + HALF)); past 2^448 it folds as 2^448 = phi + 1. No column of
 * E goes negative: (a0 + a1)(b0 + b1) - a0 b0 is a sum of products.
 *
 * Bounds (64-bit): limbs <= 2^56 + 8 on entry, so half sums < 2^58, every
 * column below 2^118 and the carries fit; the 32-bit form has the same
 * margins at 2^63.
 */
#ifdef X448_LIMB64

#define X448_MUL(x, y) ((x448_u128)(x) * (y))

/* Columns 0..6 of the product of two 4-limb numbers (16 multiplications). */
static __always_inline void mul4(x448_u128 c[7], const u64 *a, const u64 *b)
{
	c[0] = X448_MUL(a[0], b[0]);
	c[1] = X448_MUL(a[0], b[1]) + X448_MUL(a[1], b[0]);
	c[2] = X448_MUL(a[0], b[2]) + X448_MUL(a[1], b[1]) + X448_MUL(a[2], b[0]);
	c[3] = X448_MUL(a[0], b[3]) + X448_MUL(a[1], b[2]) +
	       X448_MUL(a[2], b[1]) + X448_MUL(a[3], b[0]);
	c[4] = X448_MUL(a[1], b[3]) + X448_MUL(a[2], b[2]) + X448_MUL(a[3], b[1]);
	c[5] = X448_MUL(a[2], b[3]) + X448_MUL(a[3], b[2]);
	c[6] = X448_MUL(a[3], b[3]);
}

/* Columns 0..6 of the square of a 4-limb number (10 multiplications). */
static __always_inline void sqr4(x448_u128 c[7], const u64 *a)
{
	u64 d0 = 2 * a[0], d1 = 2 * a[1], d2 = 2 * a[2];

	c[0] = X448_MUL(a[0], a[0]);
	c[1] = X448_MUL(d0, a[1]);
	c[2] = X448_MUL(d0, a[2]) + X448_MUL(a[1], a[1]);
	c[3] = X448_MUL(d0, a[3]) + X448_MUL(d1, a[2]);
	c[4] = X448_MUL(d1, a[3]) + X448_MUL(a[2], a[2]);
	c[5] = X448_MUL(d2, a[3]);
	c[6] = X448_MUL(a[3], a[3]);
}

/* Move what column @i holds above 2^56 into column @i + 1. */
static __always_inline void carry128(x448_u128 *w, int i)
{
	w[i + 1] += w[i] >> X448_RADIX;
	w[i] &= X448_MASK;
}

static __always_inline void carry64(u64 *v, int i)
{
	v[i + 1] += v[i] >> X448_RADIX;
	v[i] &= X448_MASK;
}

/*
 * @r = D + E phi reduced, from lo = a0 b0, hi = a1 b1, mid = (a0 + a1)(b0 + b1):
 * E columns 4..6 sit at 2^(56 (8..10)) = 2^(56 (4..6)) + 2^(56 (0..2)).
 */
static __always_inline void fe_golden_reduce(struct x448_fe *r, const x448_u128 *lo,
					     const x448_u128 *hi, const x448_u128 *mid)
{
	x448_u128 w[8], e4, e5, e6, top;
	u64 v[8], top2;

	e4 = mid[4] - lo[4];
	e5 = mid[5] - lo[5];
	e6 = mid[6] - lo[6];
	w[0] = lo[0] + hi[0] + e4;
	w[1] = lo[1] + hi[1] + e5;
	w[2] = lo[2] + hi[2] + e6;
	w[3] = lo[3] + hi[3];
	w[4] = lo[4] + hi[4] + (mid[0] - lo[0]) + e4;
	w[5] = lo[5] + hi[5] + (mid[1] - lo[1]) + e5;
	w[6] = lo[6] + hi[6] + (mid[2] - lo[2]) + e6;
	w[7] = mid[3] - lo[3];

	carry128(w, 0);
	carry128(w, 1);
	carry128(w, 2);
	carry128(w, 3);
	carry128(w, 4);
	carry128(w, 5);
	carry128(w, 6);
	top = w[7] >> X448_RADIX;		/* below 2^62 */
	v[0] = (u64)w[0] + (u64)top;
	v[1] = (u64)w[1];
	v[2] = (u64)w[2];
	v[3] = (u64)w[3];
	v[4] = (u64)w[4] + (u64)top;
	v[5] = (u64)w[5];
	v[6] = (u64)w[6];
	v[7] = (u64)w[7] & X448_MASK;

	carry64(v, 0);
	carry64(v, 1);
	carry64(v, 2);
	carry64(v, 3);
	carry64(v, 4);
	carry64(v, 5);
	carry64(v, 6);
	top2 = v[7] >> X448_RADIX;		/* 0 or 1 */
	r->l[0] = v[0] + top2;
	r->l[1] = v[1];
	r->l[2] = v[2];
	r->l[3] = v[3];
	r->l[4] = v[4] + top2;
	r->l[5] = v[5];
	r->l[6] = v[6];
	r->l[7] = v[7] & X448_MASK;
}

static void fe_mul(struct x448_fe *r, const struct x448_fe *a,
		   const struct x448_fe *b)
{
	u64 as[4], bs[4];
	x448_u128 lo[7], hi[7], mid[7];

	as[0] = a->l[0] + a->l[4];
	as[1] = a->l[1] + a->l[5];
	as[2] = a->l[2] + a->l[6];
	as[3] = a->l[3] + a->l[7];
	bs[0] = b->l[0] + b->l[4];
	bs[1] = b->l[1] + b->l[5];
	bs[2] = b->l[2] + b->l[6];
	bs[3] = b->l[3] + b->l[7];
	mul4(lo, a->l, b->l);
	mul4(hi, a->l + 4, b->l + 4);
	mul4(mid, as, bs);
	fe_golden_reduce(r, lo, hi, mid);
}

static void fe_sqr(struct x448_fe *r, const struct x448_fe *a)
{
	u64 as[4];
	x448_u128 lo[7], hi[7], mid[7];

	as[0] = a->l[0] + a->l[4];
	as[1] = a->l[1] + a->l[5];
	as[2] = a->l[2] + a->l[6];
	as[3] = a->l[3] + a->l[7];
	sqr4(lo, a->l);
	sqr4(hi, a->l + 4);
	sqr4(mid, as);
	fe_golden_reduce(r, lo, hi, mid);
}

static void fe_mul_a24(struct x448_fe *r, const struct x448_fe *a)
{
	x448_u128 w[8], top;
	int i;

	for (i = 0; i < 8; i++)
		w[i] = X448_MUL(a->l[i], X448_A24);
	for (i = 0; i < 7; i++)
		carry128(w, i);
	top = w[7] >> X448_RADIX;		/* below 2^17 */
	for (i = 0; i < 8; i++)
		r->l[i] = (u64)w[i] & X448_MASK;
	r->l[0] += (u64)top;
	r->l[4] += (u64)top;
}

#else /* !X448_LIMB64: 16 limbs of 28 bits, generic loops */

/*
 * Reduce X448_LIMBS wide column sums into @r (loosely reduced): carry
 * twice, folding each carry out of the top limb back as 2^224 + 1.
 */
static __always_inline void fe_reduce_wide(struct x448_fe *r, x448_wide *c)
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

/* Columns of the product of two X448_HALF-limb numbers. */
static __always_inline void mul_half(x448_wide c[2 * X448_HALF - 1],
				     const x448_limb *a, const x448_limb *b)
{
	int i, j;

	for (i = 0; i < 2 * X448_HALF - 1; i++)
		c[i] = 0;
	for (i = 0; i < X448_HALF; i++)
		for (j = 0; j < X448_HALF; j++)
			c[i + j] += (x448_wide)a[i] * b[j];
}

static __always_inline void sqr_half(x448_wide c[2 * X448_HALF - 1],
				     const x448_limb *a)
{
	x448_limb twice;
	int i, j;

	for (i = 0; i < 2 * X448_HALF - 1; i++)
		c[i] = 0;
	for (i = 0; i < X448_HALF; i++) {
		c[2 * i] += (x448_wide)a[i] * a[i];
		twice = 2 * a[i];
		for (j = i + 1; j < X448_HALF; j++)
			c[i + j] += (x448_wide)twice * a[j];
	}
}

/* The golden-ratio Karatsuba step (see above), generic form. */
static __always_inline void fe_golden(x448_wide w[X448_LIMBS],
				      const x448_wide *lo, const x448_wide *hi,
				      const x448_wide *mid)
{
	x448_wide e;
	int k;

	for (k = 0; k < X448_LIMBS; k++)
		w[k] = 0;
	for (k = 0; k < 2 * X448_HALF - 1; k++) {
		w[k] += lo[k] + hi[k];
		e = mid[k] - lo[k];
		if (k < X448_HALF) {
			w[k + X448_HALF] += e;
		} else {
			w[k] += e;
			w[k - X448_HALF] += e;
		}
	}
}

static void fe_mul(struct x448_fe *r, const struct x448_fe *a,
		   const struct x448_fe *b)
{
	x448_limb as[X448_HALF], bs[X448_HALF];
	x448_wide lo[2 * X448_HALF - 1], hi[2 * X448_HALF - 1];
	x448_wide mid[2 * X448_HALF - 1], w[X448_LIMBS];
	int i;

	for (i = 0; i < X448_HALF; i++) {
		as[i] = a->l[i] + a->l[i + X448_HALF];
		bs[i] = b->l[i] + b->l[i + X448_HALF];
	}
	mul_half(lo, a->l, b->l);
	mul_half(hi, a->l + X448_HALF, b->l + X448_HALF);
	mul_half(mid, as, bs);
	fe_golden(w, lo, hi, mid);
	fe_reduce_wide(r, w);
}

static void fe_sqr(struct x448_fe *r, const struct x448_fe *a)
{
	x448_limb as[X448_HALF];
	x448_wide lo[2 * X448_HALF - 1], hi[2 * X448_HALF - 1];
	x448_wide mid[2 * X448_HALF - 1], w[X448_LIMBS];
	int i;

	for (i = 0; i < X448_HALF; i++)
		as[i] = a->l[i] + a->l[i + X448_HALF];
	sqr_half(lo, a->l);
	sqr_half(hi, a->l + X448_HALF);
	sqr_half(mid, as);
	fe_golden(w, lo, hi, mid);
	fe_reduce_wide(r, w);
}

static void fe_mul_a24(struct x448_fe *r, const struct x448_fe *a)
{
	x448_wide c[X448_LIMBS];
	int i;

	for (i = 0; i < X448_LIMBS; i++)
		c[i] = (x448_wide)a->l[i] * X448_A24;
	fe_reduce_wide(r, c);
}

#endif /* X448_LIMB64 */

/* @r = @a squared @n times (n >= 1). */
static void fe_sqr_n(struct x448_fe *r, const struct x448_fe *a, int n)
{
	fe_sqr(r, a);
	while (--n > 0)
		fe_sqr(r, r);
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
static noinline_for_stack void fe_tobytes(u8 s[X448_KEY_SIZE], const struct x448_fe *a)
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
static noinline_for_stack void fe_invert(struct x448_fe *r,
					 const struct x448_fe *z,
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

/*
 * One ladder step (RFC 7748, section 5), after the conditional swap, in the
 * RFC's names; four temporaries are enough when each dies early:
 *   A = x_2 + z_2, B = x_2 - z_2, C = x_3 + z_3, D = x_3 - z_3,
 *   DA = D * A, CB = C * B, x_3 = (DA + CB)^2, z_3 = x_1 * (DA - CB)^2,
 *   AA = A^2, BB = B^2, x_2 = AA * BB, E = AA - BB,
 *   z_2 = E * (AA + a24 * E).
 */
static noinline_for_stack void x448_ladder_step(struct x448_state *s)
{
	struct x448_fe *a = &s->t[0], *b = &s->t[1], *c = &s->t[2], *d = &s->t[3];
	struct x448_fe *aa = a, *bb = b, *cb = c, *da = d, *e = c;

	fe_add(a, &s->x2, &s->z2);
	fe_sub(b, &s->x2, &s->z2);
	fe_add(c, &s->x3, &s->z3);
	fe_sub(d, &s->x3, &s->z3);
	fe_mul(da, d, a);			/* D dies */
	fe_mul(cb, c, b);			/* C dies */
	fe_add(&s->x3, da, cb);
	fe_sqr(&s->x3, &s->x3);
	fe_sub(&s->z3, da, cb);
	fe_sqr(&s->z3, &s->z3);
	fe_mul(&s->z3, &s->z3, &s->x1);		/* DA and CB die */
	fe_sqr(aa, a);				/* A dies */
	fe_sqr(bb, b);				/* B dies */
	fe_mul(&s->x2, aa, bb);
	fe_sub(e, aa, bb);
	fe_mul_a24(&s->z2, e);
	fe_add(&s->z2, &s->z2, aa);
	fe_mul(&s->z2, &s->z2, e);
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

	fe_invert(&s.z2, &s.z2, s.t);
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

/*
 * The stack below noise_x448()'s frame that x448_scalarmult() and the field
 * functions it calls use: 976 + 112 + 384 bytes on the debug UML kernel
 * (KASAN), 720 + 96 + 248 without (gcc -fstack-usage: x448_scalarmult,
 * x448_ladder_step, fe_mul, the deepest chain), plus return addresses. Two
 * nested frames of X448_STACK_WIPE_HALF bytes cover it and each stays under
 * the 1 KiB frame warning.
 */
#define X448_STACK_WIPE_HALF 832

static noinline void x448_wipe_stack_deeper(void)
{
	u8 buf[X448_STACK_WIPE_HALF];

	memzero_explicit(buf, sizeof(buf));
}

/**
 * noise_x448_wipe_stack() - wipe the field temporaries of the last scalar
 * multiplication from the stack.
 *
 * x448_scalarmult() wipes its own state; the products and carries of
 * fe_mul() and the others stay in dead stack frames. Called right after
 * x448_scalarmult() from the same caller, this function's frame and the
 * one below it cover those frames and zero them (2 x 832 bytes, once per
 * scalar multiplication: the cost is in Documentation/engine.rst).
 */
noinline void noise_x448_wipe_stack(void)
{
	u8 buf[X448_STACK_WIPE_HALF];

	memzero_explicit(buf, sizeof(buf));
	x448_wipe_stack_deeper();
	barrier_data(buf);
}
EXPORT_SYMBOL_NS_GPL(noise_x448_wipe_stack, NOISE_INTERNAL);

bool noise_x448(u8 out[X448_KEY_SIZE], const u8 scalar[X448_KEY_SIZE],
		const u8 point[X448_KEY_SIZE])
{
	x448_scalarmult(out, scalar, point);
	noise_x448_wipe_stack();
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
