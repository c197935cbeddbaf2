// SPDX-License-Identifier: GPL-2.0
/*
 * The transport API on a CipherState after Split(): in-place encryption and
 * decryption of linear buffers and scatterlists, synchronous (may sleep,
 * waits for asynchronous drivers) or asynchronous with a completion
 * callback (never sleeps, for softirq callers).
 */

#include <linux/export.h>
#include <linux/slab.h>
#include <linux/version.h>
#include "cipher.h"

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

static void noise_async_finish(struct noise_crypt_req *r, int err)
{
	if (err == -EINPROGRESS)	/* left the backlog; completion follows */
		return;
	r->done(r->data, err);
}

/*
 * Crypto completion callbacks get the request's data pointer since 6.3 and
 * the request itself before (Debian 12's 6.1).
 */
#if LINUX_VERSION_MAJOR > 6 || (LINUX_VERSION_MAJOR == 6 && LINUX_VERSION_PATCHLEVEL >= 3)
static void noise_async_done(void *data, int err)
{
	noise_async_finish(data, err);
}
#else
static void noise_async_done(struct crypto_async_request *areq, int err)
{
	noise_async_finish(areq->data, err);
}
#endif

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
 * Context: process or softirq (not hard-irq: the crypto API refuses AEAD
 * requests there); never sleeps.
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
 * Context: as noise_cipher_encrypt_async().
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
