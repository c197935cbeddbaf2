/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise_bench: helpers of the groups that drive the engine.
 */
#ifndef _NOISE_BENCH_ENGINE_H
#define _NOISE_BENCH_ENGINE_H

#include <linux/types.h>

/*
 * What one complete handshake does, both sides together, counted from the
 * pattern's tokens by the rules of the Noise specification (sections 5.2,
 * 5.3, 9.2): the scalar multiplications, and the SymmetricState work whose
 * unit costs are timed on their own for the breakdown.
 */
struct bench_dh_count {
	unsigned int keygens;	/* e tokens: ephemeral key pairs made */
	unsigned int dh;	/* ee, es, se, ss tokens, times two sides */
	unsigned int mixhash;	/* MixHash and HASH(protocol name) */
	unsigned int hkdf2;	/* HKDF with two outputs (MixKey, Split) */
	unsigned int hkdf3;	/* HKDF with three outputs (MixKeyAndHash) */
	unsigned int aead;	/* EncryptAndHash/DecryptAndHash with a key */
	unsigned int setkey;	/* a new handshake cipher key (MixKey) */
	unsigned int states;	/* transport cipher states Split makes */
};

int bench_count_dh(const char *name, unsigned int hash_len,
		   struct bench_dh_count *count);

/* HASH (MixHash), HKDF(2) and HKDF(3) of the engine's hash code, timed. */
int bench_hash_prims_run(void);

/* Key pair generation through the engine on @curve (0 25519, 1 448). */
int bench_hs_keygen(unsigned int curve);

/* The handshake's AEAD unit costs on @cipher (0 ChaChaPoly, 1 AESGCM). */
int bench_hs_aead_prims(unsigned int cipher);

#endif /* _NOISE_BENCH_ENGINE_H */
