// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: transport encryption and decryption through the engine's
 * cipher states, in place, no associated data, for every payload size and
 * both ciphers: the stateful calls (noise_cipher_encrypt()/_decrypt(), the
 * nonce advancing by one per message; op=enc, dec) and the explicit-counter
 * ones (noise_cipher_take_nonce() + noise_cipher_encrypt_at(), and
 * noise_cipher_decrypt_at() with the message's nonce; op=enc_at, dec_at).
 * A decryption batch opens messages that the sending cipher state sealed,
 * untimed, just before it. Each figure is
 * timed in alternating samples with its bound, the same AEAD driver called
 * raw (aead_raw.c), and both are printed ("paired=1").
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include "bench.h"
#include "noise.h"

struct tr_ctx {
	struct noise_cipher *send, *recv;
	struct bench_ring ring;
	u32 next;
	u64 base;	/* nonce of the first message of a decryption batch */
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

/* The explicit-counter calls: the nonce taken atomically, then _at. */
static int tr_enc_at(void *p)
{
	struct tr_ctx *c = p;
	u64 n;
	int err = noise_cipher_take_nonce(c->send, &n);

	return err ?: noise_cipher_encrypt_at(c->send, n, NULL, 0,
					      c->ring.buf[c->next++ % c->ring.n],
					      c->ring.len);
}

static int tr_dec_at(void *p)
{
	struct tr_ctx *c = p;
	u32 i = c->next++;

	return noise_cipher_decrypt_at(c->recv, c->base + i, NULL, 0,
				       c->ring.buf[i % c->ring.n],
				       c->ring.len + BENCH_TAG_LEN);
}

static int tr_dec_prepare(void *p, u32 batch)
{
	struct tr_ctx *c = p;
	u32 i;
	int err;

	c->base = noise_cipher_nonce(c->send);
	noise_cipher_set_nonce(c->recv, c->base);
	for (i = 0, c->next = 0; i < batch; i++) {
		err = tr_enc(c);
		if (err)
			return err;
	}
	c->next = 0;
	return 0;
}

/* One direction: the engine and its raw AEAD bound, in alternating samples. */
static int tr_pair(const struct bench_op *eng, const struct bench_op *raw,
		   const char *keys)
{
	struct bench_stats se, sr;
	int err;

	err = bench_measure_pair(eng, raw, bench_tr_iters,
				 bench_min_sample_us * 1000ULL, &se, &sr);
	if (err) {
		bench_note("error transport %s err=%d", keys, err);
		return err;
	}
	bench_report("transport", keys, &se);
	bench_report("aead_raw", keys, &sr);
	return 0;
}

static int tr_size(struct tr_ctx *c, struct bench_raw_aead *raw,
		   const char *cipher, unsigned int len)
{
	struct bench_op enc = { .fn = tr_enc, .ctx = c };
	struct bench_op dec = { .fn = tr_dec, .prepare = tr_dec_prepare, .ctx = c };
	struct bench_op enc_at = { .fn = tr_enc_at, .ctx = c };
	struct bench_op dec_at = { .fn = tr_dec_at, .prepare = tr_dec_prepare, .ctx = c };
	struct bench_op raw_enc, raw_dec;
	char keys[96];
	int err;

	err = bench_ring_alloc(&c->ring, len);
	if (!err)
		err = bench_raw_size(raw, len, &raw_enc, &raw_dec);
	if (err)
		goto out;
	enc.max_batch = c->ring.n;
	dec.max_batch = c->ring.n;
	enc_at.max_batch = c->ring.n;
	dec_at.max_batch = c->ring.n;
	snprintf(keys, sizeof(keys), "cipher=%s op=enc size=%u paired=1", cipher, len);
	err = tr_pair(&enc, &raw_enc, keys);
	if (err)
		goto out;
	snprintf(keys, sizeof(keys), "cipher=%s op=dec size=%u paired=1", cipher, len);
	err = tr_pair(&dec, &raw_dec, keys);
	if (err)
		goto out;
	snprintf(keys, sizeof(keys), "cipher=%s op=enc_at size=%u paired=1", cipher, len);
	err = tr_pair(&enc_at, &raw_enc, keys);
	if (err)
		goto out;
	snprintf(keys, sizeof(keys), "cipher=%s op=dec_at size=%u paired=1", cipher, len);
	err = tr_pair(&dec_at, &raw_dec, keys);
out:
	bench_ring_free(&c->ring);
	return err;
}

static int tr_cipher(enum noise_cipher_id id, const char *cipher)
{
	struct bench_raw_aead *raw;
	struct tr_ctx c = {};
	u8 key[NOISE_KEY_LEN];
	unsigned int i;
	int err = 0;

	raw = bench_raw_new(id == NOISE_CIPHER_AESGCM);
	if (IS_ERR(raw))
		return PTR_ERR(raw);
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
	for (i = 0; i < bench_nsizes && !err; i++)
		err = tr_size(&c, raw, cipher, bench_sizes[i]);
out:
	if (!IS_ERR(c.recv))
		noise_cipher_free(c.recv);
	if (!IS_ERR(c.send))
		noise_cipher_free(c.send);
	bench_raw_free(raw);
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
