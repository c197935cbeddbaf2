/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HASH, HMAC-HASH and HKDF (rev 34 section 4.3) for SHA256, SHA512, BLAKE2s
 * and BLAKE2b.
 */
#ifndef _NOISE_HASH_H
#define _NOISE_HASH_H

#include <crypto/blake2s.h>
#include <crypto/hash.h>
#include "noise_internal.h"

/**
 * struct noise_hash_ctx - one running hash computation, on the stack.
 * @id: enum noise_hash_id.
 * @b2s: BLAKE2s state (the kernel's blake2s library).
 * @desc: shash descriptor and context for the other hashes.
 */
struct noise_hash_ctx {
	u8 id;
	union {
		struct blake2s_state b2s;
		char desc[sizeof(struct shash_desc) + HASH_MAX_DESCSIZE]
			__aligned(__alignof__(struct shash_desc));
	};
};

int noise_hash_init_tfms(void);
void noise_hash_free_tfms(void);
const char *noise_hash_driver_name(u8 id);

void noise_hash_start(struct noise_hash_ctx *ctx, u8 id);
void noise_hash_update(struct noise_hash_ctx *ctx, const u8 *data, size_t len);
void noise_hash_finish(struct noise_hash_ctx *ctx, u8 *out);
/**
 * union noise_hkdf_key - HKDF's temp_key, between extract and expand.
 * @prk: temp_key itself (SHA256, SHA512, BLAKE2b).
 * @b2s: BLAKE2s: HMAC keyed with temp_key, the chaining values after its
 *	inner (@b2s.inner) and outer (@b2s.outer) padded block.
 *
 * Secret: wipe it with memzero_explicit() when done.
 */
union noise_hkdf_key {
	u8 prk[NOISE_MAX_HASHLEN];
	struct {
		u32 inner[8], outer[8];
	} b2s;
};

void noise_hkdf_extract(u8 id, const u8 *ck, const u8 *ikm, size_t ikm_len,
			union noise_hkdf_key *key);
void noise_hkdf_expand(u8 id, const union noise_hkdf_key *key, const u8 *prev, u8 i,
		       u8 *out);
/* noise_hash_available(), noise_hash_len(), noise_hash(), noise_hkdf(): noise_internal.h */

#endif /* _NOISE_HASH_H */
