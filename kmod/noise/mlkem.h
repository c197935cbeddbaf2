/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ML-KEM (FIPS 203): ML-KEM-768 and ML-KEM-1024, for the engine's KEM
 * tokens. Keys, ciphertexts and shared secrets are byte strings in the
 * caller's buffers; every call takes a work area (struct noise_mlkem_work)
 * that the caller owns, so nothing is allocated and the stack use stays
 * small. The work area is wiped before each call returns.
 *
 * Constant time: no branch or memory index depends on a secret (the
 * seeds, the decapsulation key's secret part, the message, the shared
 * secret, or whether a ciphertext was valid); Documentation/engine.rst.
 */
#ifndef _NOISE_MLKEM_H
#define _NOISE_MLKEM_H

#include <linux/types.h>
#include "keccak.h"

/* The value is k, the module rank. */
enum noise_mlkem_param {
	NOISE_MLKEM768 = 3,
	NOISE_MLKEM1024 = 4,
};

#define NOISE_MLKEM_N 256
#define NOISE_MLKEM_Q 3329
#define NOISE_MLKEM_SS_SIZE 32
/* KeyGen's seed d || z, and Encaps's message m. */
#define NOISE_MLKEM_SEED_SIZE 64
#define NOISE_MLKEM_MSG_SIZE 32

#define NOISE_MLKEM768_EK_SIZE 1184
#define NOISE_MLKEM768_DK_SIZE 2400
#define NOISE_MLKEM768_CT_SIZE 1088
#define NOISE_MLKEM1024_EK_SIZE 1568
#define NOISE_MLKEM1024_DK_SIZE 3168
#define NOISE_MLKEM1024_CT_SIZE 1568

#define NOISE_MLKEM_MAX_K 4
#define NOISE_MLKEM_MAX_EK_SIZE NOISE_MLKEM1024_EK_SIZE
#define NOISE_MLKEM_MAX_DK_SIZE NOISE_MLKEM1024_DK_SIZE
#define NOISE_MLKEM_MAX_CT_SIZE NOISE_MLKEM1024_CT_SIZE

/**
 * struct noise_mlkem_work - scratch space of one ML-KEM call (about 6 KiB).
 * Private to mlkem.c; callers only provide it (embedded, or allocated once
 * outside the hot path) and must not share one between concurrent calls.
 */
struct noise_mlkem_work {
	u16 poly[NOISE_MLKEM_MAX_K + 2][NOISE_MLKEM_N];
	u32 acc[NOISE_MLKEM_N];
	u8 ct[NOISE_MLKEM_MAX_CT_SIZE];
	u8 buf[NOISE_SHAKE128_RATE];
	u8 g_in[2 * 32 + 1];
	u8 g_out[NOISE_SHA3_512_SIZE];
	u8 kbar[NOISE_MLKEM_SS_SIZE];
	struct noise_keccak xof;
};

/**
 * struct noise_mlkem_matrix - the matrix A^ of one key pair (8 KiB).
 * @a: A^[i, j] at index i k + j, in the NTT domain, values below q.
 *
 * Optional: noise_mlkem_keygen() fills it, and noise_mlkem_decaps() with
 * the same key pair then re-encrypts without expanding A^ from rho again
 * (k^2 SHAKE128 streams). A^ is public (derived from rho, part of ek);
 * the holder wipes it with the key pair all the same.
 */
struct noise_mlkem_matrix {
	u16 a[NOISE_MLKEM_MAX_K * NOISE_MLKEM_MAX_K][NOISE_MLKEM_N];
};

/* Sizes of @param's keys and ciphertext; 0 for an unknown @param. */
size_t noise_mlkem_ek_size(enum noise_mlkem_param param);
size_t noise_mlkem_dk_size(enum noise_mlkem_param param);
size_t noise_mlkem_ct_size(enum noise_mlkem_param param);

/**
 * noise_mlkem_keygen() - ML-KEM.KeyGen: a fresh key pair.
 * @param: NOISE_MLKEM768 or NOISE_MLKEM1024.
 * @ek: noise_mlkem_ek_size() bytes: the encapsulation key.
 * @dk: noise_mlkem_dk_size() bytes: the decapsulation key (secret).
 * @a: NULL, or where to keep A^ for noise_mlkem_decaps() with @dk.
 * @w: work area.
 *
 * Return: 0, or -EINVAL for an unknown @param.
 */
int noise_mlkem_keygen(enum noise_mlkem_param param, u8 *ek, u8 *dk,
		       struct noise_mlkem_matrix *a, struct noise_mlkem_work *w);

/**
 * noise_mlkem_encaps() - ML-KEM.Encaps: a shared secret and its ciphertext.
 * @param: NOISE_MLKEM768 or NOISE_MLKEM1024.
 * @ct: noise_mlkem_ct_size() bytes: the ciphertext.
 * @ss: the 32-byte shared secret.
 * @ek: the peer's encapsulation key, @ek_len bytes (hostile input).
 * @ek_len: must be noise_mlkem_ek_size().
 * @w: work area.
 *
 * Return: 0, or -EINVAL when @ek has the wrong length or fails the
 * modulus check of FIPS 203 section 7.2 (a coefficient not below q);
 * @ct and @ss are then zero.
 */
int noise_mlkem_encaps(enum noise_mlkem_param param, u8 *ct,
		       u8 ss[NOISE_MLKEM_SS_SIZE], const u8 *ek, size_t ek_len,
		       struct noise_mlkem_work *w);

/**
 * noise_mlkem_ek_check() - the modulus check of FIPS 203 section 7.2 alone.
 * @param: NOISE_MLKEM768 or NOISE_MLKEM1024.
 * @ek: an encapsulation key, @ek_len bytes (hostile input, public).
 * @ek_len: its length.
 * @w: work area.
 *
 * For a receiver that wants to refuse a bad key when it arrives, before
 * noise_mlkem_encaps() (which checks it again).
 * Return: true if @ek has the right length and every coefficient is below q.
 */
bool noise_mlkem_ek_check(enum noise_mlkem_param param, const u8 *ek,
			  size_t ek_len, struct noise_mlkem_work *w);

/**
 * noise_mlkem_decaps() - ML-KEM.Decaps: the shared secret of a ciphertext.
 * @param: NOISE_MLKEM768 or NOISE_MLKEM1024.
 * @ss: the 32-byte shared secret.
 * @ct: the ciphertext, @ct_len bytes (hostile input).
 * @ct_len: must be noise_mlkem_ct_size().
 * @dk: the decapsulation key, @dk_len bytes.
 * @dk_len: must be noise_mlkem_dk_size().
 * @a: NULL, or the A^ that noise_mlkem_keygen() wrote with @dk (the
 *	caller's own key pair): then A^ is not sampled again from rho.
 * @w: work area.
 *
 * A ciphertext that does not re-encrypt to itself gives the implicit
 * rejection secret J(z || ct), with the same timing as a good one: the
 * caller learns nothing here, only later when the keys disagree.
 *
 * Return: 0, or -EINVAL when a length is wrong or @dk fails the hash check
 * of FIPS 203 section 7.3 (H(ek) stored in @dk does not match); @ss is
 * then zero.
 */
int noise_mlkem_decaps(enum noise_mlkem_param param, u8 ss[NOISE_MLKEM_SS_SIZE],
		       const u8 *ct, size_t ct_len, const u8 *dk, size_t dk_len,
		       const struct noise_mlkem_matrix *a,
		       struct noise_mlkem_work *w);

#if defined(NOISE_MLKEM_TESTING) || defined(NOISE_TESTING)
/*
 * Deterministic forms (ML-KEM.KeyGen_internal(d, z) with @seed = d || z,
 * ML-KEM.Encaps_internal(ek, m)). They exist only in builds that define
 * NOISE_MLKEM_TESTING (the KUnit module and the userspace checks compile
 * mlkem.c themselves) or NOISE_TESTING (the test build of noise.ko, for
 * the hfs vector replay; never exported); in the production noise.ko
 * they are static.
 */
int noise_mlkem_keygen_derand(enum noise_mlkem_param param, u8 *ek, u8 *dk,
			      const u8 seed[NOISE_MLKEM_SEED_SIZE],
			      struct noise_mlkem_matrix *a,
			      struct noise_mlkem_work *w);
int noise_mlkem_encaps_derand(enum noise_mlkem_param param, u8 *ct,
			      u8 ss[NOISE_MLKEM_SS_SIZE], const u8 *ek,
			      size_t ek_len, const u8 m[NOISE_MLKEM_MSG_SIZE],
			      struct noise_mlkem_work *w);
#endif

#endif /* _NOISE_MLKEM_H */
