// SPDX-License-Identifier: GPL-2.0
/*
 * CipherState over the crypto API AEADs rfc7539(chacha20,poly1305) and
 * gcm(aes). One tfm and one request per CipherState, allocated when the
 * state is created; no allocation per message. The synchronous calls wait
 * for asynchronous drivers (crypto_wait_req) and so may sleep; the _async
 * calls return at once and report through a callback.
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

		if (IS_ERR(tfm)) {
			strscpy(noise_aead_drivers[i], "(unavailable)");
			continue;
		}
		strscpy(noise_aead_drivers[i], crypto_aead_driver_name(tfm));
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

static struct noise_crypt_req *noise_req_alloc(struct noise_cipher *c, gfp_t gfp)
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

static int noise_submit(struct noise_crypt_req *r, bool enc, struct scatterlist *src,
			struct scatterlist *dst, unsigned int ad_len,
			unsigned int len, u64 n, u32 flags,
			crypto_completion_t cb, void *cb_data)
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
static int noise_crypt_sg(struct noise_cipher *c, bool enc, struct scatterlist *src,
			  struct scatterlist *dst, unsigned int ad_len,
			  unsigned int len)
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
 * noise_cipher_encrypt() - encrypt a transport message in place.
 * @c: the cipher state.
 * @ad: associated data (empty for plain Noise transport messages).
 * @ad_len: its length.
 * @buf: @len bytes of plaintext, with room for @len + 16 bytes.
 * @len: plaintext length, at most NOISE_MAX_PAYLOAD_LEN.
 *
 * On success @buf holds @len + 16 bytes of ciphertext and n advanced by one.
 * Context: process context; may sleep (waits for asynchronous drivers).
 * The caller serializes calls on one cipher state.
 * Return: 0; -EMSGSIZE if @len is too large; -EKEYEXPIRED once n reached
 * 2^64-1 (end the session); another negative errno from the crypto API.
 */
int noise_cipher_encrypt(struct noise_cipher *c, const u8 *ad, size_t ad_len,
			 u8 *buf, size_t len)
{
	if (len > NOISE_MAX_PAYLOAD_LEN)
		return -EMSGSIZE;
	return noise_cipher_crypt_buf(c, true, ad, ad_len, buf, buf, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt);

/**
 * noise_cipher_decrypt() - decrypt a transport message in place.
 * @c: the cipher state.
 * @ad: associated data.
 * @ad_len: its length.
 * @buf: @len bytes of ciphertext (tag included).
 * @len: ciphertext length, 16 to 65535.
 *
 * On success @buf starts with @len - 16 bytes of plaintext and n advanced.
 * On failure n is unchanged and the contents of @buf are undefined.
 * Context: process context; may sleep. The caller serializes calls.
 * Return: 0; -EMSGSIZE if @len exceeds 65535; -EBADMSG if the message is
 * too short or not authentic; -EKEYEXPIRED once n reached 2^64-1.
 */
int noise_cipher_decrypt(struct noise_cipher *c, const u8 *ad, size_t ad_len,
			 u8 *buf, size_t len)
{
	if (len > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	return noise_cipher_crypt_buf(c, false, ad, ad_len, buf, buf, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt);

/**
 * noise_cipher_encrypt_sg() - encrypt in place, scatterlist version.
 * @c: the cipher state.
 * @sg: @ad_len bytes of AD, then @len bytes of plaintext, then room for the
 *	16-byte tag.
 * @ad_len: AD length.
 * @len: plaintext length, at most NOISE_MAX_PAYLOAD_LEN.
 *
 * Context and errors as noise_cipher_encrypt().
 * Return: 0 or a negative errno.
 */
int noise_cipher_encrypt_sg(struct noise_cipher *c, struct scatterlist *sg,
			    unsigned int ad_len, unsigned int len)
{
	if (len > NOISE_MAX_PAYLOAD_LEN)
		return -EMSGSIZE;
	return noise_crypt_sg(c, true, sg, sg, ad_len, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt_sg);

/**
 * noise_cipher_decrypt_sg() - decrypt in place, scatterlist version.
 * @c: the cipher state.
 * @sg: @ad_len bytes of AD, then @len bytes of ciphertext (tag included).
 * @ad_len: AD length.
 * @len: ciphertext length, 16 to 65535.
 *
 * Context and errors as noise_cipher_decrypt().
 * Return: 0 or a negative errno.
 */
int noise_cipher_decrypt_sg(struct noise_cipher *c, struct scatterlist *sg,
			    unsigned int ad_len, unsigned int len)
{
	if (len > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	if (len < NOISE_TAG_LEN)
		return -EBADMSG;
	return noise_crypt_sg(c, false, sg, sg, ad_len, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_sg);

/**
 * noise_crypt_req_alloc() - a request for the asynchronous calls.
 * @c: the cipher state the request will be used with (only that one).
 * @gfp: allocation flags.
 *
 * Allocate a pool of these up front, one per operation in flight.
 * Return: the request or NULL.
 */
struct noise_crypt_req *noise_crypt_req_alloc(struct noise_cipher *c, gfp_t gfp)
{
	return noise_req_alloc(c, gfp);
}
EXPORT_SYMBOL_GPL(noise_crypt_req_alloc);

/**
 * noise_crypt_req_free() - free a request that is not in flight.
 * @r: the request, or NULL.
 */
void noise_crypt_req_free(struct noise_crypt_req *r)
{
	kfree_sensitive(r);
}
EXPORT_SYMBOL_GPL(noise_crypt_req_free);

static void noise_async_done(void *data, int err)
{
	struct noise_crypt_req *r = data;

	if (err == -EINPROGRESS)	/* left the backlog; completion follows */
		return;
	r->done(r->data, err);
}

static int noise_crypt_async(struct noise_cipher *c, struct noise_crypt_req *r,
			     bool enc, struct scatterlist *sg, unsigned int ad_len,
			     unsigned int len, noise_crypt_done_t done, void *data)
{
	u64 n = c->n;
	int err;

	if (r->c != c)
		return -EINVAL;
	if (n == U64_MAX)
		return -EKEYEXPIRED;
	c->n++;		/* consumed at submission, whatever the outcome */
	r->done = done;
	r->data = data;
	err = noise_submit(r, enc, sg, sg, ad_len, len, n, CRYPTO_TFM_REQ_MAY_BACKLOG,
			   noise_async_done, r);
	return err == -EBUSY ? -EINPROGRESS : err;
}

/**
 * noise_cipher_encrypt_async() - encrypt without sleeping.
 * @c: the cipher state.
 * @r: a request from noise_crypt_req_alloc(@c) that is not in flight.
 * @sg: as for noise_cipher_encrypt_sg().
 * @ad_len: AD length.
 * @len: plaintext length.
 * @done: called once when the return value is -EINPROGRESS, possibly from
 *	another context (softirq or a cryptd worker); not called otherwise.
 * @data: argument of @done.
 *
 * The nonce is taken and n advanced at submission, even if the operation
 * later fails: a later call uses the next nonce. Concurrent calls on one
 * cipher state must still be serialized by the caller (n is not atomic).
 * Context: any, including softirq; never sleeps.
 * Return: 0 (done, @done not called), -EINPROGRESS (@done will be called),
 * -EMSGSIZE, -EKEYEXPIRED, -EINVAL (request of another state).
 */
int noise_cipher_encrypt_async(struct noise_cipher *c, struct noise_crypt_req *r,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len, noise_crypt_done_t done,
			       void *data)
{
	if (len > NOISE_MAX_PAYLOAD_LEN)
		return -EMSGSIZE;
	return noise_crypt_async(c, r, true, sg, ad_len, len, done, data);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt_async);

/**
 * noise_cipher_decrypt_async() - decrypt without sleeping.
 * @c: the cipher state.
 * @r: a request from noise_crypt_req_alloc(@c) that is not in flight.
 * @sg: as for noise_cipher_decrypt_sg().
 * @ad_len: AD length.
 * @len: ciphertext length (tag included).
 * @done: as for noise_cipher_encrypt_async(); err -EBADMSG on forgery.
 * @data: argument of @done.
 *
 * The nonce is consumed at submission even if authentication fails; with
 * explicit nonces (section 11.4) call noise_cipher_set_nonce() first.
 * Context: any; never sleeps.
 * Return: as noise_cipher_encrypt_async(), or -EBADMSG.
 */
int noise_cipher_decrypt_async(struct noise_cipher *c, struct noise_crypt_req *r,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len, noise_crypt_done_t done,
			       void *data)
{
	if (len > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	if (len < NOISE_TAG_LEN)
		return -EBADMSG;
	return noise_crypt_async(c, r, false, sg, ad_len, len, done, data);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_async);

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
