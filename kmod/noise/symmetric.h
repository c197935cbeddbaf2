/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SymmetricState (rev 34 section 5.2) and the handshake's CipherState.
 */
#ifndef _NOISE_SYMMETRIC_H
#define _NOISE_SYMMETRIC_H

#include "hash.h"
#include "pattern.h"

/**
 * struct noise_hs_cipher - the CipherState of a handshake: k and n.
 * @k: the key.
 * @n: the next nonce.
 * @id: enum noise_cipher_id.
 * @has_key: k is set (otherwise data passes through).
 *
 * Plain memory, no transform: the handshake encrypts with the kernel's
 * crypto library (ChaCha20-Poly1305) or the AES-GCM code of hs_cipher.c,
 * so a handshake allocates nothing but itself and can be copied.
 */
struct noise_hs_cipher {
	u8 k[NOISE_KEY_LEN];
	u64 n;
	u8 id;
	bool has_key;
};

/**
 * struct noise_symmetric - a SymmetricState.
 * @cs: the CipherState.
 * @hash: enum noise_hash_id.
 * @hash_len: HASHLEN.
 * @key_pending: the last MixKey()'s key (HKDF's second output) is not
 *	derived yet: @cs.k is zero, @prk holds HKDF's temp_key; the first
 *	EncryptAndHash or DecryptAndHash derives it, a MixKey that comes
 *	first replaces it unused.
 * @ck: chaining key.
 * @h: handshake hash.
 * @prk: see @key_pending.
 */
struct noise_symmetric {
	struct noise_hs_cipher cs;
	u8 hash;
	u8 hash_len;
	bool key_pending;
	u8 ck[NOISE_MAX_HASHLEN];
	u8 h[NOISE_MAX_HASHLEN];
	union noise_hkdf_key prk;
};

int noise_hs_cipher_crypt(struct noise_hs_cipher *cs, bool enc, const u8 *ad,
			  size_t ad_len, const u8 *src, u8 *dst, size_t len);

void noise_symmetric_init_at(struct noise_symmetric *ss,
			     const struct noise_protocol *proto,
			     const u8 *h, const u8 *ck);
void noise_symmetric_init(struct noise_symmetric *ss,
			  const struct noise_protocol *proto);
void noise_symmetric_destroy(struct noise_symmetric *ss);
void noise_mix_hash(struct noise_symmetric *ss, const u8 *data, size_t len);
void noise_mix_key(struct noise_symmetric *ss, const u8 *ikm, size_t len);
void noise_mix_key_and_hash(struct noise_symmetric *ss, const u8 *ikm, size_t len);
int noise_encrypt_and_hash(struct noise_symmetric *ss, u8 *buf, size_t len,
			   size_t *out_len);
int noise_decrypt_and_hash(struct noise_symmetric *ss, const u8 *src, size_t len,
			   u8 *dst);
void noise_symmetric_split(struct noise_symmetric *ss, u8 *k1, u8 *k2);

#endif /* _NOISE_SYMMETRIC_H */
