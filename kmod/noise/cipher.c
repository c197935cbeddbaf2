// SPDX-License-Identifier: GPL-2.0
/*
 * Transport CipherState over the crypto API AEADs rfc7539(chacha20,poly1305)
 * and gcm(aes): allocation, nonce encoding, the synchronous operation with
 * an explicit nonce, Rekey, SetNonce, the atomic send counter and the usage
 * counts. One tfm per CipherState and a few requests for the synchronous
 * calls, allocated when the state is created (or reused from the pool of
 * retired states, cipher_pool.c); no allocation per message.
 * Synchronous operations wait for asynchronous drivers (crypto_wait_req)
 * and so may sleep. The handshake's CipherState is not this one: it uses
 * the crypto library (hs_cipher.c). The transport API is in transport.c.
 */

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "cipher.h"
#include "noise_internal.h"

static const char * const noise_aead_names[NOISE_CIPHER_COUNT] = {
	[NOISE_CIPHER_CHACHAPOLY] = "rfc7539(chacha20,poly1305)",
	[NOISE_CIPHER_AESGCM] = "gcm(aes)",
};

static char noise_aead_drivers[NOISE_CIPHER_COUNT][CRYPTO_MAX_ALG_NAME];
/* The largest request context seen per cipher: noise_crypt_req_alloc_id(). */
static unsigned int noise_aead_reqsizes[NOISE_CIPHER_COUNT];

/* Allocation counters for the KUnit allocation test (noise_internal.h). */
atomic_t noise_stat_kmallocs = ATOMIC_INIT(0);
EXPORT_SYMBOL_NS_GPL(noise_stat_kmallocs, NOISE_INTERNAL);
atomic_t noise_stat_tfms = ATOMIC_INIT(0);
EXPORT_SYMBOL_NS_GPL(noise_stat_tfms, NOISE_INTERNAL);

/* ChaChaPoly: 4 zero bytes || LE64(n); AESGCM: 4 zero bytes || BE64(n). */
void noise_nonce_encode(u8 id, u8 iv[NOISE_NONCE_LEN], u64 n)
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

static void noise_note_reqsize(u8 id, unsigned int size)
{
	if (size > READ_ONCE(noise_aead_reqsizes[id]))
		WRITE_ONCE(noise_aead_reqsizes[id], size);
}

unsigned int noise_aead_reqsize(u8 id)
{
	return READ_ONCE(noise_aead_reqsizes[id]);
}

/**
 * noise_aead_probe() - record which driver each AEAD name resolves to, and
 * its request size.
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
		noise_note_reqsize(i, crypto_aead_reqsize(tfm));
		crypto_free_aead(tfm);
	}
	return 0;
}

/**
 * noise_aead_driver_name() - the driver the crypto API picked for a cipher.
 * @id: the cipher.
 *
 * Context: any.
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
 *
 * Context: any.
 * Return: the driver name.
 */
const char *noise_cipher_driver_name(const struct noise_cipher *c)
{
	return crypto_aead_driver_name(c->tfm);
}
EXPORT_SYMBOL_GPL(noise_cipher_driver_name);

/* Label zeroed request memory: cipher @id, @cap bytes of request context. */
static struct noise_crypt_req *noise_req_init(void *mem, u8 id, unsigned int cap)
{
	struct noise_crypt_req *r = mem;

	r->id = id;
	r->cap = cap;
	return r;
}

/* A request for cipher @id with @cap bytes of request context. */
struct noise_crypt_req *noise_req_alloc(u8 id, unsigned int cap, gfp_t gfp)
{
	struct noise_crypt_req *r;

	r = kzalloc(sizeof(*r) + cap, gfp);
	if (!r)
		return NULL;
	atomic_inc(&noise_stat_kmallocs);
	return noise_req_init(r, id, cap);
}

void noise_cipher_destroy(struct noise_cipher *c)
{
	crypto_free_aead(c->tfm);	/* frees the key with kfree_sensitive */
	kfree_sensitive(c);		/* with its requests */
}

/* Where a state's requests start, and how far apart they are, on @tfm. */
static size_t noise_cipher_head(void)
{
	return ALIGN(sizeof(struct noise_cipher), CRYPTO_MINALIGN);
}

static size_t noise_cipher_stride(struct crypto_aead *tfm)
{
	return ALIGN(sizeof(struct noise_crypt_req) + crypto_aead_reqsize(tfm),
		     CRYPTO_MINALIGN);
}

/* Bytes of a state of @tfm with 1 + @nreqs requests, as allocated. */
size_t noise_cipher_size(struct crypto_aead *tfm, unsigned int nreqs)
{
	return noise_cipher_head() + (1 + nreqs) * noise_cipher_stride(tfm);
}

/*
 * Lay out zeroed state memory @c: cipher @id on @tfm, then 1 + @nreqs
 * requests after the state (the stateful one first).
 */
void noise_cipher_layout(struct noise_cipher *c, enum noise_cipher_id id,
			 struct crypto_aead *tfm, unsigned int nreqs)
{
	unsigned int i, reqsize = crypto_aead_reqsize(tfm);
	size_t stride = noise_cipher_stride(tfm);
	u8 *p = (u8 *)c + noise_cipher_head();

	c->id = id;
	c->tfm = tfm;
	c->nreqs = nreqs;
	for (i = 0; i <= nreqs; i++, p += stride) {
		struct noise_crypt_req *r = noise_req_init(p, id, reqsize);

		r->owner = c;
		if (i)
			c->reqs[i - 1] = r;
		else
			c->sreq = r;
	}
}

/* A new state on a new transform; the key is not set yet. */
static struct noise_cipher *noise_cipher_alloc(enum noise_cipher_id id, gfp_t gfp)
{
	struct crypto_aead *tfm;
	struct noise_cipher *c;
	unsigned int nreqs;

	tfm = crypto_alloc_aead(noise_aead_names[id], 0, 0);
	if (IS_ERR(tfm))
		return ERR_CAST(tfm);
	atomic_inc(&noise_stat_tfms);
	noise_note_reqsize(id, crypto_aead_reqsize(tfm));
	nreqs = rounddown_pow_of_two(min_t(unsigned int, num_possible_cpus(),
					   NOISE_SYNC_REQS));
	c = kzalloc(noise_cipher_size(tfm, nreqs), gfp);
	if (!c) {
		crypto_free_aead(tfm);
		return ERR_PTR(-ENOMEM);
	}
	atomic_inc(&noise_stat_kmallocs);
	noise_cipher_layout(c, id, tfm, nreqs);
	c->born = jiffies;
	if (crypto_aead_setauthsize(tfm, NOISE_TAG_LEN)) {
		noise_cipher_destroy(c);
		return ERR_PTR(-EINVAL);
	}
	return c;
}

/**
 * noise_cipher_new() - a transport cipher state with key @key and n = 0.
 * @id: the cipher.
 * @key: 32-byte key.
 * @gfp: allocation flags for the state and its requests. The crypto API
 *	allocates the transform with GFP_KERNEL whatever is asked, so @gfp
 *	must allow blocking (GFP_KERNEL); anything else is refused.
 *
 * Takes a retired state of @id from the pool (cipher_pool.c) and sets its
 * key, or allocates one AEAD transform, then the state with its requests
 * in one allocation: one request for the stateful synchronous calls and up
 * to NOISE_SYNC_REQS (one per possible CPU, at most 4) for the synchronous
 * explicit-nonce calls.
 * Context: process context, may sleep.
 * Return: the state, ERR_PTR(-ENOMEM) or ERR_PTR(-EINVAL) (bad @id, a key
 * the driver refuses, or @gfp that does not allow blocking).
 */
struct noise_cipher *noise_cipher_new(enum noise_cipher_id id, const u8 *key,
				      gfp_t gfp)
{
	struct noise_cipher *c;

	if (id >= NOISE_CIPHER_COUNT || !gfpflags_allow_blocking(gfp))
		return ERR_PTR(-EINVAL);
	c = noise_cipher_pool_get(id);
	if (!c)
		c = noise_cipher_alloc(id, gfp);
	if (IS_ERR(c))
		return c;
	if (crypto_aead_setkey(c->tfm, key, NOISE_KEY_LEN)) {
		noise_cipher_destroy(c);
		return ERR_PTR(-EINVAL);
	}
	c->sync_alg = !(crypto_aead_alg(c->tfm)->base.cra_flags & CRYPTO_ALG_ASYNC);
	return c;
}
EXPORT_SYMBOL_GPL(noise_cipher_new);

/**
 * noise_cipher_free() - retire a cipher state; the key is wiped.
 * @c: the state, or NULL. No operation may be in flight on it.
 *
 * The state goes back to the pool with its transform re-keyed to zeros and
 * everything else wiped (cipher_pool.c), or, with the pool full, is freed.
 * Context: process context, may sleep (setkey, or the crypto API frees the
 * transform, and a driver's exit may sleep).
 */
void noise_cipher_free(struct noise_cipher *c)
{
	might_sleep();
	if (c && !noise_cipher_pool_put(c))
		noise_cipher_destroy(c);
}
EXPORT_SYMBOL_GPL(noise_cipher_free);

int noise_submit(struct noise_crypt_req *r, struct crypto_aead *tfm, bool enc,
		 struct scatterlist *src, struct scatterlist *dst,
		 unsigned int ad_len, unsigned int len, u64 n, u32 flags,
		 crypto_completion_t cb, void *cb_data)
{
	noise_nonce_encode(r->id, r->iv, n);
	aead_request_set_tfm(&r->req, tfm);
	aead_request_set_callback(&r->req, flags, cb, cb_data);
	aead_request_set_ad(&r->req, ad_len);
	aead_request_set_crypt(&r->req, src, dst, len, r->iv);
	return enc ? crypto_aead_encrypt(&r->req) : crypto_aead_decrypt(&r->req);
}

/* One of the state's own requests, or a temporary one if all are in use. */
static struct noise_crypt_req *noise_sync_get(struct noise_cipher *c, int *slot)
{
	unsigned int i, start = raw_smp_processor_id() & (c->nreqs - 1);

	for (i = 0; i < c->nreqs; i++) {
		unsigned int s = (start + i) & (c->nreqs - 1);

		if (!test_and_set_bit_lock(s, &c->busy)) {
			*slot = s;
			return c->reqs[s];
		}
	}
	*slot = -1;
	return noise_req_alloc(c->id, crypto_aead_reqsize(c->tfm),
			       GFP_KERNEL | __GFP_NOWARN);
}

static void noise_sync_put(struct noise_cipher *c, struct noise_crypt_req *r, int slot)
{
	if (slot < 0)
		kfree_sensitive(r);
	else if (slot < NOISE_SYNC_REQS)
		clear_bit_unlock(slot, &c->busy);
}

/*
 * One synchronous AEAD operation with nonce @n; waits for asynchronous
 * drivers. A stateful call (serialized by the caller) uses the state's own
 * request; any other touches no state of @c but a request it claims for
 * the call, so any number of these may run at once on one cipher state.
 */
int noise_crypt_sync(struct noise_cipher *c, bool stateful, bool enc,
		     struct scatterlist *src, struct scatterlist *dst,
		     unsigned int ad_len, unsigned int len, u64 n)
{
	DECLARE_CRYPTO_WAIT(wait);
	struct noise_crypt_req *r;
	int err, slot = NOISE_SYNC_REQS;

	r = stateful ? c->sreq : noise_sync_get(c, &slot);
	if (!r)
		return -ENOMEM;
	if (c->sync_alg) {
		/* A synchronous driver never calls back: nothing to wait for. */
		err = noise_submit(r, c->tfm, enc, src, dst, ad_len, len, n,
				   CRYPTO_TFM_REQ_MAY_SLEEP, NULL, NULL);
	} else {
		err = noise_submit(r, c->tfm, enc, src, dst, ad_len, len, n,
				   CRYPTO_TFM_REQ_MAY_SLEEP | CRYPTO_TFM_REQ_MAY_BACKLOG,
				   crypto_req_done, &wait);
		err = crypto_wait_req(err, &wait);
	}
	noise_sync_put(c, r, slot);
	return err;
}

/**
 * noise_cipher_rekey() - Rekey(): k = the first 32 bytes of
 * ENCRYPT(k, 2^64-1, "", 32 zero bytes); n is unchanged.
 * @c: the cipher state.
 *
 * Context: process context; may sleep. Not while operations are in flight
 * on @c (a request in flight keeps using the transform whose key changes).
 * Return: 0 or a negative errno from the crypto API.
 */
int noise_cipher_rekey(struct noise_cipher *c)
{
	struct scatterlist sg;
	int err;

	memset(c->scratch, 0, sizeof(c->scratch));
	sg_init_one(&sg, c->scratch, sizeof(c->scratch));
	err = noise_crypt_sync(c, true, true, &sg, &sg, 0, NOISE_KEY_LEN, U64_MAX);
	if (!err)
		err = crypto_aead_setkey(c->tfm, c->scratch, NOISE_KEY_LEN);
	memzero_explicit(c->scratch, sizeof(c->scratch));
	return err;
}
EXPORT_SYMBOL_GPL(noise_cipher_rekey);

/**
 * noise_cipher_set_nonce() - SetNonce(n), for the stateful calls.
 * @c: the cipher state.
 * @n: the next nonce; U64_MAX makes every later stateful operation fail.
 *
 * Context: any; not concurrently with stateful calls or
 * noise_cipher_take_nonce() on @c.
 */
void noise_cipher_set_nonce(struct noise_cipher *c, u64 n)
{
	atomic64_set(&c->n, n);
}
EXPORT_SYMBOL_GPL(noise_cipher_set_nonce);

/**
 * noise_cipher_nonce() - the next nonce of the stateful calls.
 * @c: the cipher state.
 *
 * Context: any.
 * Return: n.
 */
u64 noise_cipher_nonce(const struct noise_cipher *c)
{
	return atomic64_read(&c->n);
}
EXPORT_SYMBOL_GPL(noise_cipher_nonce);

/**
 * noise_cipher_take_nonce() - take the next send nonce atomically.
 * @c: the cipher state.
 * @n: the nonce out: use it with noise_cipher_encrypt_at() (or the sg or
 *	async form) and put it in the message header.
 *
 * Each call returns a different nonce, in increasing order, however many
 * CPUs call at once; the value 2^64-1 is never handed out. Counts one
 * message sent (noise_cipher_messages_sent()).
 * Context: any.
 * Return: 0, or -EOVERFLOW once the counter is exhausted (end the session).
 */
int noise_cipher_take_nonce(struct noise_cipher *c, u64 *n)
{
	s64 v = atomic64_fetch_add_unless(&c->n, 1, (s64)U64_MAX);

	if ((u64)v == U64_MAX)
		return -EOVERFLOW;
	atomic64_inc(&c->sent);
	*n = v;
	return 0;
}
EXPORT_SYMBOL_GPL(noise_cipher_take_nonce);

/**
 * noise_cipher_messages_sent() - nonces taken and stateful encryptions.
 * @c: the cipher state.
 *
 * For a key-usage limit (rekey or end the session after so many messages).
 * Context: any.
 * Return: the count since the state was created.
 */
u64 noise_cipher_messages_sent(const struct noise_cipher *c)
{
	return atomic64_read(&c->sent);
}
EXPORT_SYMBOL_GPL(noise_cipher_messages_sent);

/**
 * noise_cipher_messages_received() - successful decryptions.
 * @c: the cipher state.
 *
 * Failed decryptions are not counted.
 * Context: any.
 * Return: the count since the state was created.
 */
u64 noise_cipher_messages_received(const struct noise_cipher *c)
{
	return atomic64_read(&c->received);
}
EXPORT_SYMBOL_GPL(noise_cipher_messages_received);
