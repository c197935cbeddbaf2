/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transport CipherState (rev 34 section 5.1) over a crypto API AEAD.
 */
#ifndef _NOISE_CIPHER_H
#define _NOISE_CIPHER_H

#include <crypto/aead.h>
#include <linux/atomic.h>
#include "noise.h"

#define NOISE_NONCE_LEN 12
/* Requests each cipher state keeps for its synchronous calls. */
#define NOISE_SYNC_REQS 4

/**
 * struct noise_crypt_req - one AEAD request with its nonce and completion.
 * @owner: the cipher state it was allocated for (noise_crypt_req_alloc()),
 *	or NULL for a request of a cipher (noise_crypt_req_alloc_id()).
 * @c: the cipher state of the operation in flight.
 * @done: the caller's completion (asynchronous calls).
 * @data: argument of @done.
 * @n: the nonce of the operation in flight.
 * @id: enum noise_cipher_id the request serves.
 * @dec: the operation in flight is a decryption.
 * @stateful: it was submitted by a stateful call (nonce taken from n).
 * @cap: bytes of request context after @req.
 * @iv: the encoded nonce; lives as long as the request.
 * @req: the AEAD request, followed by the tfm's request context.
 */
struct noise_crypt_req {
	struct noise_cipher *owner, *c;
	noise_crypt_done_t done;
	void *data;
	u64 n;
	u8 id;
	bool dec, stateful;
	unsigned int cap;
	u8 iv[NOISE_NONCE_LEN];
	struct aead_request req;
};

/**
 * struct noise_cipher - a transport CipherState: k (held by @tfm) and n.
 * @tfm: the AEAD transform; Rekey calls setkey.
 * @n: the next nonce of the stateful calls and noise_cipher_take_nonce();
 *	U64_MAX is reserved and never used.
 * @sent: nonces taken and stateful encryptions done.
 * @received: successful decryptions.
 * @id: enum noise_cipher_id.
 * @sync_alg: the driver is synchronous (no CRYPTO_ALG_ASYNC): the
 *	synchronous calls need no completion to wait on.
 * @nreqs: requests in @reqs.
 * @busy: bit i set while @reqs[i] is in use by a synchronous call.
 * @sreq: the request of the stateful synchronous calls (the caller
 *	serializes those, so it needs no claiming).
 * @reqs: the requests of the synchronous explicit-nonce calls.
 * @scratch: Rekey's input and output (heap memory for the scatterlist).
 * @born: jiffies when @tfm was allocated (cipher_pool.c keeps it for a
 *	limited time).
 * @pooled: jiffies when the state went into the pool.
 * @pool_next: the next retired state while this one is in the pool.
 */
struct noise_cipher {
	struct crypto_aead *tfm;
	atomic64_t n, sent, received;
	u8 id;
	bool sync_alg;
	u8 nreqs;
	unsigned long busy;
	struct noise_crypt_req *sreq;
	struct noise_crypt_req *reqs[NOISE_SYNC_REQS];
	u8 scratch[NOISE_KEY_LEN + NOISE_TAG_LEN];
	unsigned long born, pooled;
	struct noise_cipher *pool_next;
};

int noise_aead_probe(void);
void noise_nonce_encode(u8 id, u8 iv[NOISE_NONCE_LEN], u64 n);
struct noise_crypt_req *noise_req_alloc(u8 id, unsigned int cap, gfp_t gfp);
int noise_submit(struct noise_crypt_req *r, struct crypto_aead *tfm, bool enc,
		 struct scatterlist *src, struct scatterlist *dst,
		 unsigned int ad_len, unsigned int len, u64 n, u32 flags,
		 crypto_completion_t cb, void *cb_data);
int noise_crypt_sync(struct noise_cipher *c, bool stateful, bool enc,
		     struct scatterlist *src, struct scatterlist *dst,
		     unsigned int ad_len, unsigned int len, u64 n);
unsigned int noise_aead_reqsize(u8 id);
size_t noise_cipher_size(struct crypto_aead *tfm, unsigned int nreqs);
void noise_cipher_layout(struct noise_cipher *c, enum noise_cipher_id id,
			 struct crypto_aead *tfm, unsigned int nreqs);
void noise_cipher_destroy(struct noise_cipher *c);

/* The pool of retired states (cipher_pool.c). */
struct noise_cipher *noise_cipher_pool_get(enum noise_cipher_id id);
bool noise_cipher_pool_put(struct noise_cipher *c);
void noise_cipher_pool_drain(void);

#endif /* _NOISE_CIPHER_H */
