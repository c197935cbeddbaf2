// SPDX-License-Identifier: GPL-2.0
/*
 * ML-KEM (FIPS 203), ML-KEM-768 and ML-KEM-1024, written from the standard.
 *
 * Coefficients are u16 values kept fully reduced, in [0, q), after every
 * operation; products are reduced by a Barrett step (mlkem_reduce(), no
 * division) and every conditional subtraction is a mask hidden from the
 * optimiser, so no branch and no table index depends on a coefficient.
 * Compress_d divides by q with a multiplication by a rounded reciprocal
 * (exact over the range used), never with a division instruction, whose
 * time depends on its operands on many CPUs.
 *
 * Memory: the matrix A is not stored by default; each entry is sampled
 * when it is needed and multiplied in at once, so a call needs k + 2
 * polynomials of the caller's work area (struct noise_mlkem_work), not
 * k^2. A caller that decapsulates with the key pair it generated may
 * keep A (struct noise_mlkem_matrix) from KeyGen for Decaps's
 * re-encryption, which then samples none of it again.
 *
 * Public data may steer branches: the encapsulation key (its modulus
 * check, rejection sampling from rho), lengths, and the result of the
 * decapsulation key's hash check (the key is the caller's own).
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/random.h>
#include <linux/string.h>
#include "keccak.h"
#include "mlkem.h"

#define Q NOISE_MLKEM_Q
#define N NOISE_MLKEM_N
/* 12-bit encoding of one polynomial. */
#define POLY_BYTES 384

/*
 * In the userspace constant-time check, rho (public, derived from the
 * secret seed in KeyGen) is declassified there so that the rejection
 * sampling on it is not reported; nothing in the kernel.
 */
#ifndef noise_mlkem_declassify
#define noise_mlkem_declassify(p, len) ((void)(p), (void)(len))
#endif

#if defined(NOISE_MLKEM_TESTING) || defined(NOISE_TESTING)
#define MLKEM_TESTABLE
#else
#define MLKEM_TESTABLE static
#endif

struct mlkem_params {
	unsigned int k, du, dv;
	size_t ek_size, dk_size, ct_size;
};

static bool mlkem_params(enum noise_mlkem_param param, struct mlkem_params *p)
{
	if (param != NOISE_MLKEM768 && param != NOISE_MLKEM1024)
		return false;
	p->k = param;
	p->du = param == NOISE_MLKEM768 ? 10 : 11;
	p->dv = param == NOISE_MLKEM768 ? 4 : 5;
	p->ek_size = POLY_BYTES * p->k + 32;
	p->dk_size = 2 * POLY_BYTES * p->k + 96;
	p->ct_size = 32 * (p->du * p->k + p->dv);
	return true;
}

size_t noise_mlkem_ek_size(enum noise_mlkem_param param)
{
	struct mlkem_params p;

	return mlkem_params(param, &p) ? p.ek_size : 0;
}

size_t noise_mlkem_dk_size(enum noise_mlkem_param param)
{
	struct mlkem_params p;

	return mlkem_params(param, &p) ? p.dk_size : 0;
}

size_t noise_mlkem_ct_size(enum noise_mlkem_param param)
{
	struct mlkem_params p;

	return mlkem_params(param, &p) ? p.ct_size : 0;
}

/* zeta^BitRev7(i) mod q, zeta = 17 (FIPS 203, appendix A). */
static const u16 mlkem_zetas[128] = {
	1, 1729, 2580, 3289, 2642, 630, 1897, 848, 1062, 1919, 193, 797,
	2786, 3260, 569, 1746, 296, 2447, 1339, 1476, 3046, 56, 2240, 1333,
	1426, 2094, 535, 2882, 2393, 2879, 1974, 821, 289, 331, 3253, 1756,
	1197, 2304, 2277, 2055, 650, 1977, 2513, 632, 2865, 33, 1320, 1915,
	2319, 1435, 807, 452, 1438, 2868, 1534, 2402, 2647, 2617, 1481, 648,
	2474, 3110, 1227, 910, 17, 2761, 583, 2649, 1637, 723, 2288, 1100,
	1409, 2662, 3281, 233, 756, 2156, 3015, 3050, 1703, 1651, 2789, 1789,
	1847, 952, 1461, 2687, 939, 2308, 2437, 2388, 733, 2337, 268, 641,
	1584, 2298, 2037, 3220, 375, 2549, 2090, 1645, 1063, 319, 2773, 757,
	2099, 561, 2466, 2594, 2804, 1092, 403, 1026, 1143, 2150, 2775, 886,
	1722, 1212, 1874, 1029, 2110, 2935, 885, 2154,
};

/* zeta^(2 BitRev7(i) + 1) mod q: the moduli of the base multiplication. */
static const u16 mlkem_gammas[128] = {
	17, 3312, 2761, 568, 583, 2746, 2649, 680, 1637, 1692, 723, 2606,
	2288, 1041, 1100, 2229, 1409, 1920, 2662, 667, 3281, 48, 233, 3096,
	756, 2573, 2156, 1173, 3015, 314, 3050, 279, 1703, 1626, 1651, 1678,
	2789, 540, 1789, 1540, 1847, 1482, 952, 2377, 1461, 1868, 2687, 642,
	939, 2390, 2308, 1021, 2437, 892, 2388, 941, 733, 2596, 2337, 992,
	268, 3061, 641, 2688, 1584, 1745, 2298, 1031, 2037, 1292, 3220, 109,
	375, 2954, 2549, 780, 2090, 1239, 1645, 1684, 1063, 2266, 319, 3010,
	2773, 556, 757, 2572, 2099, 1230, 561, 2768, 2466, 863, 2594, 735,
	2804, 525, 1092, 2237, 403, 2926, 1026, 2303, 1143, 2186, 2150, 1179,
	2775, 554, 886, 2443, 1722, 1607, 1212, 2117, 1874, 1455, 1029, 2300,
	2110, 1219, 2935, 394, 885, 2444, 2154, 1175,
};

/* @a < 2q: @a mod q, by a masked subtraction. */
static inline u16 mlkem_csubq(u32 a)
{
	u32 r = a - Q;
	u32 mask = 0 - (r >> 31);	/* all ones when a < q */

	OPTIMIZER_HIDE_VAR(mask);
	return (u16)(r + (mask & Q));
}

/*
 * Any 32-bit @a: @a mod q. t = floor(a * floor(2^32 / q) / 2^32) is
 * floor(a / q) or one less, so a - t q lies in [0, 2q).
 */
static inline u16 mlkem_reduce(u32 a)
{
	u32 t = (u32)(((u64)a * 1290167) >> 32);

	return mlkem_csubq(a - t * Q);
}

/* Any 32-bit @a: a value congruent to @a mod q, in [0, 2q). */
static inline u16 mlkem_reduce_lazy(u32 a)
{
	u32 t = (u32)(((u64)a * 1290167) >> 32);

	return (u16)(a - t * Q);
}

static inline u16 mlkem_mul(u16 a, u16 b)
{
	return mlkem_reduce((u32)a * b);
}

static inline u16 mlkem_add(u16 a, u16 b)
{
	return mlkem_csubq((u32)a + b);
}

static inline u16 mlkem_sub(u16 a, u16 b)
{
	return mlkem_csubq((u32)a + Q - b);
}

/*
 * NTT (FIPS 203, algorithm 9), in place, from coefficients below q. The
 * butterflies leave out the conditional subtractions: with t congruent
 * to zeta f[j + len] and below 2q (mlkem_reduce_lazy(), any 32-bit
 * input), f[j] + t and f[j] + 2q - t raise the bound by 2q per layer, so
 * every value stays below 15q < 2^16 over the seven layers. One pass at
 * the end brings the result back to [0, q).
 */
static void mlkem_ntt(u16 f[N])
{
	unsigned int len, start, j, i = 1;
	u16 zeta, t;

	for (len = 128; len >= 2; len /= 2) {
		for (start = 0; start < N; start += 2 * len) {
			zeta = mlkem_zetas[i++];
			for (j = start; j < start + len; j++) {
				t = mlkem_reduce_lazy((u32)zeta * f[j + len]);
				f[j + len] = f[j] + 2 * Q - t;
				f[j] = f[j] + t;
			}
		}
	}
	for (j = 0; j < N; j++)
		f[j] = mlkem_reduce(f[j]);
}

/*
 * NTT^-1 (FIPS 203, algorithm 10), in place, values below q throughout;
 * the difference f[j + len] - f[j] is taken as f[j + len] + q - f[j]
 * (below 2q) and reduced by the multiplication by zeta. The last layer
 * (len = 128, zeta = 1729) also multiplies by 128^-1 = 3303: 1652 is
 * 1729 * 3303 mod q.
 */
static void mlkem_invntt(u16 f[N])
{
	unsigned int len, start, j, i = 127;
	u16 zeta, t;

	for (len = 2; len <= 64; len *= 2) {
		for (start = 0; start < N; start += 2 * len) {
			zeta = mlkem_zetas[i--];
			for (j = start; j < start + len; j++) {
				t = f[j];
				f[j] = mlkem_add(t, f[j + len]);
				f[j + len] = mlkem_reduce((u32)zeta *
							  (f[j + len] + Q - t));
			}
		}
	}
	for (j = 0; j < N / 2; j++) {
		t = f[j];
		f[j] = mlkem_reduce((u32)3303 * (t + f[j + 128]));
		f[j + 128] = mlkem_reduce((u32)1652 * (f[j + 128] + Q - t));
	}
}

/*
 * @r += @a * @b in the NTT domain (MultiplyNTTs, FIPS 203 algorithm 11),
 * @r not reduced: each call adds less than 2q^2 per coefficient, so up to
 * k = 4 calls on a zeroed @r stay below 8q^2 + q < 2^32 and one
 * mlkem_acc_reduce() at the end suffices.
 */
static void mlkem_basemul_acc(u32 r[N], const u16 a[N], const u16 b[N])
{
	unsigned int i;

	for (i = 0; i < N / 2; i++) {
		r[2 * i] += (u32)a[2 * i] * b[2 * i] +
			    (u32)mlkem_mul(a[2 * i + 1], b[2 * i + 1]) * mlkem_gammas[i];
		r[2 * i + 1] += (u32)a[2 * i] * b[2 * i + 1] +
				(u32)a[2 * i + 1] * b[2 * i];
	}
}

/* @r = @f (below q) as the start of a sum of mlkem_basemul_acc(). */
static void mlkem_acc_init(u32 r[N], const u16 *f)
{
	unsigned int i;

	for (i = 0; i < N; i++)
		r[i] = f ? f[i] : 0;
}

/* @f = @r mod q. */
static void mlkem_acc_reduce(u16 f[N], const u32 r[N])
{
	unsigned int i;

	for (i = 0; i < N; i++)
		f[i] = mlkem_reduce(r[i]);
}

static void mlkem_poly_add(u16 r[N], const u16 a[N])
{
	unsigned int i;

	for (i = 0; i < N; i++)
		r[i] = mlkem_add(r[i], a[i]);
}

/* ByteEncode_d (FIPS 203, algorithm 5): @d bits per coefficient. */
static void mlkem_encode(u8 *out, const u16 f[N], unsigned int d)
{
	unsigned int i, bits = 0;
	u32 acc = 0;

	for (i = 0; i < N; i++) {
		acc |= (u32)f[i] << bits;
		bits += d;
		while (bits >= 8) {
			*out++ = (u8)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

/* ByteDecode_d (algorithm 6) without the reduction of d = 12. */
static void mlkem_decode(u16 f[N], const u8 *in, unsigned int d)
{
	unsigned int i, bits = 0;
	u32 acc = 0;

	for (i = 0; i < N; i++) {
		while (bits < d) {
			acc |= (u32)*in++ << bits;
			bits += 8;
		}
		f[i] = (u16)(acc & ((1U << d) - 1));
		acc >>= d;
		bits -= d;
	}
}

/* ByteDecode_12: values mod q (a 12-bit value is below 2q). */
static void mlkem_decode12(u16 f[N], const u8 *in)
{
	unsigned int i;

	mlkem_decode(f, in, 12);
	for (i = 0; i < N; i++)
		f[i] = mlkem_csubq(f[i]);
}

/*
 * Compress_d (section 4.2.1): round(2^d x / q) mod 2^d = floor((2^d x +
 * (q - 1) / 2) / q) for odd q; the quotient is (t * 2580335) >> 33, exact
 * for every t < 2^23 (2^11 (q - 1) + 1664 is below that).
 */
static inline u16 mlkem_compress(u16 x, unsigned int d)
{
	u32 t = ((u32)x << d) + (Q - 1) / 2;

	return (u16)(((u64)t * 2580335) >> 33) & ((1U << d) - 1);
}

static inline u16 mlkem_decompress(u16 y, unsigned int d)
{
	return (u16)(((u32)y * Q + (1U << (d - 1))) >> d);
}

static void mlkem_compress_encode(u8 *out, u16 f[N], unsigned int d)
{
	unsigned int i;

	for (i = 0; i < N; i++)
		f[i] = mlkem_compress(f[i], d);
	mlkem_encode(out, f, d);
}

static void mlkem_decode_decompress(u16 f[N], const u8 *in, unsigned int d)
{
	unsigned int i;

	mlkem_decode(f, in, d);
	for (i = 0; i < N; i++)
		f[i] = mlkem_decompress(f[i], d);
}

/* Decompress_1(ByteDecode_1(m)): each bit of @m to 0 or round(q/2). */
static void mlkem_msg_to_poly(u16 f[N], const u8 m[NOISE_MLKEM_MSG_SIZE])
{
	unsigned int i;
	u32 bit;

	for (i = 0; i < N; i++) {
		bit = (m[i / 8] >> (i % 8)) & 1;
		f[i] = (u16)((0 - bit) & ((Q + 1) / 2));
	}
}

/* ByteEncode_1(Compress_1(f)). */
static void mlkem_poly_to_msg(u8 m[NOISE_MLKEM_MSG_SIZE], const u16 f[N])
{
	unsigned int i;

	memset(m, 0, NOISE_MLKEM_MSG_SIZE);
	for (i = 0; i < N; i++)
		m[i / 8] |= (u8)(mlkem_compress(f[i], 1) << (i % 8));
}

/*
 * SampleNTT (algorithm 7) from SHAKE128(rho || x || y): rejection sampling
 * on public bytes (rho is part of the encapsulation key), so the branches
 * are allowed. A^[i, j] is sampled with x = j, y = i.
 */
static void mlkem_sample_ntt(u16 a[N], struct noise_mlkem_work *w,
			     const u8 rho[32], u8 x, u8 y)
{
	unsigned int n = 0, off;
	const u8 *b = w->buf;
	u16 d1, d2;

	noise_shake128_init(&w->xof);
	noise_keccak_absorb(&w->xof, rho, 32);
	noise_keccak_absorb(&w->xof, &x, 1);
	noise_keccak_absorb(&w->xof, &y, 1);
	while (n < N) {
		noise_keccak_squeeze(&w->xof, w->buf, NOISE_SHAKE128_RATE);
		for (off = 0; off < NOISE_SHAKE128_RATE && n < N; off += 3) {
			d1 = b[off] | (u16)(b[off + 1] & 15) << 8;
			d2 = b[off + 1] >> 4 | (u16)b[off + 2] << 4;
			if (d1 < Q)
				a[n++] = d1;
			if (d2 < Q && n < N)
				a[n++] = d2;
		}
	}
}

/*
 * SamplePolyCBD_2 (algorithm 8) on PRF_2(seed, nonce) = SHAKE256(seed ||
 * nonce, 128 bytes): each nibble b gives b0 + b1 - b2 - b3. Both parameter
 * sets use eta1 = eta2 = 2.
 */
static void mlkem_sample_cbd2(u16 f[N], struct noise_mlkem_work *w,
			      const u8 seed[32], u8 nonce)
{
	unsigned int i, h;
	u32 b;

	noise_shake256_init(&w->xof);
	noise_keccak_absorb(&w->xof, seed, 32);
	noise_keccak_absorb(&w->xof, &nonce, 1);
	noise_keccak_squeeze(&w->xof, w->buf, 128);
	for (i = 0; i < 128; i++) {
		for (h = 0; h < 2; h++) {
			b = w->buf[i] >> (4 * h);
			f[2 * i + h] = mlkem_csubq((b & 1) + ((b >> 1) & 1) + Q -
						   ((b >> 2) & 1) - ((b >> 3) & 1));
		}
	}
}

/*
 * K-PKE.KeyGen (algorithm 13): ek = t^ || rho, @dk_pke = s^; A^ into @a
 * when it is not NULL.
 */
static void mlkem_pke_keygen(const struct mlkem_params *p, u8 *ek, u8 *dk_pke,
			     const u8 d[32], struct noise_mlkem_matrix *a,
			     struct noise_mlkem_work *w)
{
	u16 *acc = w->poly[p->k], *tmp = w->poly[p->k + 1];
	const u8 *rho = w->g_out, *sigma = w->g_out + 32;
	unsigned int i, j;

	memcpy(w->g_in, d, 32);
	w->g_in[32] = (u8)p->k;
	noise_sha3_512(w->g_out, w->g_in, 33);
	noise_mlkem_declassify(w->g_out, 32);
	for (i = 0; i < p->k; i++) {
		mlkem_sample_cbd2(w->poly[i], w, sigma, i);
		mlkem_ntt(w->poly[i]);
		mlkem_encode(dk_pke + i * POLY_BYTES, w->poly[i], 12);
	}
	for (i = 0; i < p->k; i++) {
		/* t^[i] = e^[i] + sum_j A^[i, j] s^[j] */
		mlkem_sample_cbd2(acc, w, sigma, p->k + i);
		mlkem_ntt(acc);
		mlkem_acc_init(w->acc, acc);
		for (j = 0; j < p->k; j++) {
			if (a)
				tmp = a->a[i * p->k + j];
			mlkem_sample_ntt(tmp, w, rho, j, i);	/* A^[i, j] */
			mlkem_basemul_acc(w->acc, tmp, w->poly[j]);
		}
		mlkem_acc_reduce(acc, w->acc);
		mlkem_encode(ek + i * POLY_BYTES, acc, 12);
	}
	memcpy(ek + p->k * POLY_BYTES, rho, 32);
}

/*
 * K-PKE.Encrypt's u = NTT^-1(A^^T y^) + e1, compressed into @ct; A^ from
 * @a when it is not NULL, else sampled from rho.
 */
static void mlkem_pke_encrypt_u(const struct mlkem_params *p, u8 *ct,
				const u8 *rho, const u8 r[32],
				const struct noise_mlkem_matrix *a,
				struct noise_mlkem_work *w)
{
	u16 *acc = w->poly[p->k], *tmp = w->poly[p->k + 1];
	const u16 *aji;
	unsigned int i, j;

	for (i = 0; i < p->k; i++) {
		mlkem_acc_init(w->acc, NULL);
		for (j = 0; j < p->k; j++) {
			if (a) {
				aji = a->a[j * p->k + i];	/* A^[j, i] */
			} else {
				mlkem_sample_ntt(tmp, w, rho, i, j);
				aji = tmp;
			}
			mlkem_basemul_acc(w->acc, aji, w->poly[j]);
		}
		mlkem_acc_reduce(acc, w->acc);
		mlkem_invntt(acc);
		mlkem_sample_cbd2(tmp, w, r, p->k + i);
		mlkem_poly_add(acc, tmp);
		mlkem_compress_encode(ct + i * 32 * p->du, acc, p->du);
	}
}

/*
 * K-PKE.Encrypt (algorithm 14); @ek passed the modulus check or is our
 * own, and @a, when not NULL, is the A^ of its rho.
 */
static void mlkem_pke_encrypt(const struct mlkem_params *p, u8 *ct, const u8 *ek,
			      const u8 m[32], const u8 r[32],
			      const struct noise_mlkem_matrix *a,
			      struct noise_mlkem_work *w)
{
	u16 *acc = w->poly[p->k], *tmp = w->poly[p->k + 1];
	unsigned int i;

	for (i = 0; i < p->k; i++) {
		mlkem_sample_cbd2(w->poly[i], w, r, i);
		mlkem_ntt(w->poly[i]);		/* y^ */
	}
	mlkem_pke_encrypt_u(p, ct, ek + p->k * POLY_BYTES, r, a, w);
	/* v = NTT^-1(t^^T y^) + e2 + mu */
	mlkem_acc_init(w->acc, NULL);
	for (i = 0; i < p->k; i++) {
		mlkem_decode12(tmp, ek + i * POLY_BYTES);
		mlkem_basemul_acc(w->acc, tmp, w->poly[i]);
	}
	mlkem_acc_reduce(acc, w->acc);
	mlkem_invntt(acc);
	mlkem_sample_cbd2(tmp, w, r, 2 * p->k);
	mlkem_poly_add(acc, tmp);
	mlkem_msg_to_poly(tmp, m);
	mlkem_poly_add(acc, tmp);
	mlkem_compress_encode(ct + p->k * 32 * p->du, acc, p->dv);
}

/* K-PKE.Decrypt (algorithm 15): m = Compress_1(v' - NTT^-1(s^^T NTT(u'))). */
static void mlkem_pke_decrypt(const struct mlkem_params *p, u8 m[32],
			      const u8 *dk_pke, const u8 *ct,
			      struct noise_mlkem_work *w)
{
	u16 *acc = w->poly[0], *u = w->poly[1], *s = w->poly[2];
	unsigned int i;

	mlkem_acc_init(w->acc, NULL);
	for (i = 0; i < p->k; i++) {
		mlkem_decode_decompress(u, ct + i * 32 * p->du, p->du);
		mlkem_ntt(u);
		mlkem_decode12(s, dk_pke + i * POLY_BYTES);
		mlkem_basemul_acc(w->acc, s, u);
	}
	mlkem_acc_reduce(acc, w->acc);
	mlkem_invntt(acc);
	mlkem_decode_decompress(u, ct + p->k * 32 * p->du, p->dv);
	for (i = 0; i < N; i++)
		u[i] = mlkem_sub(u[i], acc[i]);
	mlkem_poly_to_msg(m, u);
}

/* The modulus check (section 7.2): every 12-bit coefficient of t^ below q. */
static bool mlkem_ek_valid(const struct mlkem_params *p, const u8 *ek,
			   struct noise_mlkem_work *w)
{
	unsigned int i, j;

	for (i = 0; i < p->k; i++) {
		mlkem_decode(w->poly[0], ek + i * POLY_BYTES, 12);
		for (j = 0; j < N; j++)
			if (w->poly[0][j] >= Q)
				return false;
	}
	return true;
}

bool noise_mlkem_ek_check(enum noise_mlkem_param param, const u8 *ek,
			  size_t ek_len, struct noise_mlkem_work *w)
{
	struct mlkem_params p;
	bool ok;

	if (!mlkem_params(param, &p) || ek_len != p.ek_size)
		return false;
	ok = mlkem_ek_valid(&p, ek, w);
	memzero_explicit(w, sizeof(*w));
	return ok;
}

MLKEM_TESTABLE int noise_mlkem_keygen_derand(enum noise_mlkem_param param,
					     u8 *ek, u8 *dk,
					     const u8 seed[NOISE_MLKEM_SEED_SIZE],
					     struct noise_mlkem_matrix *a,
					     struct noise_mlkem_work *w)
{
	struct mlkem_params p;
	u8 *tail;

	if (!mlkem_params(param, &p))
		return -EINVAL;
	mlkem_pke_keygen(&p, ek, dk, seed, a, w);
	/* dk = dk_pke || ek || H(ek) || z */
	tail = dk + p.k * POLY_BYTES;
	memcpy(tail, ek, p.ek_size);
	noise_sha3_256(tail + p.ek_size, ek, p.ek_size);
	memcpy(tail + p.ek_size + 32, seed + 32, 32);
	memzero_explicit(w, sizeof(*w));
	return 0;
}

MLKEM_TESTABLE int noise_mlkem_encaps_derand(enum noise_mlkem_param param,
					     u8 *ct, u8 ss[NOISE_MLKEM_SS_SIZE],
					     const u8 *ek, size_t ek_len,
					     const u8 m[NOISE_MLKEM_MSG_SIZE],
					     struct noise_mlkem_work *w)
{
	struct mlkem_params p;

	if (!mlkem_params(param, &p)) {
		memzero_explicit(ss, NOISE_MLKEM_SS_SIZE);
		return -EINVAL;
	}
	if (ek_len != p.ek_size || !mlkem_ek_valid(&p, ek, w)) {
		memzero_explicit(ss, NOISE_MLKEM_SS_SIZE);
		memset(ct, 0, p.ct_size);
		memzero_explicit(w, sizeof(*w));
		return -EINVAL;
	}
	/* (K, r) = G(m || H(ek)) */
	memcpy(w->g_in, m, 32);
	noise_sha3_256(w->g_in + 32, ek, p.ek_size);
	noise_sha3_512(w->g_out, w->g_in, 64);
	mlkem_pke_encrypt(&p, ct, ek, w->g_in, w->g_out + 32, NULL, w);
	memcpy(ss, w->g_out, NOISE_MLKEM_SS_SIZE);
	memzero_explicit(w, sizeof(*w));
	return 0;
}

int noise_mlkem_keygen(enum noise_mlkem_param param, u8 *ek, u8 *dk,
		       struct noise_mlkem_matrix *a, struct noise_mlkem_work *w)
{
	u8 seed[NOISE_MLKEM_SEED_SIZE];
	int err;

	get_random_bytes(seed, sizeof(seed));
	err = noise_mlkem_keygen_derand(param, ek, dk, seed, a, w);
	memzero_explicit(seed, sizeof(seed));
	return err;
}

int noise_mlkem_encaps(enum noise_mlkem_param param, u8 *ct,
		       u8 ss[NOISE_MLKEM_SS_SIZE], const u8 *ek, size_t ek_len,
		       struct noise_mlkem_work *w)
{
	u8 m[NOISE_MLKEM_MSG_SIZE];
	int err;

	get_random_bytes(m, sizeof(m));
	err = noise_mlkem_encaps_derand(param, ct, ss, ek, ek_len, m, w);
	memzero_explicit(m, sizeof(m));
	return err;
}

/* 0xff when @a and @b are equal, else 0; no branch on the bytes. */
static u8 mlkem_eq_mask(const u8 *a, const u8 *b, size_t len)
{
	u32 acc = 0;
	size_t i;
	u8 mask;

	for (i = 0; i < len; i++)
		acc |= a[i] ^ b[i];
	mask = (u8)((acc - 1) >> 8);	/* acc <= 0xff */
	OPTIMIZER_HIDE_VAR(mask);
	return mask;
}

/* Decaps after the input checks: K' or, on a mismatch, J(z || c). */
static void mlkem_decaps_checked(const struct mlkem_params *p,
				 u8 ss[NOISE_MLKEM_SS_SIZE], const u8 *ct,
				 const u8 *dk, const struct noise_mlkem_matrix *a,
				 struct noise_mlkem_work *w)
{
	const u8 *ek = dk + p->k * POLY_BYTES;
	const u8 *h = ek + p->ek_size, *z = h + 32;
	unsigned int i;
	u8 mask;

	mlkem_pke_decrypt(p, w->g_in, dk, ct, w);	/* m' */
	memcpy(w->g_in + 32, h, 32);
	noise_sha3_512(w->g_out, w->g_in, 64);		/* (K', r') */
	noise_shake256_init(&w->xof);
	noise_keccak_absorb(&w->xof, z, 32);
	noise_keccak_absorb(&w->xof, ct, p->ct_size);
	noise_keccak_squeeze(&w->xof, w->kbar, NOISE_MLKEM_SS_SIZE);
	mlkem_pke_encrypt(p, w->ct, ek, w->g_in, w->g_out + 32, a, w);
	mask = mlkem_eq_mask(ct, w->ct, p->ct_size);
	for (i = 0; i < NOISE_MLKEM_SS_SIZE; i++)
		ss[i] = (w->g_out[i] & mask) | (w->kbar[i] & (u8)~mask);
}

int noise_mlkem_decaps(enum noise_mlkem_param param, u8 ss[NOISE_MLKEM_SS_SIZE],
		       const u8 *ct, size_t ct_len, const u8 *dk, size_t dk_len,
		       const struct noise_mlkem_matrix *a,
		       struct noise_mlkem_work *w)
{
	struct mlkem_params p;
	const u8 *ek;
	int err = -EINVAL;

	if (!mlkem_params(param, &p) || ct_len != p.ct_size || dk_len != p.dk_size)
		goto out;
	/* The hash check (section 7.3): H(ek) as stored in dk. */
	ek = dk + p.k * POLY_BYTES;
	noise_sha3_256(w->kbar, ek, p.ek_size);
	if (memcmp(w->kbar, ek + p.ek_size, 32))
		goto out;
	mlkem_decaps_checked(&p, ss, ct, dk, a, w);
	err = 0;
out:
	if (err)
		memzero_explicit(ss, NOISE_MLKEM_SS_SIZE);
	memzero_explicit(w, sizeof(*w));
	return err;
}
