/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SymmetricState (rev 34 section 5.2).
 */
#ifndef _NOISE_SYMMETRIC_H
#define _NOISE_SYMMETRIC_H

#include "cipher.h"
#include "pattern.h"

/**
 * struct noise_symmetric - a SymmetricState.
 * @cs: the CipherState (its AEAD tfm is allocated once per handshake).
 * @hash: enum noise_hash_id.
 * @hash_len: HASHLEN.
 * @ck: chaining key.
 * @h: handshake hash.
 */
struct noise_symmetric {
	struct noise_cipher *cs;
	u8 hash;
	u8 hash_len;
	u8 ck[NOISE_MAX_HASHLEN];
	u8 h[NOISE_MAX_HASHLEN];
};

int noise_symmetric_init(struct noise_symmetric *ss,
			 const struct noise_protocol *proto, gfp_t gfp);
void noise_symmetric_destroy(struct noise_symmetric *ss);
void noise_mix_hash(struct noise_symmetric *ss, const u8 *data, size_t len);
int noise_mix_key(struct noise_symmetric *ss, const u8 *ikm, size_t len);
int noise_mix_key_and_hash(struct noise_symmetric *ss, const u8 *ikm, size_t len);
int noise_encrypt_and_hash(struct noise_symmetric *ss, u8 *buf, size_t len,
			   size_t *out_len);
int noise_decrypt_and_hash(struct noise_symmetric *ss, const u8 *src, size_t len,
			   u8 *dst);
void noise_symmetric_split(struct noise_symmetric *ss, u8 *k1, u8 *k2);

#endif /* _NOISE_SYMMETRIC_H */
