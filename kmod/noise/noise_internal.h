/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engine internals exported in the NOISE_INTERNAL symbol namespace, for the
 * project's own test and bench modules only (they declare
 * MODULE_IMPORT_NS(NOISE_INTERNAL)). This is not a stable API: it follows
 * the engine's internal structures and may change with any commit. Other
 * users want noise.h.
 */
#ifndef _NOISE_INTERNAL_H
#define _NOISE_INTERNAL_H

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/types.h>
#include "pattern.h"

/* The parser: the token lists of a protocol after its modifiers (pattern.c). */
int noise_protocol_parse(struct noise_protocol *proto, const char *name);

/* HASH and HKDF of rev 34 section 4.3 (hash.c); @id is enum noise_hash_id. */
bool noise_hash_available(u8 id);
unsigned int noise_hash_len(u8 id);
void noise_hash(u8 id, u8 *out, const u8 *a, size_t alen, const u8 *b, size_t blen);
void noise_hkdf(u8 id, const u8 *ck, const u8 *ikm, size_t ikm_len,
		u8 *out1, u8 *out2, u8 *out3);

/* Whether any ephemeral private key material is left in @hs (handshake.c). */
bool noise_handshake_has_ephemeral(const struct noise_handshake *hs);

/*
 * TEST ONLY: fix the next ephemeral private key (replaying test vectors);
 * never for real traffic (section 14). handshake.c.
 */
int noise_handshake_set_ephemeral_for_testing(struct noise_handshake *hs,
					      const u8 *priv);

#ifdef NOISE_TESTING
/*
 * TEST ONLY, test build only (NOISE_TESTING): fix the randomness of the
 * next KEM token (hfs: e1's 64-byte d || z, ekem1's 32-byte m). handshake.c.
 */
int noise_handshake_set_kem_seed_for_testing(struct noise_handshake *hs,
					     const u8 *seed, size_t len);
/*
 * TEST ONLY, test build only: the cipher pool's idle time and its
 * transforms' age limit, in jiffies. cipher_pool.c.
 */
void noise_cipher_pool_set_ages_for_testing(unsigned long idle, unsigned long max_age);
#endif

/*
 * Allocations made by the engine since load: every kmalloc (handshake
 * states, cipher states, requests) and every crypto transform
 * (crypto_alloc_*); and the cipher states taken from the pool of retired
 * ones instead. For the KUnit allocation count; cipher.c, cipher_pool.c.
 */
extern atomic_t noise_stat_kmallocs;
extern atomic_t noise_stat_tfms;
extern atomic_t noise_stat_reuses;

/*
 * Retired transport cipher states the engine keeps for cipher @id (at most
 * NOISE_CIPHER_POOL_MAX), and the transform of the one noise_cipher_new()
 * takes next (cipher_pool.c).
 */
#define NOISE_CIPHER_POOL_MAX 64
/* A state unused this long is freed; a transform this old is not kept. */
#define NOISE_CIPHER_POOL_IDLE (10 * HZ)
#define NOISE_CIPHER_TFM_MAX_AGE (120 * HZ)
struct crypto_aead;
unsigned int noise_cipher_pooled(enum noise_cipher_id id, struct crypto_aead **next);
/*
 * Empty that pool: the next states use the AEAD driver the crypto API
 * picks now (a test's, registered since), and none holds a driver that is
 * to be unregistered.
 */
void noise_cipher_pool_drain(void);

#endif /* _NOISE_INTERNAL_H */
