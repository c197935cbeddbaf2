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
 * One round from @a into @e (a separate array, so no temporary state):
 * theta's column parities, then for each output row the five lanes it
 * takes after rho and pi, and chi on them at once. Lane x + 5 y, rotated
 * by its rho offset, moves to y + 5 ((2 x + 3 y) mod 5); keccak_row()
 * takes the five source lanes of output row @y with their offsets.
 */
static __always_inline void keccak_row(u64 e[25], const u64 a[25],
				       const u64 d[5], int y, int f0, int r0,
				       int f1, int r1, int f2, int r2,
				       int f3, int r3, int f4, int r4)
{
	u64 b0 = keccak_rol(a[f0] ^ d[f0 % 5], r0);
	u64 b1 = keccak_rol(a[f1] ^ d[f1 % 5], r1);
	u64 b2 = keccak_rol(a[f2] ^ d[f2 % 5], r2);
	u64 b3 = keccak_rol(a[f3] ^ d[f3 % 5], r3);
	u64 b4 = keccak_rol(a[f4] ^ d[f4 % 5], r4);

	e[y + 0] = b0 ^ (~b1 & b2);
	e[y + 1] = b1 ^ (~b2 & b3);
	e[y + 2] = b2 ^ (~b3 & b4);
	e[y + 3] = b3 ^ (~b4 & b0);
	e[y + 4] = b4 ^ (~b0 & b1);
}

static __always_inline void keccak_round(u64 e[25], const u64 a[25], u64 rc)
{
	u64 c0, c1, c2, c3, c4, d[5];

	c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
	c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
	c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
	c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
	c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
	d[0] = c4 ^ keccak_rol(c1, 1);
	d[1] = c0 ^ keccak_rol(c2, 1);
	d[2] = c1 ^ keccak_rol(c3, 1);
	d[3] = c2 ^ keccak_rol(c4, 1);
	d[4] = c3 ^ keccak_rol(c0, 1);
	keccak_row(e, a, d, 0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14);
	keccak_row(e, a, d, 5, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61);
	keccak_row(e, a, d, 10, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18);
	keccak_row(e, a, d, 15, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56);
	keccak_row(e, a, d, 20, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2);
	e[0] ^= rc;	/* iota */
}

/* Two rounds per step: @s to a local copy and back, so no lane is moved. */
void noise_keccak_f1600(u64 s[25])
{
	u64 e[25];
	int round;

	for (round = 0; round < 24; round += 2) {
		keccak_round(e, s, keccak_rc[round]);
		keccak_round(s, e, keccak_rc[round + 1]);
	}
	memzero_explicit(e, sizeof(e));
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
