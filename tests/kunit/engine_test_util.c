// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit helpers: a pair of handshake states with fresh keys.
 */

#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "engine_test.h"

/* Free a pair (a KUnit action, also called early by kunit_release_action()). */
void et_pair_release(void *data)
{
	struct et_pair *p = data;

	if (!IS_ERR_OR_NULL(p->ini))
		noise_handshake_free(p->ini);
	if (!IS_ERR_OR_NULL(p->res))
		noise_handshake_free(p->res);
	noise_cipher_free(p->is);
	noise_cipher_free(p->ir);
	noise_cipher_free(p->rs);
	noise_cipher_free(p->rr);
	kfree(p->buf);
	kfree(p->pt);
	kfree(p->ref);
	kfree(p->orig);
	kfree_sensitive(p);
}

static void et_keys(struct et_pair *p, int side, struct noise_keys *k)
{
	memset(k, 0, sizeof(*k));
	k->local_static = p->s[side];
	k->remote_static = side == 0 && p->use_bad_rs ? p->bad_pub : p->pub[!side];
	if (side)
		k->local_ephemeral = p->e_res;
	else
		k->remote_ephemeral = p->e_res_pub;
	k->psks = (const u8 (*)[NOISE_PSK_LEN])p->psks[side];
	k->num_psks = p->info.num_psks;
	k->prologue = p->prologue[side];
	k->prologue_len = strlen(p->prologue[side]);
}

/**
 * et_pair_new() - two handshake states for @name with fresh keys.
 * @test: the test; everything is released when it ends.
 * @name: the protocol name (must be valid and supported).
 * @opts: differences, or NULL.
 * Return: the pair (the test is aborted on failure).
 */
struct et_pair *et_pair_new(struct kunit *test, const char *name,
			    const struct et_opts *opts)
{
	struct noise_keys k;
	struct et_pair *p;
	int i, dh;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, et_pair_release, p));
	p->test = test;
	p->buf = kmalloc(ET_BUF, GFP_KERNEL);
	p->pt = kmalloc(ET_BUF, GFP_KERNEL);
	p->ref = kmalloc(ET_BUF, GFP_KERNEL);
	p->orig = kmalloc(ET_BUF, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, p->buf && p->pt && p->ref && p->orig);
	KUNIT_ASSERT_EQ_MSG(test, 0, noise_protocol_info(name, &p->info), "%s", name);
	dh = p->info.dh;
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, 0, noise_dh_generate(dh, p->s[i], p->pub[i]));
	KUNIT_ASSERT_EQ(test, 0, noise_dh_generate(dh, p->e_res, p->e_res_pub));
	get_random_bytes(p->psks[0], sizeof(p->psks[0]));
	memcpy(p->psks[1], p->psks[0], sizeof(p->psks[0]));
	strscpy(p->prologue[0], "prologue");
	strscpy(p->prologue[1], opts && opts->resp_prologue ? opts->resp_prologue :
			"prologue");
	if (opts && opts->wrong_psk)
		p->psks[1][0][0] ^= 1;
	if (opts && opts->wrong_rs) {
		u8 priv[NOISE_MAX_DHLEN];

		KUNIT_ASSERT_EQ(test, 0, noise_dh_generate(dh, priv, p->bad_pub));
		p->use_bad_rs = true;
	}
	et_keys(p, 0, &k);
	p->ini = noise_handshake_new(name, NOISE_INITIATOR, &k, GFP_KERNEL);
	et_keys(p, 1, &k);
	if (opts && opts->resp_template) {
		struct noise_handshake_template *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_ASSERT_EQ(test, 0,
				noise_handshake_template_init(t, name, k.prologue, k.prologue_len));
		k.prologue = NULL;
		k.prologue_len = 0;
		p->res = noise_handshake_new_from(t, NOISE_RESPONDER, &k, GFP_KERNEL);
	} else {
		p->res = noise_handshake_new(name, NOISE_RESPONDER, &k, GFP_KERNEL);
	}
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(p->ini) || IS_ERR(p->res), "%s: %ld %ld",
			       name, PTR_ERR(p->ini), PTR_ERR(p->res));
	return p;
}

/**
 * et_step() - handshake message @i: write, optionally damage, read.
 * @p: the pair.
 * @i: message index.
 * @payload_len: random payload of this length.
 * @tamper: flip a bit of this byte of the message (-1: none).
 * @trunc: remove this many bytes from the end.
 * @read_failed: set if the error came from the reader.
 *
 * An undamaged message must give back the payload.
 * Return: 0 or the first error.
 */
int et_step(struct et_pair *p, unsigned int i, size_t payload_len, int tamper,
	    size_t trunc, bool *read_failed)
{
	bool ini_writes = p->info.one_way || !(i & 1);
	struct noise_handshake *w = ini_writes ? p->ini : p->res;
	struct noise_handshake *r = ini_writes ? p->res : p->ini;
	size_t n, pl;
	int err;

	*read_failed = false;
	get_random_bytes(p->ref, payload_len);
	err = noise_handshake_write(w, p->ref, payload_len, p->buf, ET_BUF, &n);
	if (err)
		return err;
	memcpy(p->orig, p->buf, n);
	p->orig_len = n;
	if (tamper >= 0)
		p->buf[tamper % n] ^= 1 << (tamper & 7);
	n = trunc > n ? 0 : n - trunc;
	*read_failed = true;
	err = noise_handshake_read(r, p->buf, n, p->pt, ET_BUF, &pl);
	if (err)
		return err;
	*read_failed = false;
	if (tamper < 0 && !trunc) {
		KUNIT_EXPECT_EQ(p->test, pl, payload_len);
		KUNIT_EXPECT_MEMEQ(p->test, p->pt, p->ref, payload_len);
	}
	return 0;
}

/**
 * et_resend() - read message @i again, undamaged, after a damaged copy
 * failed: it must succeed and give back the payload.
 * @p: the pair.
 * @i: message index.
 * Return: 0 or the error of the read.
 */
int et_resend(struct et_pair *p, unsigned int i)
{
	bool ini_writes = p->info.one_way || !(i & 1);
	struct noise_handshake *r = ini_writes ? p->res : p->ini;
	size_t pl;
	int err;

	err = noise_handshake_read(r, p->orig, p->orig_len, p->pt, ET_BUF, &pl);
	if (err)
		return err;
	KUNIT_EXPECT_EQ(p->test, pl, (size_t)8);
	KUNIT_EXPECT_MEMEQ(p->test, p->pt, p->ref, pl);
	return 0;
}

/**
 * et_split() - Split() both sides and check they agree on h.
 * @p: the pair.
 * Return: 0 or the error of Split().
 */
int et_split(struct et_pair *p)
{
	u8 h[2][NOISE_MAX_HASHLEN];
	int err;

	err = noise_handshake_split(p->ini, &p->is, &p->ir);
	if (!err)
		err = noise_handshake_split(p->res, &p->rs, &p->rr);
	if (err)
		return err;
	KUNIT_EXPECT_EQ(p->test, noise_handshake_hash(p->ini, h[0], sizeof(h[0])),
			(int)p->info.hash_len);
	KUNIT_EXPECT_EQ(p->test, noise_handshake_hash(p->res, h[1], sizeof(h[1])),
			(int)p->info.hash_len);
	KUNIT_EXPECT_MEMEQ(p->test, h[0], h[1], p->info.hash_len);
	KUNIT_EXPECT_EQ(p->test, !p->is, false);
	KUNIT_EXPECT_EQ(p->test, !p->rr, false);
	KUNIT_EXPECT_EQ(p->test, !p->ir, p->info.one_way);
	KUNIT_EXPECT_EQ(p->test, !p->rs, p->info.one_way);
	return 0;
}

/**
 * et_handshake() - the whole handshake and Split().
 * @p: the pair.
 * @payload_len: payload length of every message.
 * Return: 0 or the first error.
 */
int et_handshake(struct et_pair *p, size_t payload_len)
{
	unsigned int i;
	bool rf;
	int err;

	for (i = 0; i < p->info.num_msgs; i++) {
		err = et_step(p, i, payload_len, -1, 0, &rf);
		if (err)
			return err;
	}
	return et_split(p);
}

static void et_one(struct et_pair *p, struct noise_cipher *s, struct noise_cipher *r,
		   size_t len)
{
	get_random_bytes(p->ref, len);
	memcpy(p->buf, p->ref, len);
	KUNIT_ASSERT_EQ(p->test, 0, noise_cipher_encrypt(s, NULL, 0, p->buf, len));
	KUNIT_ASSERT_EQ(p->test, 0, noise_cipher_decrypt(r, NULL, 0, p->buf,
							 len + NOISE_TAG_LEN));
	KUNIT_EXPECT_MEMEQ(p->test, p->buf, p->ref, len);
}

/**
 * et_transport() - @count messages each way (one way for N, K, X).
 * @p: a split pair.
 * @count: messages per direction.
 * @max_len: largest payload.
 */
void et_transport(struct et_pair *p, unsigned int count, size_t max_len)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		et_one(p, p->is, p->rr, get_random_u32_below(max_len + 1));
		if (!p->info.one_way)
			et_one(p, p->rs, p->ir, get_random_u32_below(max_len + 1));
	}
}
