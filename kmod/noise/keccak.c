// SPDX-License-Identifier: GPL-2.0
/*
 * Keccak-f[1600] (FIPS 202, section 3) and the sponge on top of it, written
 * from the standard: SHA3-256/512 (pad byte 0x06) and SHAKE128/256 (0x1f).
 *
 * The state is 25 lanes of 64 bits, lane (x, y) at s[x + 5 * y], bytes in
 * little-endian order within a lane. Data is XORed in and read out byte by
 * byte at position pos of the current block, so any split of the input or
 * output into calls gives the same result. Nothing depends on the data but
 * the lengths.
 */
#include <linux/string.h>
#include "keccak.h"

static const u64 keccak_rc[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL,
	0x800000000000808aULL, 0x8000000080008000ULL,
	0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL,
	0x000000000000008aULL, 0x0000000000000088ULL,
	0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL,
	0x8000000000008089ULL, 0x8000000000008003ULL,
	0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL,
	0x8000000080008081ULL, 0x8000000000008080ULL,
	0x0000000080000001ULL, 0x8000000080008008ULL,
};

static inline u64 keccak_rol(u64 v, unsigned int n)
{
	return (v << n) | (v >> ((64 - n) & 63));
}

/*
 * rho and pi (with theta's d folded in): lane x + 5 y, rotated by its rho
 * offset, moves to y + 5 ((2 x + 3 y) mod 5).
 */
static __always_inline void keccak_rp(u64 b[25], const u64 s[25], const u64 d[5],
				      int to, int from, unsigned int rot)
{
	b[to] = keccak_rol(s[from] ^ d[from % 5], rot);
}

/* chi on the row starting at lane y. */
static __always_inline void keccak_chi(u64 s[25], const u64 b[25], int y)
{
	s[y + 0] = b[y + 0] ^ (~b[y + 1] & b[y + 2]);
	s[y + 1] = b[y + 1] ^ (~b[y + 2] & b[y + 3]);
	s[y + 2] = b[y + 2] ^ (~b[y + 3] & b[y + 4]);
	s[y + 3] = b[y + 3] ^ (~b[y + 4] & b[y + 0]);
	s[y + 4] = b[y + 4] ^ (~b[y + 0] & b[y + 1]);
}

/* theta, then rho and pi into @b; written out lane by lane. */
static __always_inline void keccak_theta_rho_pi(u64 b[25], const u64 s[25])
{
	u64 c[5], d[5];
	int x;

	for (x = 0; x < 5; x++)
		c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
	d[0] = c[4] ^ keccak_rol(c[1], 1);
	d[1] = c[0] ^ keccak_rol(c[2], 1);
	d[2] = c[1] ^ keccak_rol(c[3], 1);
	d[3] = c[2] ^ keccak_rol(c[4], 1);
	d[4] = c[3] ^ keccak_rol(c[0], 1);
	keccak_rp(b, s, d, 0, 0, 0);
	keccak_rp(b, s, d, 10, 1, 1);
	keccak_rp(b, s, d, 20, 2, 62);
	keccak_rp(b, s, d, 5, 3, 28);
	keccak_rp(b, s, d, 15, 4, 27);
	keccak_rp(b, s, d, 16, 5, 36);
	keccak_rp(b, s, d, 1, 6, 44);
	keccak_rp(b, s, d, 11, 7, 6);
	keccak_rp(b, s, d, 21, 8, 55);
	keccak_rp(b, s, d, 6, 9, 20);
	keccak_rp(b, s, d, 7, 10, 3);
	keccak_rp(b, s, d, 17, 11, 10);
	keccak_rp(b, s, d, 2, 12, 43);
	keccak_rp(b, s, d, 12, 13, 25);
	keccak_rp(b, s, d, 22, 14, 39);
	keccak_rp(b, s, d, 23, 15, 41);
	keccak_rp(b, s, d, 8, 16, 45);
	keccak_rp(b, s, d, 18, 17, 15);
	keccak_rp(b, s, d, 3, 18, 21);
	keccak_rp(b, s, d, 13, 19, 8);
	keccak_rp(b, s, d, 14, 20, 18);
	keccak_rp(b, s, d, 24, 21, 2);
	keccak_rp(b, s, d, 9, 22, 61);
	keccak_rp(b, s, d, 19, 23, 56);
	keccak_rp(b, s, d, 4, 24, 14);
}

void noise_keccak_f1600(u64 s[25])
{
	u64 b[25];
	int round;

	for (round = 0; round < 24; round++) {
		keccak_theta_rho_pi(b, s);
		keccak_chi(s, b, 0);
		keccak_chi(s, b, 5);
		keccak_chi(s, b, 10);
		keccak_chi(s, b, 15);
		keccak_chi(s, b, 20);
		s[0] ^= keccak_rc[round];	/* iota */
	}
	memzero_explicit(b, sizeof(b));
}

void noise_keccak_init(struct noise_keccak *k, unsigned int rate, u8 pad)
{
	memset(k, 0, sizeof(*k));
	k->rate = rate;
	k->pad = pad;
}

static inline void keccak_xor_byte(struct noise_keccak *k, unsigned int i, u8 v)
{
	k->s[i / 8] ^= (u64)v << (8 * (i % 8));
}

static inline u64 keccak_load64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline void keccak_store64(u8 *p, u64 v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* Whole lanes at a lane boundary, single bytes elsewhere. */
void noise_keccak_absorb(struct noise_keccak *k, const u8 *in, size_t len)
{
	while (len) {
		if (k->pos % 8 == 0 && len >= 8) {
			k->s[k->pos / 8] ^= keccak_load64(in);
			k->pos += 8;
			in += 8;
			len -= 8;
		} else {
			keccak_xor_byte(k, k->pos++, *in++);
			len--;
		}
		if (k->pos == k->rate) {
			noise_keccak_f1600(k->s);
			k->pos = 0;
		}
	}
}

void noise_keccak_finalize(struct noise_keccak *k)
{
	keccak_xor_byte(k, k->pos, k->pad);
	keccak_xor_byte(k, k->rate - 1, 0x80);
	noise_keccak_f1600(k->s);
	k->pos = 0;
	k->squeezing = true;
}

void noise_keccak_squeeze(struct noise_keccak *k, u8 *out, size_t len)
{
	if (!k->squeezing)
		noise_keccak_finalize(k);
	while (len) {
		if (k->pos == k->rate) {
			noise_keccak_f1600(k->s);
			k->pos = 0;
		}
		if (k->pos % 8 == 0 && len >= 8) {
			keccak_store64(out, k->s[k->pos / 8]);
			k->pos += 8;
			out += 8;
			len -= 8;
		} else {
			*out++ = (u8)(k->s[k->pos / 8] >> (8 * (k->pos % 8)));
			k->pos++;
			len--;
		}
	}
}

static void keccak_oneshot(unsigned int rate, u8 pad, u8 *out, size_t outlen,
			   const u8 *in, size_t len)
{
	struct noise_keccak k;

	noise_keccak_init(&k, rate, pad);
	noise_keccak_absorb(&k, in, len);
	noise_keccak_squeeze(&k, out, outlen);
	memzero_explicit(&k, sizeof(k));
}

void noise_sha3_256(u8 out[NOISE_SHA3_256_SIZE], const u8 *in, size_t len)
{
	keccak_oneshot(NOISE_SHA3_256_RATE, 0x06, out, NOISE_SHA3_256_SIZE, in, len);
}

void noise_sha3_512(u8 out[NOISE_SHA3_512_SIZE], const u8 *in, size_t len)
{
	keccak_oneshot(NOISE_SHA3_512_RATE, 0x06, out, NOISE_SHA3_512_SIZE, in, len);
}

void noise_shake256(u8 *out, size_t outlen, const u8 *in, size_t len)
{
	keccak_oneshot(NOISE_SHAKE256_RATE, 0x1f, out, outlen, in, len);
}
