// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: raw AEAD throughput, the bound of transport encryption. The
 * transform is allocated by the same algorithm name the engine uses, so the
 * crypto API resolves it to the same driver (both driver names are printed),
 * and it is called directly: one preallocated request, one scatterlist entry
 * per buffer, no associated data, a 16-byte tag, a fresh nonce per call.
 */

#include <crypto/aead.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "bench.h"

#define BENCH_TAG_LEN 16
#define BENCH_KEY_LEN 32
#define BENCH_NONCE_LEN 12

struct aead_ctx {
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct scatterlist src, dst;
	u8 *in, *out;
	unsigned int len;	/* plaintext length */
	bool big_endian;	/* AESGCM: big-endian counter */
	u64 counter;
	u8 nonce[BENCH_NONCE_LEN];
};

static void aead_next_nonce(struct aead_ctx *c)
{
	__le64 le = cpu_to_le64(c->counter);
	__be64 be = cpu_to_be64(c->counter);

	memset(c->nonce, 0, 4);
	memcpy(c->nonce + 4, c->big_endian ? (void *)&be : (void *)&le, 8);
	c->counter++;
}

static int aead_enc(void *p)
{
	struct aead_ctx *c = p;

	aead_next_nonce(c);
	sg_init_one(&c->src, c->in, c->len);
	sg_init_one(&c->dst, c->out, c->len + BENCH_TAG_LEN);
	aead_request_set_ad(c->req, 0);
	aead_request_set_crypt(c->req, &c->src, &c->dst, c->len, c->nonce);
	return crypto_aead_encrypt(c->req);
}

/* Decrypts the ciphertext that aead_dec_prepare() left in c->out. */
static int aead_dec(void *p)
{
	struct aead_ctx *c = p;

	sg_init_one(&c->src, c->out, c->len + BENCH_TAG_LEN);
	sg_init_one(&c->dst, c->in, c->len);
	aead_request_set_ad(c->req, 0);
	aead_request_set_crypt(c->req, &c->src, &c->dst, c->len + BENCH_TAG_LEN,
			       c->nonce);
	return crypto_aead_decrypt(c->req);
}

static int aead_dec_prepare(struct aead_ctx *c)
{
	return aead_enc(c);
}

static int aead_size(struct aead_ctx *c, const char *cipher, unsigned int len)
{
	struct bench_stats st;
	char keys[96];
	int err;

	c->len = len;
	snprintf(keys, sizeof(keys), "cipher=%s op=enc size=%u", cipher, len);
	err = bench_measure(aead_enc, c, bench_tr_iters, bench_min_sample_us * 1000ULL, &st);
	if (err)
		goto fail;
	bench_report("aead_raw", keys, &st);

	snprintf(keys, sizeof(keys), "cipher=%s op=dec size=%u", cipher, len);
	err = aead_dec_prepare(c);
	if (!err)
		err = bench_measure(aead_dec, c, bench_tr_iters,
				    bench_min_sample_us * 1000ULL, &st);
	if (err)
		goto fail;
	bench_report("aead_raw", keys, &st);
	return 0;
fail:
	bench_note("error aead_raw %s err=%d", keys, err);
	return err;
}

static int aead_cipher(const char *cipher, const char *alg, bool big_endian)
{
	struct aead_ctx c = { .big_endian = big_endian };
	u8 key[BENCH_KEY_LEN];
	unsigned int i;
	int err;

	c.tfm = crypto_alloc_aead(alg, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(c.tfm))
		return PTR_ERR(c.tfm);
	bench_note("driver cipher=%s alg=%s driver=%s", cipher, alg,
		   crypto_aead_driver_name(c.tfm));
	err = -ENOMEM;
	c.req = aead_request_alloc(c.tfm, GFP_KERNEL);
	c.in = kzalloc(BENCH_MAX_PLAINTEXT + BENCH_TAG_LEN, GFP_KERNEL);
	c.out = kzalloc(BENCH_MAX_PLAINTEXT + BENCH_TAG_LEN, GFP_KERNEL);
	if (!c.req || !c.in || !c.out)
		goto out;
	get_random_bytes(key, sizeof(key));
	err = crypto_aead_setkey(c.tfm, key, sizeof(key));
	memzero_explicit(key, sizeof(key));
	if (!err)
		err = crypto_aead_setauthsize(c.tfm, BENCH_TAG_LEN);
	if (err)
		goto out;
	aead_request_set_callback(c.req, 0, NULL, NULL);
	for (i = 0; i < bench_nsizes && !err; i++)
		err = aead_size(&c, cipher, bench_sizes[i]);
out:
	kfree(c.out);
	kfree(c.in);
	aead_request_free(c.req);
	crypto_free_aead(c.tfm);
	return err;
}

int bench_aead_raw_run(void)
{
	int err;

	err = aead_cipher("ChaChaPoly", "rfc7539(chacha20,poly1305)", false);
	if (!err)
		err = aead_cipher("AESGCM", "gcm(aes)", true);
	return err;
}
