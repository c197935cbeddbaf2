// SPDX-License-Identifier: GPL-2.0
/*
 * The transport API on a CipherState after Split(): in-place encryption and
 * decryption of linear buffers and scatterlists. Two families:
 *
 *  - stateful calls (noise_cipher_encrypt() ...): the nonce is the state's
 *    n, which advances on success, as in section 5.1; the caller serializes
 *    them on one state;
 *  - explicit-counter calls (noise_cipher_encrypt_at() ...): the caller
 *    passes the nonce (from noise_cipher_take_nonce() when sending, from
 *    the message header when receiving); they change no shared state but
 *    the usage counts, so any number may run at once on one state.
 *
 * Each family has synchronous forms (may sleep: they wait for asynchronous
 * drivers) and asynchronous ones with a completion callback, which never
 * sleep and run in softirq context too.
 */

#include <linux/export.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "compat.h"
#include "cipher.h"

/* A scatterlist of @ad then @buf, leaving out empty parts. */
static struct scatterlist *noise_sg_pair(struct scatterlist sg[2], const u8 *ad,
					 size_t ad_len, u8 *buf, size_t len)
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

/* Size checks common to every call; @len counts the tag when decrypting. */
static int noise_check_len(bool enc, size_t len)
{
	if (enc)
		return len > NOISE_MAX_PAYLOAD_LEN ? -EMSGSIZE : 0;
	if (len > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	return len < NOISE_TAG_LEN ? -EBADMSG : 0;
}

/* A stateful synchronous operation: nonce n, advanced on success only. */
static int noise_stateful(struct noise_cipher *c, bool enc, struct scatterlist *sg,
			  unsigned int ad_len, unsigned int len)
{
	u64 n = atomic64_read(&c->n);
	int err;

	if (n == U64_MAX)
		return -EKEYEXPIRED;
	err = noise_crypt_sync(c, true, enc, sg, sg, ad_len, len, n);
	if (err)
		return err;
	atomic64_set(&c->n, n + 1);
	atomic64_inc(enc ? &c->sent : &c->received);
	return 0;
}

/* An explicit-nonce synchronous operation. */
static int noise_at(struct noise_cipher *c, bool enc, u64 n, struct scatterlist *sg,
		    unsigned int ad_len, unsigned int len)
{
	int err;

	if (n == U64_MAX)
		return -EINVAL;
	err = noise_crypt_sync(c, false, enc, sg, sg, ad_len, len, n);
	if (!err && !enc)
		atomic64_inc(&c->received);
	return err;
}

static int noise_buf(struct noise_cipher *c, bool enc, bool at, u64 n,
		     const u8 *ad, size_t ad_len, u8 *buf, size_t len)
{
	struct scatterlist sg[2], *s;
	int err = noise_check_len(enc, len);

	if (err)
		return err;
	if (ad_len > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	/* The crypto API does not write through the AD entry. */
	s = noise_sg_pair(sg, ad, ad_len, buf, enc ? len + NOISE_TAG_LEN : len);
	return at ? noise_at(c, enc, n, s, ad_len, len) :
		    noise_stateful(c, enc, s, ad_len, len);
}

/**
 * noise_cipher_encrypt() - encrypt a transport message in place (stateful).
 * @c: the cipher state.
 * @ad: associated data (empty for plain Noise transport messages).
 * @ad_len: its length.
 * @buf: @len bytes of plaintext, with room for @len + 16 bytes.
 * @len: plaintext length, at most NOISE_MAX_PAYLOAD_LEN.
 *
 * On success @buf holds @len + 16 bytes of ciphertext and n advanced by one.
 * Context: process context; may sleep (waits for asynchronous drivers).
 * The caller serializes stateful calls on one cipher state.
 * Return: 0; -EMSGSIZE if @len is too large; -EKEYEXPIRED once n reached
 * 2^64-1 (end the session); another negative errno from the crypto API.
 */
int noise_cipher_encrypt(struct noise_cipher *c, const u8 *ad, size_t ad_len,
			 u8 *buf, size_t len)
{
	return noise_buf(c, true, false, 0, ad, ad_len, buf, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt);

/**
 * noise_cipher_decrypt() - decrypt a transport message in place (stateful).
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
	return noise_buf(c, false, false, 0, ad, ad_len, buf, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt);

/**
 * noise_cipher_encrypt_at() - encrypt in place with nonce @n.
 * @c: the cipher state.
 * @n: the nonce, normally from noise_cipher_take_nonce(); never 2^64-1.
 * @ad: associated data.
 * @ad_len: its length.
 * @buf: @len bytes of plaintext, with room for @len + 16 bytes.
 * @len: plaintext length, at most NOISE_MAX_PAYLOAD_LEN.
 *
 * Uses no shared mutable state of @c: any number of calls, on any CPUs,
 * may run at once on one state. Using a nonce twice with one key breaks
 * the cipher: the caller makes every @n unique (noise_cipher_take_nonce()).
 * Does not count a message (noise_cipher_take_nonce() did).
 * Context: process context; may sleep (waits for asynchronous drivers).
 * Return: 0; -EINVAL if @n is 2^64-1; -EMSGSIZE; a crypto API error.
 */
int noise_cipher_encrypt_at(struct noise_cipher *c, u64 n, const u8 *ad,
			    size_t ad_len, u8 *buf, size_t len)
{
	return noise_buf(c, true, true, n, ad, ad_len, buf, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt_at);

/**
 * noise_cipher_decrypt_at() - decrypt in place with nonce @n.
 * @c: the cipher state.
 * @n: the nonce of the message (from its header); never 2^64-1.
 * @ad: associated data.
 * @ad_len: its length.
 * @buf: @len bytes of ciphertext (tag included).
 * @len: ciphertext length, 16 to 65535.
 *
 * As noise_cipher_encrypt_at(), concurrent calls are fine. A failure
 * changes nothing (the contents of @buf are then undefined); a success
 * counts one message received. The caller rejects replays
 * (struct noise_replay: check before, update after this call).
 * Context: process context; may sleep.
 * Return: 0; -EINVAL if @n is 2^64-1; -EMSGSIZE; -EBADMSG (too short or
 * not authentic); a crypto API error.
 */
int noise_cipher_decrypt_at(struct noise_cipher *c, u64 n, const u8 *ad,
			    size_t ad_len, u8 *buf, size_t len)
{
	return noise_buf(c, false, true, n, ad, ad_len, buf, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_at);

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
	int err = noise_check_len(true, len);

	return err ?: noise_stateful(c, true, sg, ad_len, len);
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
	int err = noise_check_len(false, len);

	return err ?: noise_stateful(c, false, sg, ad_len, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_sg);

/**
 * noise_cipher_encrypt_sg_at() - encrypt in place with nonce @n, scatterlist.
 * @c: the cipher state.
 * @n: the nonce (noise_cipher_take_nonce()).
 * @sg: AD, plaintext and room for the tag, as for noise_cipher_encrypt_sg().
 * @ad_len: AD length.
 * @len: plaintext length.
 *
 * Context, concurrency and errors as noise_cipher_encrypt_at().
 * Return: 0 or a negative errno.
 */
int noise_cipher_encrypt_sg_at(struct noise_cipher *c, u64 n,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len)
{
	int err = noise_check_len(true, len);

	return err ?: noise_at(c, true, n, sg, ad_len, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt_sg_at);

/**
 * noise_cipher_decrypt_sg_at() - decrypt in place with nonce @n, scatterlist.
 * @c: the cipher state.
 * @n: the message's nonce.
 * @sg: AD then ciphertext with its tag, as for noise_cipher_decrypt_sg().
 * @ad_len: AD length.
 * @len: ciphertext length (tag included).
 *
 * Context, concurrency and errors as noise_cipher_decrypt_at().
 * Return: 0 or a negative errno.
 */
int noise_cipher_decrypt_sg_at(struct noise_cipher *c, u64 n,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len)
{
	int err = noise_check_len(false, len);

	return err ?: noise_at(c, false, n, sg, ad_len, len);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_sg_at);

/**
 * noise_crypt_req_alloc() - a request for the asynchronous calls on @c.
 * @c: the cipher state the request will be used with.
 * @gfp: allocation flags.
 *
 * The stateful asynchronous calls take only a request of their own state;
 * the explicit-counter ones take it too. Allocate one per operation in
 * flight, up front.
 * Context: any allowed by @gfp.
 * Return: the request or NULL.
 */
struct noise_crypt_req *noise_crypt_req_alloc(struct noise_cipher *c, gfp_t gfp)
{
	struct noise_crypt_req *r;

	r = noise_req_alloc(c->id, crypto_aead_reqsize(c->tfm), gfp);
	if (r)
		r->owner = c;
	return r;
}
EXPORT_SYMBOL_GPL(noise_crypt_req_alloc);

/**
 * noise_crypt_req_alloc_id() - a request for any cipher state of cipher @id.
 * @id: the cipher.
 * @gfp: allocation flags.
 *
 * Not tied to one session: the explicit-counter asynchronous calls set the
 * transform of the state they are given on each call, so a per-CPU pool of
 * these survives a rekey or a new session. Sized for the largest request
 * of the drivers seen so far for @id (at module load and by every
 * noise_cipher_new()); a state whose driver needs more (a driver registered
 * after the request was allocated) refuses it with -ENOBUFS.
 * Context: any allowed by @gfp.
 * Return: the request, or NULL (no memory, or @id invalid).
 */
struct noise_crypt_req *noise_crypt_req_alloc_id(enum noise_cipher_id id,
						 gfp_t gfp)
{
	if (id >= NOISE_CIPHER_COUNT)
		return NULL;
	return noise_req_alloc(id, noise_aead_reqsize(id), gfp);
}
EXPORT_SYMBOL_GPL(noise_crypt_req_alloc_id);

/**
 * noise_crypt_req_free() - free a request that is not in flight.
 * @r: the request, or NULL.
 *
 * Context: any.
 */
void noise_crypt_req_free(struct noise_crypt_req *r)
{
	kfree_sensitive(r);
}
EXPORT_SYMBOL_GPL(noise_crypt_req_free);

/*
 * The end of an asynchronous operation, before the caller hears of it: a
 * successful decryption counts; a failed stateful one gives its nonce back
 * if nothing was submitted on the state after it.
 */
static void noise_async_account(struct noise_crypt_req *r, int err)
{
	struct noise_cipher *c = r->c;

	if (!r->dec)
		return;
	if (!err)
		atomic64_inc(&c->received);
	else if (r->stateful)
		atomic64_cmpxchg(&c->n, r->n + 1, r->n);
}

static void noise_async_finish(struct noise_crypt_req *r, int err)
{
	if (err == -EINPROGRESS)	/* left the backlog; completion follows */
		return;
	noise_async_account(r, err);
	r->done(r->data, err);
}

/*
 * Crypto completion callbacks get the request's data pointer since 6.3 and
 * the request itself before (Debian 12's 6.1).
 */
#if NOISE_KERNEL_AT_LEAST(6, 3)
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
			     bool enc, bool stateful, u64 n, struct scatterlist *sg,
			     unsigned int ad_len, unsigned int len,
			     noise_crypt_done_t done, void *data)
{
	int err = noise_check_len(enc, len);

	if (err)
		return err;
	if (stateful ? r->owner != c : r->id != c->id)
		return -EINVAL;
	if (crypto_aead_reqsize(c->tfm) > r->cap)
		return -ENOBUFS;
	if (stateful) {
		n = atomic64_fetch_add_unless(&c->n, 1, (s64)U64_MAX);
		if (n == U64_MAX)
			return -EKEYEXPIRED;
		if (enc)
			atomic64_inc(&c->sent);
	} else if (n == U64_MAX) {
		return -EINVAL;
	}
	r->c = c;
	r->n = n;
	r->dec = !enc;
	r->stateful = stateful;
	r->done = done;
	r->data = data;
	err = noise_submit(r, c->tfm, enc, sg, sg, ad_len, len, n,
			   CRYPTO_TFM_REQ_MAY_BACKLOG,
			   noise_async_done, r);
	if (err == -EINPROGRESS || err == -EBUSY)
		return -EINPROGRESS;
	noise_async_account(r, err);
	return err;
}

/**
 * noise_cipher_encrypt_async() - encrypt without sleeping (stateful).
 * @c: the cipher state.
 * @r: a request from noise_crypt_req_alloc(@c) that is not in flight.
 * @sg: as for noise_cipher_encrypt_sg().
 * @ad_len: AD length.
 * @len: plaintext length.
 * @done: called once when the return value is -EINPROGRESS, possibly from
 *	another context (softirq or a cryptd worker); not called otherwise.
 * @data: argument of @done.
 *
 * The nonce is taken and n advanced at submission. Calls on one state are
 * serialized by the caller (several may be in flight).
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
	return noise_crypt_async(c, r, true, true, 0, sg, ad_len, len, done, data);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt_async);

/**
 * noise_cipher_decrypt_async() - decrypt without sleeping (stateful).
 * @c: the cipher state.
 * @r: a request from noise_crypt_req_alloc(@c) that is not in flight.
 * @sg: as for noise_cipher_decrypt_sg().
 * @ad_len: AD length.
 * @len: ciphertext length (tag included).
 * @done: as for noise_cipher_encrypt_async(); err -EBADMSG on forgery.
 * @data: argument of @done.
 *
 * The nonce n is taken at submission, so that several messages can be in
 * flight in order. A decryption that fails gives its nonce back (n returns
 * to it) when it is the last one submitted, so a failure with nothing
 * else in flight changes nothing, as section 5.1 asks; with later messages
 * already submitted those keep their nonces. A receiver that must survive
 * forged or reordered messages uses noise_cipher_decrypt_async_at().
 * Context: as noise_cipher_encrypt_async().
 * Return: as noise_cipher_encrypt_async(), or -EBADMSG.
 */
int noise_cipher_decrypt_async(struct noise_cipher *c, struct noise_crypt_req *r,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len, noise_crypt_done_t done,
			       void *data)
{
	return noise_crypt_async(c, r, false, true, 0, sg, ad_len, len, done, data);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_async);

/**
 * noise_cipher_encrypt_async_at() - encrypt with nonce @n, never sleeping.
 * @c: the cipher state.
 * @r: a request from noise_crypt_req_alloc_id(@c's cipher) or
 *	noise_crypt_req_alloc() of any state of that cipher, not in flight.
 * @n: the nonce (noise_cipher_take_nonce()); never 2^64-1.
 * @sg: AD, plaintext and room for the tag.
 * @ad_len: AD length.
 * @len: plaintext length.
 * @done: called once, later, when the return value is -EINPROGRESS
 *	(possibly in softirq or a cryptd worker); not called otherwise.
 * @data: argument of @done.
 *
 * Never sets CRYPTO_TFM_REQ_MAY_SLEEP and never waits. Concurrent calls on
 * one state are fine, each with its own request.
 * Context: process or softirq, also with bottom halves or preemption
 * disabled; not hard-irq.
 * Return: 0 (finished, @done not called), -EINPROGRESS (@done will be
 * called), -EMSGSIZE, -EINVAL (@n is 2^64-1, or @r is for another cipher),
 * -ENOBUFS (@r too small for this state's driver), a crypto API error.
 */
int noise_cipher_encrypt_async_at(struct noise_cipher *c,
				  struct noise_crypt_req *r, u64 n,
				  struct scatterlist *sg, unsigned int ad_len,
				  unsigned int len, noise_crypt_done_t done,
				  void *data)
{
	return noise_crypt_async(c, r, true, false, n, sg, ad_len, len, done, data);
}
EXPORT_SYMBOL_GPL(noise_cipher_encrypt_async_at);

/**
 * noise_cipher_decrypt_async_at() - decrypt with nonce @n, never sleeping.
 * @c: the cipher state.
 * @r: a request, as for noise_cipher_encrypt_async_at().
 * @n: the message's nonce; never 2^64-1.
 * @sg: AD then the ciphertext with its tag.
 * @ad_len: AD length.
 * @len: ciphertext length (tag included).
 * @done: as for noise_cipher_encrypt_async_at(); err -EBADMSG on forgery.
 * @data: argument of @done.
 *
 * A success counts one message received (before @done is called); a
 * failure changes nothing.
 * Context: as noise_cipher_encrypt_async_at().
 * Return: as noise_cipher_encrypt_async_at(), or -EBADMSG.
 */
int noise_cipher_decrypt_async_at(struct noise_cipher *c,
				  struct noise_crypt_req *r, u64 n,
				  struct scatterlist *sg, unsigned int ad_len,
				  unsigned int len, noise_crypt_done_t done,
				  void *data)
{
	return noise_crypt_async(c, r, false, false, n, sg, ad_len, len, done, data);
}
EXPORT_SYMBOL_GPL(noise_cipher_decrypt_async_at);
