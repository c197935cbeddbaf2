// SPDX-License-Identifier: GPL-2.0
/*
 * SymmetricState: ck, h and a CipherState, as section 5.2 defines them.
 */

#include <linux/string.h>
#include "hash.h"
#include "symmetric.h"

/**
 * noise_symmetric_init() - InitializeSymmetric(protocol_name).
 * @ss: the state.
 * @proto: the parsed protocol.
 * @gfp: allocation flags for the cipher state.
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int noise_symmetric_init(struct noise_symmetric *ss,
			 const struct noise_protocol *proto, gfp_t gfp)
{
	ss->hash = proto->hash;
	ss->hash_len = noise_hash_len(proto->hash);
	ss->cs = noise_cipher_alloc(proto->cipher, gfp);
	if (!ss->cs)
		return -ENOMEM;
	/* h = name padded with zeros to HASHLEN, or HASH(name). */
	memset(ss->h, 0, sizeof(ss->h));
	if (proto->name_len <= ss->hash_len)
		memcpy(ss->h, proto->name, proto->name_len);
	else
		noise_hash(ss->hash, ss->h, proto->name, proto->name_len, NULL, 0);
	memcpy(ss->ck, ss->h, ss->hash_len);
	return 0;
}

/* Wipe ck and the key; h survives for GetHandshakeHash. */
void noise_symmetric_destroy(struct noise_symmetric *ss)
{
	noise_cipher_free(ss->cs);
	ss->cs = NULL;
	memzero_explicit(ss->ck, sizeof(ss->ck));
}

/* MixHash(data): h = HASH(h || data). */
void noise_mix_hash(struct noise_symmetric *ss, const u8 *data, size_t len)
{
	noise_hash(ss->hash, ss->h, ss->h, ss->hash_len, data, len);
}

/* MixKey(ikm): ck, temp_k = HKDF(ck, ikm, 2); InitializeKey(temp_k[:32]). */
int noise_mix_key(struct noise_symmetric *ss, const u8 *ikm, size_t len)
{
	u8 temp_k[NOISE_MAX_HASHLEN];
	int err;

	noise_hkdf(ss->hash, ss->ck, ikm, len, ss->ck, temp_k, NULL);
	err = noise_cipher_set_key(ss->cs, temp_k);
	memzero_explicit(temp_k, sizeof(temp_k));
	return err;
}

/* MixKeyAndHash(ikm): ck, temp_h, temp_k = HKDF(ck, ikm, 3). */
int noise_mix_key_and_hash(struct noise_symmetric *ss, const u8 *ikm, size_t len)
{
	u8 temp_h[NOISE_MAX_HASHLEN], temp_k[NOISE_MAX_HASHLEN];
	int err;

	noise_hkdf(ss->hash, ss->ck, ikm, len, ss->ck, temp_h, temp_k);
	noise_mix_hash(ss, temp_h, ss->hash_len);
	err = noise_cipher_set_key(ss->cs, temp_k);
	memzero_explicit(temp_h, sizeof(temp_h));
	memzero_explicit(temp_k, sizeof(temp_k));
	return err;
}

/**
 * noise_encrypt_and_hash() - EncryptAndHash(plaintext), in place.
 * @ss: the state.
 * @buf: @len bytes of plaintext with room for 16 more (heap memory).
 * @len: plaintext length.
 * @out_len: ciphertext length out (@len, or @len + 16 with a key).
 *
 * Return: 0 or an error of the AEAD.
 */
int noise_encrypt_and_hash(struct noise_symmetric *ss, u8 *buf, size_t len,
			   size_t *out_len)
{
	int err;

	err = noise_cipher_crypt_buf(ss->cs, true, ss->h, ss->hash_len, buf, buf, len);
	if (err)
		return err;
	*out_len = len + (ss->cs->has_key ? NOISE_TAG_LEN : 0);
	noise_mix_hash(ss, buf, *out_len);
	return 0;
}

/**
 * noise_decrypt_and_hash() - DecryptAndHash(ciphertext).
 * @ss: the state.
 * @src: @len bytes of ciphertext (tag included when a key is set).
 * @len: ciphertext length.
 * @dst: plaintext out, @len - 16 bytes with a key, else @len.
 *
 * h is updated only if decryption succeeds.
 * Return: 0, -EBADMSG or another error of the AEAD.
 */
int noise_decrypt_and_hash(struct noise_symmetric *ss, const u8 *src, size_t len,
			   u8 *dst)
{
	u8 new_h[NOISE_MAX_HASHLEN];
	int err;

	noise_hash(ss->hash, new_h, ss->h, ss->hash_len, src, len);
	err = noise_cipher_crypt_buf(ss->cs, false, ss->h, ss->hash_len, src, dst, len);
	if (!err)
		memcpy(ss->h, new_h, ss->hash_len);
	return err;
}

/* Split(): k1, k2 = HKDF(ck, "", 2), each truncated to 32 bytes by the caller. */
void noise_symmetric_split(struct noise_symmetric *ss, u8 *k1, u8 *k2)
{
	noise_hkdf(ss->hash, ss->ck, NULL, 0, k1, k2, NULL);
}
