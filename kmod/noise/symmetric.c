// SPDX-License-Identifier: GPL-2.0
/*
 * SymmetricState: ck, h and a CipherState, as section 5.2 defines them.
 * Nothing here allocates or sleeps.
 */

#include <linux/string.h>
#include "hash.h"
#include "symmetric.h"

/* No key; @proto's cipher and hash; h zero, ck not set. */
static void noise_symmetric_reset(struct noise_symmetric *ss,
				  const struct noise_protocol *proto)
{
	memset(&ss->cs, 0, sizeof(ss->cs));
	ss->key_pending = false;
	ss->cs.id = proto->cipher;
	ss->hash = proto->hash;
	ss->hash_len = noise_hash_len(proto->hash);
	memset(ss->h, 0, sizeof(ss->h));
}

/* InitializeSymmetric(protocol_name); the CipherState has no key. */
void noise_symmetric_init(struct noise_symmetric *ss,
			  const struct noise_protocol *proto)
{
	noise_symmetric_reset(ss, proto);
	/* h = name padded with zeros to HASHLEN, or HASH(name). */
	if (proto->name_len <= ss->hash_len)
		memcpy(ss->h, proto->name, proto->name_len);
	else
		noise_hash(ss->hash, ss->h, proto->name, proto->name_len, NULL, 0);
	memcpy(ss->ck, ss->h, ss->hash_len);
}

/* InitializeSymmetric() resumed: h and ck as a template saved them. */
void noise_symmetric_init_at(struct noise_symmetric *ss,
			     const struct noise_protocol *proto,
			     const u8 *h, const u8 *ck)
{
	noise_symmetric_reset(ss, proto);
	memcpy(ss->h, h, ss->hash_len);
	memcpy(ss->ck, ck, ss->hash_len);
}

/* Wipe ck and the key; h survives for GetHandshakeHash. */
void noise_symmetric_destroy(struct noise_symmetric *ss)
{
	memzero_explicit(&ss->cs, sizeof(ss->cs));
	memzero_explicit(ss->ck, sizeof(ss->ck));
	memzero_explicit(&ss->prk, sizeof(ss->prk));
	ss->key_pending = false;
}

/* MixHash(data): h = HASH(h || data). */
void noise_mix_hash(struct noise_symmetric *ss, const u8 *data, size_t len)
{
	noise_hash(ss->hash, ss->h, ss->h, ss->hash_len, data, len);
}

/* InitializeKey(k): the first 32 bytes of @k, n = 0. */
static void noise_hs_set_key(struct noise_hs_cipher *cs, const u8 *k)
{
	memcpy(cs->k, k, NOISE_KEY_LEN);
	cs->n = 0;
	cs->has_key = true;
}

/*
 * MixKey(ikm): ck, temp_k = HKDF(ck, ikm, 2); InitializeKey(temp_k[:32]).
 * HKDF's second output, the key, is derived when the key is first used
 * (noise_key_ready()): after an e token of a PSK pattern or before
 * another DH token, the next MixKey replaces it unused, and its HMAC is
 * saved. Until then ck is HKDF's first output, which the derivation needs.
 */
void noise_mix_key(struct noise_symmetric *ss, const u8 *ikm, size_t len)
{
	noise_hkdf_extract(ss->hash, ss->ck, ikm, len, &ss->prk);
	noise_hkdf_expand(ss->hash, &ss->prk, NULL, 1, ss->ck);
	memzero_explicit(ss->cs.k, sizeof(ss->cs.k));
	ss->cs.n = 0;
	ss->cs.has_key = true;
	ss->key_pending = true;
}

/* The key of the last MixKey, if not derived yet: HKDF's second output. */
static void noise_key_ready(struct noise_symmetric *ss)
{
	u8 temp_k[NOISE_MAX_HASHLEN];

	if (!ss->key_pending)
		return;
	noise_hkdf_expand(ss->hash, &ss->prk, ss->ck, 2, temp_k);
	noise_hs_set_key(&ss->cs, temp_k);	/* n is still 0: the key was not used */
	memzero_explicit(temp_k, sizeof(temp_k));
	memzero_explicit(&ss->prk, sizeof(ss->prk));
	ss->key_pending = false;
}

/* MixKeyAndHash(ikm): ck, temp_h, temp_k = HKDF(ck, ikm, 3). */
void noise_mix_key_and_hash(struct noise_symmetric *ss, const u8 *ikm, size_t len)
{
	u8 temp_h[NOISE_MAX_HASHLEN], temp_k[NOISE_MAX_HASHLEN];

	noise_hkdf(ss->hash, ss->ck, ikm, len, ss->ck, temp_h, temp_k);
	noise_mix_hash(ss, temp_h, ss->hash_len);
	noise_hs_set_key(&ss->cs, temp_k);
	memzero_explicit(&ss->prk, sizeof(ss->prk));
	ss->key_pending = false;
	memzero_explicit(temp_h, sizeof(temp_h));
	memzero_explicit(temp_k, sizeof(temp_k));
}

/**
 * noise_encrypt_and_hash() - EncryptAndHash(plaintext), in place.
 * @ss: the state.
 * @buf: @len bytes of plaintext with room for 16 more.
 * @len: plaintext length.
 * @out_len: ciphertext length out (@len, or @len + 16 with a key).
 *
 * Return: 0 or -EKEYEXPIRED.
 */
int noise_encrypt_and_hash(struct noise_symmetric *ss, u8 *buf, size_t len,
			   size_t *out_len)
{
	int err;

	noise_key_ready(ss);
	err = noise_hs_cipher_crypt(&ss->cs, true, ss->h, ss->hash_len, buf, buf, len);
	if (err)
		return err;
	*out_len = len + (ss->cs.has_key ? NOISE_TAG_LEN : 0);
	noise_mix_hash(ss, buf, *out_len);
	return 0;
}

/**
 * noise_decrypt_and_hash() - DecryptAndHash(ciphertext).
 * @ss: the state.
 * @src: @len bytes of ciphertext (tag included when a key is set).
 * @len: ciphertext length.
 * @dst: plaintext out, @len - 16 bytes with a key, else @len; may be @src.
 *
 * h is updated only if decryption succeeds; on failure @dst is untouched.
 * Return: 0, -EBADMSG or -EKEYEXPIRED.
 */
int noise_decrypt_and_hash(struct noise_symmetric *ss, const u8 *src, size_t len,
			   u8 *dst)
{
	u8 new_h[NOISE_MAX_HASHLEN];
	int err;

	noise_key_ready(ss);
	noise_hash(ss->hash, new_h, ss->h, ss->hash_len, src, len);
	err = noise_hs_cipher_crypt(&ss->cs, false, ss->h, ss->hash_len, src, dst, len);
	if (!err)
		memcpy(ss->h, new_h, ss->hash_len);
	return err;
}

/* Split(): k1, k2 = HKDF(ck, "", 2), each truncated to 32 bytes by the caller. */
void noise_symmetric_split(struct noise_symmetric *ss, u8 *k1, u8 *k2)
{
	noise_hkdf(ss->hash, ss->ck, NULL, 0, k1, k2, NULL);
}
