/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keccak-f[1600] and the FIPS 202 functions ML-KEM needs: SHA3-256,
 * SHA3-512, SHAKE128 and SHAKE256 (the kernel's crypto API of 6.1 and
 * 6.12 has no SHAKE). Constant time: nothing depends on the data but
 * its length.
 */
#ifndef _NOISE_KECCAK_H
#define _NOISE_KECCAK_H

#include <linux/types.h>

#define NOISE_SHA3_256_SIZE 32
#define NOISE_SHA3_512_SIZE 64
/* Rates (bytes absorbed per permutation) of the four functions. */
#define NOISE_SHAKE128_RATE 168
#define NOISE_SHAKE256_RATE 136
#define NOISE_SHA3_256_RATE 136
#define NOISE_SHA3_512_RATE 72

/**
 * struct noise_keccak - a sponge: absorb, then squeeze.
 * @s: the 1600-bit state as 25 little-endian lanes.
 * @pos: bytes absorbed into, or squeezed from, the current block.
 * @rate: block size in bytes.
 * @pad: the domain byte (0x06 SHA-3, 0x1f SHAKE).
 * @squeezing: true once finalised.
 */
struct noise_keccak {
	u64 s[25];
	unsigned int pos;
	unsigned int rate;
	u8 pad;
	bool squeezing;
};

void noise_keccak_f1600(u64 s[25]);

void noise_keccak_init(struct noise_keccak *k, unsigned int rate, u8 pad);
void noise_keccak_absorb(struct noise_keccak *k, const u8 *in, size_t len);
/* Pads, permutes once and switches to squeezing (called by the first squeeze). */
void noise_keccak_finalize(struct noise_keccak *k);
void noise_keccak_squeeze(struct noise_keccak *k, u8 *out, size_t len);

static inline void noise_shake128_init(struct noise_keccak *k)
{
	noise_keccak_init(k, NOISE_SHAKE128_RATE, 0x1f);
}

static inline void noise_shake256_init(struct noise_keccak *k)
{
	noise_keccak_init(k, NOISE_SHAKE256_RATE, 0x1f);
}

void noise_sha3_256(u8 out[NOISE_SHA3_256_SIZE], const u8 *in, size_t len);
void noise_sha3_512(u8 out[NOISE_SHA3_512_SIZE], const u8 *in, size_t len);
void noise_shake256(u8 *out, size_t outlen, const u8 *in, size_t len);

#endif /* _NOISE_KECCAK_H */
