// SPDX-License-Identifier: GPL-2.0
/*
 * CipherState over the crypto API AEADs rfc7539(chacha20,poly1305) and
 * gcm(aes): allocation, InitializeKey, nonce encoding, EncryptWithAd and
 * DecryptWithAd, Rekey and SetNonce. One tfm and one request per
 * CipherState, allocated when the state is created; no allocation per
 * message. Synchronous operations wait for asynchronous drivers
 * (crypto_wait_req) and so may sleep. The transport API is in transport.c.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "cipher.h"

static const char * const noise_aead_names[NOISE_CIPHER_COUNT] = {
	[NOISE_CIPHER_CHACHAPOLY] = "rfc7539(chacha20,poly1305)",
	[NOISE_CIPHER_AESGCM] = "gcm(aes)",
};

static char noise_aead_drivers[NOISE_CIPHER_COUNT][CRYPTO_MAX_ALG_NAME];

/* ChaChaPoly: 4 zero bytes || LE64(n); AESGCM: 4 zero bytes || BE64(n). */
static void noise_nonce_encode(u8 id, u8 iv[NOISE_NONCE_LEN], u64 n)
{
	memset(iv, 0, 4);
	if (id == NOISE_CIPHER_CHACHAPOLY) {
		__le64 le = cpu_to_le64(n);

		memcpy(iv + 4, &le, sizeof(le));
	} else {
		__be64 be = cpu_to_be64(n);

		memcpy(iv + 4, &be, sizeof(be));
	}
}

/**
 * noise_aead_probe() - record which driver each AEAD name resolves to.
 *
 * Context: process context (module init).
 * Return: 0.
 */
int noise_aead_probe(void)
{
	int i;

	for (i = 0; i < NOISE_CIPHER_COUNT; i++) {
		struct crypto_aead *tfm = crypto_alloc_aead(noise_aead_names[i], 0, 0);
		char *out = noise_aead_drivers[i];

		if (IS_ERR(tfm)) {
			strscpy(out, "(unavailable)", CRYPTO_MAX_ALG_NAME);
			continue;
		}
		strscpy(out, crypto_aead_driver_name(tfm), CRYPTO_MAX_ALG_NAME);
		crypto_free_aead(tfm);
	}
	return 0;
}

/**
 * noise_aead_driver_name() - the driver the crypto API picked for a cipher.
 * @id: the cipher.
 *
 * Return: the driver name found at module load, e.g. "rfc7539(chacha20-simd,
 * poly1305-simd)", or "(unavailable)".
 */
const char *noise_aead_driver_name(enum noise_cipher_id id)
{
	if (id >= NOISE_CIPHER_COUNT)
		return "(invalid)";
	return noise_aead_drivers[id];
}
EXPORT_SYMBOL_GPL(noise_aead_driver_name);

/**
 * noise_cipher_driver_name() - the AEAD driver of a cipher state.
 * @c: the cipher state.
 * Return: the driver name.
 */
const char *noise_cipher_driver_name(const struct noise_cipher *c)
{
	return crypto_aead_driver_name(c->tfm);
}
EXPORT_SYMBOL_GPL(noise_cipher_driver_name);

struct noise_crypt_req *noise_req_alloc(struct noise_cipher *c, gfp_t gfp)
{
	struct noise_crypt_req *r;

	r = kzalloc(sizeof(*r) + crypto_aead_reqsize(c->tfm), gfp);
	if (!r)
		return NULL;
	r->c = c;
	aead_request_set_tfm(&r->req, c->tfm);
	return r;
}

/**
 * noise_cipher_alloc() - a cipher state without a key (InitializeKey(empty)).
 * @id: the cipher.
 * @gfp: allocation flags for the state; the tfm is allocated with GFP_KERNEL.
 *
 * Context: process context, may sleep.
 * Return: the state or NULL.
 */
struct noise_cipher *noise_cipher_alloc(enum noise_cipher_id id, gfp_t gfp)
{
	struct noise_cipher *c;

	if (id >= NOISE_CIPHER_COUNT)
		return NULL;
	c = kzalloc(sizeof(*c), gfp);
	if (!c)
		return NULL;
	c->id = id;
	c->tfm = crypto_alloc_aead(noise_aead_names[id], 0, 0);
	if (IS_ERR(c->tfm)) {
		c->tfm = NULL;
		goto err;
	}
	if (crypto_aead_setauthsize(c->tfm, NOISE_TAG_LEN))
		goto err;
	c->req = noise_req_alloc(c, gfp);
	if (!c->req)
		goto err;
	return c;
err:
	noise_cipher_free(c);
	return NULL;
}

/* InitializeKey(key): k = key, n = 0. */
int noise_cipher_set_key(struct noise_cipher *c, const u8 *key)
{
	int err = crypto_aead_setkey(c->tfm, key, NOISE_KEY_LEN);

	c->n = 0;
	c->has_key = !err;
	return err;
}

/**
 * noise_cipher_new() - a transport cipher state with key @key and n = 0.
 * @id: the cipher.
 * @key: 32-byte key.
 * @gfp: allocation flags for the state.
 *
 * Context: process context, may sleep.
 * Return: the state, ERR_PTR(-ENOMEM) or ERR_PTR(-EINVAL).
 */
struct noise_cipher *noise_cipher_new(enum noise_cipher_id id, const u8 *key,
				      gfp_t gfp)
{
	struct noise_cipher *c = noise_cipher_alloc(id, gfp);

	if (!c)
		return ERR_PTR(id >= NOISE_CIPHER_COUNT ? -EINVAL : -ENOMEM);
	if (noise_cipher_set_key(c, key)) {
		noise_cipher_free(c);
		return ERR_PTR(-EINVAL);
	}
	return c;
}
EXPORT_SYMBOL_GPL(noise_cipher_new);

/**
 * noise_cipher_free() - destroy a cipher state; the key is wiped.
 * @c: the state, or NULL.
 */
void noise_cipher_free(struct noise_cipher *c)
{
	if (!c)
		return;
	kfree_sensitive(c->req);
	crypto_free_aead(c->tfm);	/* frees the key with kfree_sensitive */
	kfree_sensitive(c);
}
EXPORT_SYMBOL_GPL(noise_cipher_free);

int noise_submit(struct noise_crypt_req *r, bool enc, struct scatterlist *src,
		 struct scatterlist *dst, unsigned int ad_len, unsigned int len,
		 u64 n, u32 flags, crypto_completion_t cb, void *cb_data)
{
	noise_nonce_encode(r->c->id, r->iv, n);
	aead_request_set_callback(&r->req, flags, cb, cb_data);
	aead_request_set_ad(&r->req, ad_len);
	aead_request_set_crypt(&r->req, src, dst, len, r->iv);
	return enc ? crypto_aead_encrypt(&r->req) : crypto_aead_decrypt(&r->req);
}

/* One synchronous AEAD operation with nonce @n; waits for async drivers. */
static int noise_run(struct noise_cipher *c, bool enc, struct scatterlist *src,
		     struct scatterlist *dst, unsigned int ad_len,
		     unsigned int len, u64 n)
{
	DECLARE_CRYPTO_WAIT(wait);
	int err;

	err = noise_submit(c->req, enc, src, dst, ad_len, len, n,
			   CRYPTO_TFM_REQ_MAY_SLEEP | CRYPTO_TFM_REQ_MAY_BACKLOG,
			   crypto_req_done, &wait);
	return crypto_wait_req(err, &wait);
}

/*
 * EncryptWithAd/DecryptWithAd with the current nonce; n advances only on
 * success, so a failed decryption changes nothing. @len counts the tag when
 * decrypting.
 */
int noise_crypt_sg(struct noise_cipher *c, bool enc, struct scatterlist *src,
		   struct scatterlist *dst, unsigned int ad_len, unsigned int len)
{
	int err;

	if (c->n == U64_MAX)
		return -EKEYEXPIRED;
	err = noise_run(c, enc, src, dst, ad_len, len, c->n);
	if (err)
		return err;
	c->n++;
	return 0;
}

/* A scatterlist of @ad then @buf, leaving out empty parts. */
static struct scatterlist *noise_sg_pair(struct scatterlist sg[2], const u8 *ad,
					 size_t ad_len, const u8 *buf, size_t len)
{
	struct scatterlist *s = sg;

	if (!ad_len && !len)
		return NULL;
	sg_init_table(sg, !!ad_len + !!len);
	if (ad_len)
		sg_set_buf(s++, ad, ad_len);
	if (len)
		sg_set_buf(s, buf, len);
	return sg;
}

/**
 * noise_cipher_crypt_buf() - EncryptWithAd/DecryptWithAd on linear buffers.
 * @c: the cipher state.
 * @enc: encrypt (else decrypt).
 * @ad: associated data.
 * @ad_len: its length.
 * @src: input: @len bytes (plaintext, or ciphertext with its tag).
 * @dst: output: @len + 16 bytes when encrypting, @len - 16 when decrypting;
 *	may equal @src.
 * @len: input length.
 *
 * Without a key the data is copied unchanged (handshake only).
 * Return: 0, -EKEYEXPIRED (nonce exhausted), -EBADMSG (authentication).
 */
int noise_cipher_crypt_buf(struct noise_cipher *c, bool enc, const u8 *ad,
			   size_t ad_len, const u8 *src, u8 *dst, size_t len)
{
	struct scatterlist sg_src[2], sg_dst[2], *s, *d;
	size_t out_len;

	if (!c->has_key) {
		if (len)
			memmove(dst, src, len);
		return 0;
	}
	if (!enc && len < NOISE_TAG_LEN)
		return -EBADMSG;
	out_len = enc ? len + NOISE_TAG_LEN : len - NOISE_TAG_LEN;
	s = noise_sg_pair(sg_src, ad, ad_len, src,
			  enc && src == dst ? out_len : len);
	d = src == dst ? s : noise_sg_pair(sg_dst, ad, ad_len, dst, out_len);
	return noise_crypt_sg(c, enc, s, d ? d : s, ad_len, len);
}

/**
 * noise_cipher_rekey() - Rekey(): k = the first 32 bytes of
 * ENCRYPT(k, 2^64-1, "", 32 zero bytes); n is unchanged.
 * @c: the cipher state.
 *
 * Context: process context; may sleep. Not while requests are in flight.
 * Return: 0 or a negative errno from the crypto API.
 */
int noise_cipher_rekey(struct noise_cipher *c)
{
	struct scatterlist sg;
	int err;

	if (!c->has_key)
		return -EINVAL;
	memset(c->scratch, 0, sizeof(c->scratch));
	sg_init_one(&sg, c->scratch, sizeof(c->scratch));
	err = noise_run(c, true, &sg, &sg, 0, NOISE_KEY_LEN, U64_MAX);
	if (!err)
		err = crypto_aead_setkey(c->tfm, c->scratch, NOISE_KEY_LEN);
	memzero_explicit(c->scratch, sizeof(c->scratch));
	return err;
}
EXPORT_SYMBOL_GPL(noise_cipher_rekey);

/**
 * noise_cipher_set_nonce() - SetNonce(n), for explicit-nonce transports.
 * @c: the cipher state.
 * @n: the next nonce; U64_MAX makes every later operation fail.
 *
 * The caller must track accepted nonces and reject replays (section 11.4).
 */
void noise_cipher_set_nonce(struct noise_cipher *c, u64 n)
{
	c->n = n;
}
EXPORT_SYMBOL_GPL(noise_cipher_set_nonce);

/**
 * noise_cipher_nonce() - the next nonce.
 * @c: the cipher state.
 * Return: n.
 */
u64 noise_cipher_nonce(const struct noise_cipher *c)
{
	return c->n;
}
EXPORT_SYMBOL_GPL(noise_cipher_nonce);
