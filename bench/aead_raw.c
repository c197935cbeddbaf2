// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: raw AEAD throughput, the bound of transport encryption. The
 * transform is allocated by the driver name the engine reports for the
 * cipher, so it is the very implementation the engine runs; it is called
 * directly through the crypto API the way a transport message is sealed:
 * one preallocated request, in place, one scatterlist entry, no associated
 * data, a 16-byte tag, a fresh Noise nonce per call (32 zero bits and the
 * 64-bit counter, little-endian for ChaChaPoly, big-endian for AESGCM).
 */

#include <crypto/aead.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "bench.h"

#define BENCH_KEY_LEN 32
#define BENCH_NONCE_LEN 12

struct bench_raw_aead {
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct scatterlist sg;
	struct bench_ring ring;
	bool big_endian;
	u32 next;	/* ring position and nonce counter */
	u8 key[BENCH_KEY_LEN];
	u8 nonce[BENCH_NONCE_LEN];
};

static void aead_set_nonce(struct bench_raw_aead *c, u64 counter)
{
	__le64 le = cpu_to_le64(counter);
	__be64 be = cpu_to_be64(counter);

	memset(c->nonce, 0, 4);
	if (c->big_endian)
		memcpy(c->nonce + 4, &be, sizeof(be));
	else
		memcpy(c->nonce + 4, &le, sizeof(le));
}

/* Seal or open ring buffer (c->next % n) in place with nonce c->next. */
static int aead_crypt(struct bench_raw_aead *c, bool enc)
{
	unsigned int len = c->ring.len + (enc ? 0 : BENCH_TAG_LEN);

	aead_set_nonce(c, c->next);
	sg_init_one(&c->sg, c->ring.buf[c->next % c->ring.n],
		    c->ring.len + BENCH_TAG_LEN);
	c->next++;
	aead_request_set_ad(c->req, 0);
	aead_request_set_crypt(c->req, &c->sg, &c->sg, len, c->nonce);
	return enc ? crypto_aead_encrypt(c->req) : crypto_aead_decrypt(c->req);
}

static int aead_enc(void *p)
{
	return aead_crypt(p, true);
}

static int aead_dec(void *p)
{
	return aead_crypt(p, false);
}

/* Seal @batch fresh messages; the timed decryptions then open them in order. */
static int aead_dec_prepare(void *p, u32 batch)
{
	struct bench_raw_aead *c = p;
	u32 i;
	int err;

	for (i = 0, c->next = 0; i < batch; i++) {
		err = aead_crypt(c, true);
		if (err)
			return err;
	}
	c->next = 0;
	return 0;
}

struct bench_raw_aead *bench_raw_new(unsigned int id)
{
	static const char * const algs[] = { "rfc7539(chacha20,poly1305)", "gcm(aes)" };
	static const char * const names[] = { "ChaChaPoly", "AESGCM" };
	const char *engine = bench_engine_aead_driver(id);
	struct bench_raw_aead *c;
	int err = -ENOMEM;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->big_endian = id == 1;
	c->tfm = crypto_alloc_aead(engine ?: algs[id], 0, 0);
	if (IS_ERR(c->tfm)) {
		err = PTR_ERR(c->tfm);
		c->tfm = NULL;
		goto fail;
	}
	bench_note("driver cipher=%s alg=%s raw=%s engine=%s", names[id], algs[id],
		   crypto_aead_driver_name(c->tfm), engine ?: "none");
	c->req = aead_request_alloc(c->tfm, GFP_KERNEL);
	if (!c->req)
		goto fail;
	get_random_bytes(c->key, sizeof(c->key));
	err = crypto_aead_setkey(c->tfm, c->key, sizeof(c->key));
	if (!err)
		err = crypto_aead_setauthsize(c->tfm, BENCH_TAG_LEN);
	if (err)
		goto fail;
	aead_request_set_callback(c->req, 0, NULL, NULL);
	return c;
fail:
	bench_raw_free(c);
	return ERR_PTR(err);
}

void bench_raw_free(struct bench_raw_aead *c)
{
	if (!c)
		return;
	bench_ring_free(&c->ring);
	aead_request_free(c->req);
	crypto_free_aead(c->tfm);
	kfree_sensitive(c);
}

/* A new key on the same transform (MixKey and Split do this). */
static int aead_setkey(void *p)
{
	struct bench_raw_aead *c = p;

	return crypto_aead_setkey(c->tfm, c->key, sizeof(c->key));
}

void bench_raw_setkey_op(struct bench_raw_aead *c, struct bench_op *op)
{
	*op = (struct bench_op) { .fn = aead_setkey, .ctx = c };
}

int bench_raw_size(struct bench_raw_aead *c, unsigned int len,
		   struct bench_op *enc, struct bench_op *dec)
{
	int err;

	bench_ring_free(&c->ring);
	err = bench_ring_alloc(&c->ring, len);
	if (err)
		return err;
	*enc = (struct bench_op) { .fn = aead_enc, .max_batch = c->ring.n, .ctx = c };
	*dec = (struct bench_op) { .fn = aead_dec, .prepare = aead_dec_prepare,
				   .max_batch = c->ring.n, .ctx = c };
	return 0;
}

static int aead_size(struct bench_raw_aead *c, const char *cipher, unsigned int len)
{
	struct bench_op enc, dec;
	struct bench_stats st;
	char keys[96];
	int err;

	err = bench_raw_size(c, len, &enc, &dec);
	if (err)
		return err;
	snprintf(keys, sizeof(keys), "cipher=%s op=enc size=%u", cipher, len);
	err = bench_measure(&enc, bench_tr_iters, bench_min_sample_us * 1000ULL, &st);
	if (err)
		goto fail;
	bench_report("aead_raw", keys, &st);

	snprintf(keys, sizeof(keys), "cipher=%s op=dec size=%u", cipher, len);
	err = bench_measure(&dec, bench_tr_iters, bench_min_sample_us * 1000ULL, &st);
	if (err)
		goto fail;
	bench_report("aead_raw", keys, &st);
	return 0;
fail:
	bench_note("error aead_raw %s err=%d", keys, err);
	return err;
}

static int aead_cipher(unsigned int id, const char *cipher)
{
	struct bench_raw_aead *c = bench_raw_new(id);
	unsigned int i;
	int err = 0;

	if (IS_ERR(c))
		return PTR_ERR(c);
	/* One size asked for (the tunnel bench's bound), else the standard ones. */
	if (bench_aead_size)
		err = aead_size(c, cipher, bench_aead_size);
	else
		for (i = 0; i < bench_nsizes && !err; i++)
			err = aead_size(c, cipher, bench_sizes[i]);
	bench_raw_free(c);
	return err;
}

int bench_aead_raw_run(void)
{
	int err;

	err = aead_cipher(0, "ChaChaPoly");
	if (!err)
		err = aead_cipher(1, "AESGCM");
	return err;
}
