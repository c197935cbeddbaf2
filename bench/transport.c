// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: transport encryption and decryption through the engine's
 * cipher states (noise_cipher_encrypt()/noise_cipher_decrypt(): in place,
 * no associated data, the nonce advancing by one per message), for every
 * payload size and both ciphers. A decryption batch opens messages that the
 * sending cipher state sealed, untimed, just before it.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include "bench.h"
#include "noise.h"

struct tr_ctx {
	struct noise_cipher *send, *recv;
	struct bench_ring ring;
	u32 next;
};

static int tr_enc(void *p)
{
	struct tr_ctx *c = p;

	return noise_cipher_encrypt(c->send, NULL, 0, c->ring.buf[c->next++ % c->ring.n],
				    c->ring.len);
}

static int tr_dec(void *p)
{
	struct tr_ctx *c = p;

	return noise_cipher_decrypt(c->recv, NULL, 0, c->ring.buf[c->next++ % c->ring.n],
				    c->ring.len + BENCH_TAG_LEN);
}

static int tr_dec_prepare(void *p, u32 batch)
{
	struct tr_ctx *c = p;
	u32 i;
	int err;

	noise_cipher_set_nonce(c->recv, noise_cipher_nonce(c->send));
	for (i = 0, c->next = 0; i < batch; i++) {
		err = tr_enc(c);
		if (err)
			return err;
	}
	c->next = 0;
	return 0;
}

static int tr_size(struct tr_ctx *c, const char *cipher, unsigned int len)
{
	struct bench_op op = { .ctx = c };
	struct bench_stats st;
	char keys[96];
	int err;

	err = bench_ring_alloc(&c->ring, len);
	if (err)
		return err;
	op.max_batch = c->ring.n;

	op.fn = tr_enc;
	snprintf(keys, sizeof(keys), "cipher=%s op=enc size=%u", cipher, len);
	err = bench_measure(&op, bench_tr_iters, bench_min_sample_us * 1000ULL, &st);
	if (err)
		goto fail;
	bench_report("transport", keys, &st);

	op.fn = tr_dec;
	op.prepare = tr_dec_prepare;
	snprintf(keys, sizeof(keys), "cipher=%s op=dec size=%u", cipher, len);
	err = bench_measure(&op, bench_tr_iters, bench_min_sample_us * 1000ULL, &st);
	if (err)
		goto fail;
	bench_report("transport", keys, &st);
	bench_ring_free(&c->ring);
	return 0;
fail:
	bench_ring_free(&c->ring);
	bench_note("error transport %s err=%d", keys, err);
	return err;
}

static int tr_cipher(enum noise_cipher_id id, const char *cipher)
{
	struct tr_ctx c = {};
	u8 key[NOISE_KEY_LEN];
	unsigned int i;
	int err = 0;

	get_random_bytes(key, sizeof(key));
	c.send = noise_cipher_new(id, key, GFP_KERNEL);
	c.recv = noise_cipher_new(id, key, GFP_KERNEL);
	memzero_explicit(key, sizeof(key));
	if (IS_ERR(c.send) || IS_ERR(c.recv)) {
		err = IS_ERR(c.send) ? PTR_ERR(c.send) : PTR_ERR(c.recv);
		goto out;
	}
	bench_note("engine_driver cipher=%s driver=%s", cipher,
		   noise_cipher_driver_name(c.send));
	for (i = 0, err = 0; i < bench_nsizes && !err; i++)
		err = tr_size(&c, cipher, bench_sizes[i]);
out:
	if (!IS_ERR_OR_NULL(c.recv))
		noise_cipher_free(c.recv);
	if (!IS_ERR_OR_NULL(c.send))
		noise_cipher_free(c.send);
	return err;
}

int bench_transport_run(void)
{
	int err;

	err = tr_cipher(NOISE_CIPHER_CHACHAPOLY, "ChaChaPoly");
	if (!err)
		err = tr_cipher(NOISE_CIPHER_AESGCM, "AESGCM");
	return err;
}
