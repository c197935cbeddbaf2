// SPDX-License-Identifier: GPL-2.0
/*
 * The handshake's CipherState (rev 34 section 5.1) on the kernel's crypto
 * library instead of crypto API transforms, so that creating a handshake
 * allocates no transform: ChaChaPoly is lib/crypto's chacha20poly1305
 * (nonce 0^32 || LE64(n), as Noise wants), AESGCM is the small GCM below
 * on the AES library and gf128mul_lle() (nonce 0^32 || BE64(n)).
 *
 * The GCM code follows lib/crypto/aesgcm.c (Copyright 2022 Google LLC),
 * which is only built with CONFIG_CRYPTO_LIB_AESGCM (not in 6.1, and not
 * selected by the test kernels): AES blocks with interrupts disabled (the
 * AES library's cache-timing mitigation works best that way), GHASH with
 * the time-invariant gf128mul_lle(). Handshake messages are short, so
 * speed matters little here; the key schedule is expanded on the stack for
 * each message and wiped.
 */

#include <crypto/aes.h>
#include <crypto/algapi.h>
#include <crypto/chacha20poly1305.h>
#include <crypto/gf128mul.h>
#include <linux/irqflags.h>
#include <linux/export.h>
#include <linux/string.h>
#include "symmetric.h"

#define NOISE_GCM_BLOCK 16

static void noise_gcm_block(const struct crypto_aes_ctx *aes, void *dst,
			    const void *src)
{
	unsigned long flags;

	local_irq_save(flags);
	aes_encrypt(aes, dst, src);
	local_irq_restore(flags);
}

static void noise_ghash(be128 *acc, const be128 *key, const u8 *src, size_t len)
{
	while (len) {
		size_t n = min_t(size_t, len, NOISE_GCM_BLOCK);

		crypto_xor((u8 *)acc, src, n);
		gf128mul_lle(acc, key);
		src += n;
		len -= n;
	}
}

/* The tag of ciphertext @ct under (@aes, @hkey) with counter block @ctr. */
static void noise_gcm_tag(const struct crypto_aes_ctx *aes, const be128 *hkey,
			  __be32 ctr[4], const u8 *ad, size_t ad_len,
			  const u8 *ct, size_t len, u8 tag[NOISE_TAG_LEN])
{
	be128 tail = { cpu_to_be64((u64)ad_len * 8), cpu_to_be64((u64)len * 8) };
	be128 acc = {};
	u8 buf[NOISE_GCM_BLOCK];

	noise_ghash(&acc, hkey, ad, ad_len);
	noise_ghash(&acc, hkey, ct, len);
	noise_ghash(&acc, hkey, (const u8 *)&tail, sizeof(tail));
	ctr[3] = cpu_to_be32(1);
	noise_gcm_block(aes, buf, ctr);
	crypto_xor_cpy(tag, buf, (const u8 *)&acc, NOISE_TAG_LEN);
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(buf, sizeof(buf));
}

static void noise_gcm_ctr(const struct crypto_aes_ctx *aes, __be32 ctr[4],
			  const u8 *src, u8 *dst, size_t len)
{
	u8 buf[NOISE_GCM_BLOCK];
	u32 i = 2;

	while (len) {
		size_t n = min_t(size_t, len, NOISE_GCM_BLOCK);

		ctr[3] = cpu_to_be32(i++);
		noise_gcm_block(aes, buf, ctr);
		crypto_xor_cpy(dst, src, buf, n);
		src += n;
		dst += n;
		len -= n;
	}
	memzero_explicit(buf, sizeof(buf));
}

/* AES-256-GCM with a 16-byte tag; @len is the plaintext length. */
static bool noise_aesgcm(bool enc, const u8 key[NOISE_KEY_LEN], u64 n,
			 const u8 *ad, size_t ad_len, const u8 *src, u8 *dst,
			 size_t len)
{
	static const u8 zero[NOISE_GCM_BLOCK];
	struct crypto_aes_ctx aes;
	u8 tag[NOISE_TAG_LEN];
	__be32 ctr[4];
	be128 hkey;
	bool ok = true;

	aes_expandkey(&aes, key, NOISE_KEY_LEN);
	noise_gcm_block(&aes, &hkey, zero);
	ctr[0] = 0;
	ctr[1] = cpu_to_be32(upper_32_bits(n));
	ctr[2] = cpu_to_be32(lower_32_bits(n));
	if (enc) {
		noise_gcm_ctr(&aes, ctr, src, dst, len);
		noise_gcm_tag(&aes, &hkey, ctr, ad, ad_len, dst, len, dst + len);
	} else {
		noise_gcm_tag(&aes, &hkey, ctr, ad, ad_len, src, len, tag);
		ok = !crypto_memneq(tag, src + len, NOISE_TAG_LEN);
		if (ok)
			noise_gcm_ctr(&aes, ctr, src, dst, len);
	}
	memzero_explicit(&aes, sizeof(aes));
	memzero_explicit(&hkey, sizeof(hkey));
	memzero_explicit(tag, sizeof(tag));
	return ok;
}

/**
 * noise_hs_cipher_crypt() - EncryptWithAd/DecryptWithAd of a handshake.
 * @cs: the cipher state.
 * @enc: encrypt (else decrypt).
 * @ad: associated data.
 * @ad_len: its length.
 * @src: input: @len bytes (plaintext, or ciphertext with its tag).
 * @dst: output: @len + 16 bytes when encrypting, @len - 16 when decrypting;
 *	may equal @src.
 * @len: input length.
 *
 * Without a key the data is copied unchanged. A failed decryption writes
 * nothing to @dst and leaves n as it was.
 * Context: any; never sleeps.
 * Return: 0, -EKEYEXPIRED (nonce exhausted), -EBADMSG (authentication).
 */
int noise_hs_cipher_crypt(struct noise_hs_cipher *cs, bool enc, const u8 *ad,
			  size_t ad_len, const u8 *src, u8 *dst, size_t len)
{
	bool ok = true;

	if (!cs->has_key) {
		if (len)
			memmove(dst, src, len);
		return 0;
	}
	if (cs->n == U64_MAX)
		return -EKEYEXPIRED;
	if (!enc && len < NOISE_TAG_LEN)
		return -EBADMSG;
	if (cs->id == NOISE_CIPHER_CHACHAPOLY) {
		if (enc)
			chacha20poly1305_encrypt(dst, src, len, ad, ad_len, cs->n, cs->k);
		else
			ok = chacha20poly1305_decrypt(dst, src, len, ad, ad_len,
						      cs->n, cs->k);
	} else {
		ok = noise_aesgcm(enc, cs->k, cs->n, ad, ad_len, src, dst,
				  enc ? len : len - NOISE_TAG_LEN);
	}
	if (!ok)
		return -EBADMSG;
	cs->n++;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_hs_cipher_crypt, NOISE_INTERNAL);
