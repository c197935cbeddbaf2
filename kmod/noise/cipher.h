/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CipherState (rev 34 section 5.1) over a crypto API AEAD.
 */
#ifndef _NOISE_CIPHER_H
#define _NOISE_CIPHER_H

#include <crypto/aead.h>
#include "noise.h"

#define NOISE_NONCE_LEN 12

/**
 * struct noise_crypt_req - one AEAD request with its nonce and completion.
 * @c: the cipher state it belongs to.
 * @done: the caller's completion (asynchronous calls).
 * @data: argument of @done.
 * @iv: the encoded nonce; lives as long as the request.
 * @req: the AEAD request, followed by the tfm's request context.
 */
struct noise_crypt_req {
	struct noise_cipher *c;
	noise_crypt_done_t done;
	void *data;
	u8 iv[NOISE_NONCE_LEN];
	struct aead_request req;
};

/**
 * struct noise_cipher - a CipherState: k (held by @tfm) and n.
 * @tfm: the AEAD transform, allocated once; MixKey/Split/Rekey call setkey.
 * @req: the request used by the synchronous calls.
 * @n: the next nonce; U64_MAX is reserved and refused.
 * @id: enum noise_cipher_id.
 * @has_key: k is set (otherwise data passes through, handshake only).
 * @scratch: Rekey's input and output (heap memory for the scatterlist).
 */
struct noise_cipher {
	struct crypto_aead *tfm;
	struct noise_crypt_req *req;
	u64 n;
	u8 id;
	bool has_key;
	u8 scratch[NOISE_KEY_LEN + NOISE_TAG_LEN];
};

struct noise_cipher *noise_cipher_alloc(enum noise_cipher_id id, gfp_t gfp);
int noise_cipher_set_key(struct noise_cipher *c, const u8 *key);
int noise_cipher_crypt_buf(struct noise_cipher *c, bool enc, const u8 *ad,
			   size_t ad_len, const u8 *src, u8 *dst, size_t len);
int noise_aead_probe(void);
struct noise_crypt_req *noise_req_alloc(struct noise_cipher *c, gfp_t gfp);
int noise_submit(struct noise_crypt_req *r, bool enc, struct scatterlist *src,
		 struct scatterlist *dst, unsigned int ad_len, unsigned int len,
		 u64 n, u32 flags, crypto_completion_t cb, void *cb_data);
int noise_crypt_sg(struct noise_cipher *c, bool enc, struct scatterlist *src,
		   struct scatterlist *dst, unsigned int ad_len, unsigned int len);

#endif /* _NOISE_CIPHER_H */
