// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the engine as a data path needs it: explicit-counter
 * transport against the stateful calls, the atomic send counter, requests
 * not tied to a session, failed decryptions that change nothing, the
 * replay window, usage counts, atomic context; handshakes that survive
 * forged messages, allocate nothing but themselves, take a precomputed
 * static-static DH, and supply PSKs from the remote-static callback.
 */

#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "../vectors/replay.h"
#include "engine_test.h"
#include "noise_internal.h"

static const char * const et_ciphers[] = { "ChaChaPoly", "AESGCM" };

/* A split NN pair of @cipher. */
static struct et_pair *et_session(struct kunit *test, unsigned int cipher)
{
	char name[64];
	struct et_pair *p;

	snprintf(name, sizeof(name), "Noise_NN_25519_%s_BLAKE2s", et_ciphers[cipher]);
	p = et_pair_new(test, name, NULL);
	KUNIT_ASSERT_EQ(test, et_handshake(p, 0), 0);
	return p;
}

/* ---- Transport ---- */

/*
 * The _at calls and the stateful ones give the same bytes, both ways, for
 * both ciphers, linear and scatterlist forms.
 */
static void et_at_matches_stateful(struct kunit *test)
{
	unsigned int cipher, i;

	for (cipher = 0; cipher < 2; cipher++) {
		struct et_pair *p = et_session(test, cipher);
		u8 *a = p->buf, *b = p->pt, *c = p->orig, *ad = p->ref;
		struct scatterlist sg;

		for (i = 0; i < 64; i++) {
			size_t len = get_random_u32_below(1500);
			u64 n;

			get_random_bytes(ad, 8 + len);
			memcpy(a, ad + 8, len);
			memcpy(b, ad + 8, len);
			memcpy(c, ad, 8 + len);
			/* Sender: stateful (nonce i) and _at(i), same bytes. */
			KUNIT_ASSERT_EQ(test, noise_cipher_encrypt(p->is, ad, 8, a, len), 0);
			KUNIT_ASSERT_EQ(test, noise_cipher_encrypt_at(p->is, i, ad, 8, b, len), 0);
			KUNIT_EXPECT_MEMEQ(test, a, b, len + NOISE_TAG_LEN);
			sg_init_one(&sg, c, 8 + len + NOISE_TAG_LEN);
			KUNIT_ASSERT_EQ(test, noise_cipher_encrypt_sg_at(p->is, i, &sg, 8, len), 0);
			KUNIT_EXPECT_MEMEQ(test, c + 8, a, len + NOISE_TAG_LEN);
			/* Receiver: stateful, _at and sg_at all open it. */
			KUNIT_ASSERT_EQ(test, noise_cipher_decrypt(p->rr, ad, 8, a,
								   len + NOISE_TAG_LEN), 0);
			KUNIT_EXPECT_MEMEQ(test, a, ad + 8, len);
			KUNIT_ASSERT_EQ(test, noise_cipher_decrypt_at(p->rr, i, ad, 8, b,
								      len + NOISE_TAG_LEN), 0);
			KUNIT_EXPECT_MEMEQ(test, b, ad + 8, len);
			KUNIT_ASSERT_EQ(test, noise_cipher_decrypt_sg_at(p->rr, i, &sg, 8,
									 len + NOISE_TAG_LEN), 0);
			KUNIT_EXPECT_MEMEQ(test, c + 8, ad + 8, len);
			/* Other direction: take_nonce + _at, stateful receiver. */
			KUNIT_ASSERT_EQ(test, noise_cipher_take_nonce(p->rs, &n), 0);
			KUNIT_EXPECT_EQ(test, n, (u64)i);
			memcpy(a, ad + 8, len);
			KUNIT_ASSERT_EQ(test, noise_cipher_encrypt_at(p->rs, n, NULL, 0, a, len),
					0);
			KUNIT_ASSERT_EQ(test, noise_cipher_decrypt(p->ir, NULL, 0, a,
								   len + NOISE_TAG_LEN), 0);
			KUNIT_EXPECT_MEMEQ(test, a, ad + 8, len);
		}
		/* Stateful encryptions and nonces taken count, _at ones not. */
		KUNIT_EXPECT_EQ(test, noise_cipher_messages_sent(p->is), 64ULL);
		KUNIT_EXPECT_EQ(test, noise_cipher_messages_sent(p->rs), 64ULL);
		KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), 3 * 64ULL);
		KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->ir), 64ULL);
		/* The reserved nonce is refused. */
		KUNIT_EXPECT_EQ(test, noise_cipher_encrypt_at(p->is, U64_MAX, NULL, 0, a, 1),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, noise_cipher_decrypt_at(p->rr, U64_MAX, NULL, 0, a, 17),
				-EINVAL);
		kunit_release_action(test, et_pair_release, p);
	}
}

/* A failed _at decryption changes nothing; out-of-order nonces work. */
static void et_at_failure(struct kunit *test)
{
	struct et_pair *p = et_session(test, 1);
	u64 recv;

	memset(p->ref, 7, 100);
	memcpy(p->buf, p->ref, 100);
	KUNIT_ASSERT_EQ(test, noise_cipher_encrypt_at(p->is, 9, NULL, 0, p->buf, 100), 0);
	memcpy(p->orig, p->buf, 116);
	p->buf[3] ^= 1;
	recv = noise_cipher_messages_received(p->rr);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt_at(p->rr, 9, NULL, 0, p->buf, 116), -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), recv);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(p->rr), 0ULL);
	memcpy(p->buf, p->orig, 116);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt_at(p->rr, 8, NULL, 0, p->buf, 116), -EBADMSG);
	memcpy(p->buf, p->orig, 116);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt_at(p->rr, 9, NULL, 0, p->buf, 116), 0);
	KUNIT_EXPECT_MEMEQ(test, p->buf, p->ref, 100);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), recv + 1);
}

/* The send counter: exhaustion never hands out 2^64-1. */
static void et_take_nonce_limit(struct kunit *test)
{
	struct et_pair *p = et_session(test, 0);
	u64 n;

	noise_cipher_set_nonce(p->is, U64_MAX - 2);
	KUNIT_EXPECT_EQ(test, noise_cipher_take_nonce(p->is, &n), 0);
	KUNIT_EXPECT_EQ(test, n, U64_MAX - 2);
	KUNIT_EXPECT_EQ(test, noise_cipher_take_nonce(p->is, &n), 0);
	KUNIT_EXPECT_EQ(test, n, U64_MAX - 1);
	KUNIT_EXPECT_EQ(test, noise_cipher_take_nonce(p->is, &n), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, noise_cipher_take_nonce(p->is, &n), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(p->is), U64_MAX);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_sent(p->is), 2ULL);
}

/* Several threads take nonces and encrypt at once: all nonces distinct. */
#define ET_THREADS 4
#define ET_PER_THREAD 200

struct et_par {
	struct noise_cipher *c;
	u64 *seen;
	u8 *buf;
	int err;
	struct completion done;
};

static int et_par_fn(void *data)
{
	struct et_par *t = data;
	unsigned int i;

	for (i = 0; i < ET_PER_THREAD && !t->err; i++) {
		u64 n;

		t->err = noise_cipher_take_nonce(t->c, &n);
		if (!t->err)
			t->err = noise_cipher_encrypt_at(t->c, n, NULL, 0, t->buf, 64);
		t->seen[i] = n;
		cond_resched();
	}
	complete(&t->done);
	return 0;
}

static void et_concurrent(struct kunit *test)
{
	struct et_pair *p = et_session(test, 0);
	struct et_par t[ET_THREADS];
	unsigned long *bits;
	unsigned int i, j;

	bits = kunit_kzalloc(test, BITS_TO_LONGS(ET_THREADS * ET_PER_THREAD) * sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bits);
	for (i = 0; i < ET_THREADS; i++) {
		struct task_struct *k;

		t[i].c = p->is;
		t[i].err = 0;
		t[i].seen = kunit_kcalloc(test, ET_PER_THREAD, sizeof(u64), GFP_KERNEL);
		t[i].buf = kunit_kzalloc(test, 128, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, t[i].seen && t[i].buf);
		init_completion(&t[i].done);
		k = kthread_run(et_par_fn, &t[i], "et_par%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	}
	for (i = 0; i < ET_THREADS; i++) {
		wait_for_completion(&t[i].done);
		KUNIT_EXPECT_EQ(test, t[i].err, 0);
		for (j = 0; j < ET_PER_THREAD; j++) {
			u64 n = t[i].seen[j];

			KUNIT_ASSERT_LT(test, n, (u64)(ET_THREADS * ET_PER_THREAD));
			KUNIT_EXPECT_FALSE(test, __test_and_set_bit(n, bits));
		}
	}
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_sent(p->is),
			(u64)(ET_THREADS * ET_PER_THREAD));
}

struct et_wait {
	struct completion done;
	int err;
};

static void et_wait_done(void *data, int err)
{
	struct et_wait *w = data;

	w->err = err;
	complete(&w->done);
}

static int et_wait_for(struct et_wait *w, int ret)
{
	if (ret != -EINPROGRESS && ret != -EBUSY)
		return ret;
	wait_for_completion(&w->done);
	return w->err;
}

/*
 * Requests of a cipher, not a session: one request serves two sessions and
 * a rekeyed one, with bottom halves disabled (the calls never sleep).
 */
static void et_async_at(struct kunit *test)
{
	unsigned int cipher;

	for (cipher = 0; cipher < 2; cipher++) {
		struct et_pair *p = et_session(test, cipher);
		struct et_pair *q = et_session(test, cipher);
		struct noise_crypt_req *r;
		struct scatterlist sg;
		struct et_wait w;
		u64 recv;
		int ret;

		r = noise_crypt_req_alloc_id(cipher, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r);
		get_random_bytes(p->ref, 200);
		memcpy(p->buf, p->ref, 200);
		sg_init_one(&sg, p->buf, 4 + 196 + NOISE_TAG_LEN);
		init_completion(&w.done);
		local_bh_disable();
		ret = noise_cipher_encrypt_async_at(p->is, r, 5, &sg, 4, 196, et_wait_done, &w);
		local_bh_enable();
		KUNIT_ASSERT_EQ(test, et_wait_for(&w, ret), 0);
		memcpy(p->orig, p->buf, 216);
		/* Same bytes as the sync _at call. */
		memcpy(p->pt, p->ref, 200);
		KUNIT_ASSERT_EQ(test, noise_cipher_encrypt_at(p->is, 5, p->pt, 4, p->pt + 4, 196),
				0);
		KUNIT_EXPECT_MEMEQ(test, p->pt, p->orig, 216);
		/* A forgery: -EBADMSG, nothing counted. */
		p->buf[100] ^= 1;
		recv = noise_cipher_messages_received(p->rr);
		reinit_completion(&w.done);
		local_bh_disable();
		ret = noise_cipher_decrypt_async_at(p->rr, r, 5, &sg, 4, 212, et_wait_done, &w);
		local_bh_enable();
		KUNIT_EXPECT_EQ(test, et_wait_for(&w, ret), -EBADMSG);
		KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), recv);
		memcpy(p->buf, p->orig, 216);
		reinit_completion(&w.done);
		local_bh_disable();
		ret = noise_cipher_decrypt_async_at(p->rr, r, 5, &sg, 4, 212, et_wait_done, &w);
		local_bh_enable();
		KUNIT_EXPECT_EQ(test, et_wait_for(&w, ret), 0);
		KUNIT_EXPECT_MEMEQ(test, p->buf, p->ref, 200);
		KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), recv + 1);
		/* The same request on another session, then after a rekey. */
		KUNIT_ASSERT_EQ(test, noise_cipher_rekey(q->is), 0);
		KUNIT_ASSERT_EQ(test, noise_cipher_rekey(q->rr), 0);
		memcpy(q->buf, q->ref, 64);
		sg_init_one(&sg, q->buf, 64 + NOISE_TAG_LEN);
		reinit_completion(&w.done);
		ret = noise_cipher_encrypt_async_at(q->is, r, 0, &sg, 0, 64, et_wait_done, &w);
		KUNIT_ASSERT_EQ(test, et_wait_for(&w, ret), 0);
		KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(q->rr, NULL, 0, q->buf, 80), 0);
		KUNIT_EXPECT_MEMEQ(test, q->buf, q->ref, 64);
		/* A request of the other cipher is refused. */
		noise_crypt_req_free(r);
		r = noise_crypt_req_alloc_id(!cipher, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r);
		KUNIT_EXPECT_EQ(test, noise_cipher_encrypt_async_at(q->is, r, 1, &sg, 0, 64,
								    et_wait_done, &w), -EINVAL);
		noise_crypt_req_free(r);
		kunit_release_action(test, et_pair_release, q);
		kunit_release_action(test, et_pair_release, p);
	}
}

/* ---- Replay window ---- */

static void et_replay(struct kunit *test)
{
	struct noise_replay *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	const u64 w = NOISE_REPLAY_WINDOW;
	u64 n, base;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_GE(test, w, 8192ULL);
	noise_replay_init(r);
	/* Fresh: everything new except 2^64-1. */
	KUNIT_EXPECT_TRUE(test, noise_replay_check(r, 0));
	KUNIT_EXPECT_FALSE(test, noise_replay_check(r, U64_MAX));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, U64_MAX));
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, 0));
	KUNIT_EXPECT_FALSE(test, noise_replay_check(r, 0));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, 0));
	/* In order, every replay refused. */
	for (n = 1; n < 3 * w; n++) {
		KUNIT_EXPECT_TRUE(test, noise_replay_check(r, n));
		KUNIT_EXPECT_TRUE(test, noise_replay_update(r, n));
		KUNIT_EXPECT_FALSE(test, noise_replay_update(r, n));
	}
	/* The window edge: top - w + 1 is remembered, top - w is too old. */
	base = 3 * w - 1;
	KUNIT_EXPECT_FALSE(test, noise_replay_check(r, base - w));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, base - w));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, base - w + 1));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, base));
	/* A jump forward: the skipped nonces are accepted once, late. */
	n = base + w / 2;
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, n));
	for (i = 1; i < w / 2; i++) {
		KUNIT_EXPECT_TRUE(test, noise_replay_check(r, base + i));
		KUNIT_EXPECT_TRUE(test, noise_replay_update(r, base + i));
	}
	for (i = 1; i <= w / 2; i++)
		KUNIT_EXPECT_FALSE(test, noise_replay_update(r, base + i));
	/* A jump of more than the whole ring clears it all. */
	n = base + 10 * NOISE_REPLAY_BITS + 3;
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, n));
	for (i = 1; i < w; i++)
		KUNIT_EXPECT_TRUE(test, noise_replay_check(r, n - i));
	KUNIT_EXPECT_FALSE(test, noise_replay_check(r, n - w));
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, n - w + 1));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, n - w));
	/* Near the end of the nonce space (wrap of the counter + 1). */
	noise_replay_init(r);
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, U64_MAX - 1));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, U64_MAX - 1));
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, U64_MAX - 2));
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, U64_MAX - w));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, U64_MAX - 1 - w));
	KUNIT_EXPECT_FALSE(test, noise_replay_update(r, 0));
	/* Random order within the window: each accepted exactly once. */
	noise_replay_init(r);
	KUNIT_EXPECT_TRUE(test, noise_replay_update(r, 100000));
	for (i = 0; i < 20000; i++) {
		n = 100000 - get_random_u32_below(w);
		noise_replay_update(r, n);
		KUNIT_EXPECT_FALSE(test, noise_replay_update(r, n));
		KUNIT_EXPECT_FALSE(test, noise_replay_check(r, n));
	}
}

/* ---- Handshakes ---- */

/*
 * A pending handshake survives 1,000 forged messages, then completes with
 * the real one: the initiator of IK waiting for message 1, and the
 * responder of XX waiting for message 2.
 */
static void et_forgeries(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_IK_25519_ChaChaPoly_BLAKE2s", "Noise_XX_25519_AESGCM_SHA256",
		"Noise_XXpsk3_448_ChaChaPoly_SHA512",
	};
	unsigned int i, k, m;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], NULL);
		unsigned int target = p->info.num_msgs - 1;
		struct noise_handshake *r;
		size_t n, pl;
		bool rf;

		for (m = 0; m < target; m++)
			KUNIT_ASSERT_EQ(test, et_step(p, m, 4, -1, 0, &rf), 0);
		r = target & 1 ? p->ini : p->res;
		KUNIT_ASSERT_EQ(test, noise_handshake_write(target & 1 ? p->res : p->ini, "real",
							    4, p->orig, ET_BUF, &n), 0);
		for (k = 0; k < 1000; k++) {
			size_t len = get_random_u32_below(4) ? n : get_random_u32_below(200);
			int err;

			if (k & 1) {	/* the real message, damaged */
				memcpy(p->buf, p->orig, n);
				p->buf[get_random_u32_below(n)] ^= 1 << get_random_u32_below(8);
				len = n;
			} else {	/* random bytes, random length */
				get_random_bytes(p->buf, len);
			}
			memset(p->pt, 0xaa, 64);
			err = noise_handshake_read(r, p->buf, len, p->pt, ET_BUF, &pl);
			KUNIT_ASSERT_LT(test, err, 0);
			KUNIT_ASSERT_EQ(test, noise_handshake_next(r), NOISE_ACTION_READ);
			/* No unauthenticated plaintext left in the payload buffer. */
			KUNIT_ASSERT_FALSE(test, len >= n && memchr_inv(p->pt, 0, 4));
		}
		KUNIT_ASSERT_EQ(test, noise_handshake_read(r, p->orig, n, p->pt, ET_BUF, &pl), 0);
		KUNIT_EXPECT_EQ(test, pl, (size_t)4);
		KUNIT_EXPECT_MEMEQ(test, p->pt, "real", 4);
		KUNIT_EXPECT_EQ(test, et_split(p), 0);
		et_transport(p, 2, 100);
		kunit_info(test, "%s: 1000 forgeries survived", names[i]);
		kunit_release_action(test, et_pair_release, p);
	}
}

/*
 * Allocations per handshake: one kmalloc per side for the whole handshake
 * (no transform); Split then allocates one transform per cipher state.
 */
static void et_allocations(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_XX_25519_ChaChaPoly_BLAKE2s", "Noise_IKpsk2_25519_AESGCM_SHA256",
		"Noise_XX_448_AESGCM_SHA512",
	};
	unsigned int i, m;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], NULL);
		struct noise_handshake *hs[2] = { p->ini, p->res };
		int k0, t0, r0, reused;
		bool rf;

		/* Measure two fresh states like the pair's. */
		noise_handshake_free(p->ini);
		noise_handshake_free(p->res);
		p->ini = NULL;
		p->res = NULL;
		k0 = atomic_read(&noise_stat_kmallocs);
		t0 = atomic_read(&noise_stat_tfms);
		r0 = atomic_read(&noise_stat_reuses);
		{
			struct noise_keys k = {
				.local_static = p->s[0], .remote_static = p->pub[1],
				.psks = (const u8 (*)[NOISE_PSK_LEN])p->psks[0],
				.num_psks = p->info.num_psks,
				.prologue = "prologue", .prologue_len = 8,
			};

			hs[0] = noise_handshake_new(names[i], NOISE_INITIATOR, &k, GFP_ATOMIC);
			k.local_static = p->s[1];
			k.remote_static = p->pub[0];
			hs[1] = noise_handshake_new(names[i], NOISE_RESPONDER, &k, GFP_ATOMIC);
		}
		KUNIT_ASSERT_FALSE(test, IS_ERR(hs[0]) || IS_ERR(hs[1]));
		p->ini = hs[0];
		p->res = hs[1];
		for (m = 0; m < p->info.num_msgs; m++)
			KUNIT_ASSERT_EQ(test, et_step(p, m, 16, -1, 0, &rf), 0);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&noise_stat_kmallocs) - k0, 2,
				    "%s: kmallocs for two handshakes", names[i]);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&noise_stat_tfms) - t0, 0,
				    "%s: transforms for two handshakes", names[i]);
		KUNIT_EXPECT_EQ(test, et_split(p), 0);
		/*
		 * Split's four cipher states: each a retired one from the pool,
		 * or a new transform and one allocation for it and its requests.
		 */
		reused = atomic_read(&noise_stat_reuses) - r0;
		KUNIT_EXPECT_EQ(test, atomic_read(&noise_stat_tfms) - t0 + reused, 4);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&noise_stat_kmallocs) - k0 - 2 + reused, 4,
				    "%s: kmallocs of Split's four cipher states", names[i]);
		kunit_info(test, "%s: 1 kmalloc and 0 transforms per handshake; Split: %d kmallocs, %d transforms, %d reused",
			   names[i], atomic_read(&noise_stat_kmallocs) - k0 - 2,
			   atomic_read(&noise_stat_tfms) - t0, reused);
		et_transport(p, 1, 64);
		kunit_release_action(test, et_pair_release, p);
	}
}

/* A whole handshake with bottom halves disabled and GFP_ATOMIC. */
static void et_atomic_handshake(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_IKpsk2_25519_AESGCM_SHA256", NULL);
	struct noise_keys k = {
		.local_static = p->s[1], .psks = (const u8 (*)[NOISE_PSK_LEN])p->psks[1],
		.num_psks = 1, .prologue = "prologue", .prologue_len = 8,
	};
	unsigned int m;
	bool rf;
	int err = 0;

	noise_handshake_free(p->res);
	local_bh_disable();
	p->res = noise_handshake_new("Noise_IKpsk2_25519_AESGCM_SHA256", NOISE_RESPONDER, &k,
				     GFP_ATOMIC);
	for (m = 0; m < 2 && !IS_ERR(p->res) && !err; m++)
		err = et_step(p, m, 10, -1, 0, &rf);
	local_bh_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->res));
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, et_split(p), 0);
	et_transport(p, 2, 100);
}

/* The vectors again, the static-static DH computed outside the engine. */
static const void *et_ss_vector_gen(const void *prev, char *desc)
{
	const struct noise_vector *v = prev;

	v = v ? v + 1 : noise_test_vectors;
	if (v >= noise_test_vectors + noise_test_vectors_count)
		return NULL;
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
	return v;
}

static void et_ss_vector(struct kunit *test)
{
	const struct noise_vector *v = test->param_value;
	char why[160];

	switch (noise_vector_replay_flags(v, why, sizeof(why), NOISE_VEC_PRECOMPUTED_SS)) {
	case NOISE_VEC_PASS:
		break;
	case NOISE_VEC_SKIP:
		kunit_skip(test, "%s", why);
		break;
	default:
		KUNIT_FAIL(test, "%s: %s", v->desc, why);
		break;
	}
}

/* The precomputed DH is really used: a wrong one fails authentication. */
static void et_ss_used(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_KK_25519_ChaChaPoly_BLAKE2s", "Noise_IK_25519_AESGCM_SHA256",
		"Noise_K_448_ChaChaPoly_SHA512",
	};
	unsigned int i, good;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		for (good = 0; good < 2; good++) {
			struct et_pair *p = et_pair_new(test, names[i], NULL);
			unsigned int dhlen = p->info.dh_len;
			struct noise_keys k = {
				.local_static = p->s[0], .remote_static = p->pub[1],
				.prologue = "prologue", .prologue_len = 8,
			};
			u8 ss[NOISE_MAX_DHLEN];
			int err;

			KUNIT_ASSERT_EQ(test, noise_dh_shared(p->info.dh, ss, p->s[0], p->pub[1]),
					0);
			ss[3] ^= !good;
			k.precomputed_ss = ss;
			noise_handshake_free(p->ini);
			p->ini = noise_handshake_new(names[i], NOISE_INITIATOR, &k, GFP_KERNEL);
			KUNIT_ASSERT_FALSE(test, IS_ERR(p->ini));
			err = et_handshake(p, 4);
			KUNIT_EXPECT_EQ_MSG(test, err, good ? 0 : -EBADMSG, "%s", names[i]);
			KUNIT_EXPECT_EQ(test, noise_dh_shared(p->info.dh, ss, p->s[1], p->pub[0]),
					0);
			memzero_explicit(ss, dhlen);
			kunit_release_action(test, et_pair_release, p);
		}
	}
}

/*
 * The handshake of @name with DH(s, re) supplied to the reader of message
 * @at, for the e that message begins with: the right value (@mode 0), a
 * wrong one (1), or a right one for another e (2).
 */
static int et_sre_run(struct kunit *test, const char *name, unsigned int at, int mode)
{
	struct et_pair *p = et_pair_new(test, name, NULL);
	bool ini_reads = !p->info.one_way && (at & 1), rf;
	struct noise_handshake *r = ini_reads ? p->ini : p->res;
	struct noise_handshake *w = ini_reads ? p->res : p->ini;
	u8 dh[NOISE_MAX_DHLEN], other[NOISE_MAX_DHLEN], other_pub[NOISE_MAX_DHLEN];
	unsigned int i;
	const u8 *re = p->buf;
	size_t n, pl;
	int err = 0;

	for (i = 0; !err && i < at; i++)
		err = et_step(p, i, 4, -1, 0, &rf);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, noise_handshake_write(w, NULL, 0, p->buf, ET_BUF, &n), 0);
	if (mode == 2) {
		KUNIT_ASSERT_EQ(test, noise_dh_generate(p->info.dh, other, other_pub), 0);
		re = other_pub;
	}
	KUNIT_ASSERT_EQ(test, noise_dh_shared(p->info.dh, dh, p->s[ini_reads ? 0 : 1], re), 0);
	dh[5] ^= mode == 1;
	KUNIT_EXPECT_EQ(test, noise_handshake_set_precomputed_sre(r, re, dh), 0);
	memzero_explicit(dh, sizeof(dh));
	memzero_explicit(other, sizeof(other));
	err = noise_handshake_read(r, p->buf, n, p->pt, ET_BUF, &pl);
	for (i = at + 1; !err && i < p->info.num_msgs; i++)
		err = et_step(p, i, 4, -1, 0, &rf);
	if (!err)
		err = et_split(p);
	kunit_release_action(test, et_pair_release, p);
	return err;
}

/* A supplied DH(s, re) is used, and only for its e; refused where unused. */
static void et_sre_used(struct kunit *test)
{
	static const struct { const char *name; unsigned int at; } c[] = {
		{ "Noise_KK_25519_ChaChaPoly_BLAKE2s", 0 },	/* responder's es */
		{ "Noise_KK_25519_ChaChaPoly_BLAKE2s", 1 },	/* initiator's se */
		{ "Noise_IK_448_AESGCM_SHA512", 0 },
		{ "Noise_NK_25519_AESGCM_SHA256", 0 },
		{ "Noise_KKpsk0_25519_ChaChaPoly_BLAKE2s", 0 },
	};
	u8 zero[NOISE_MAX_DHLEN] = {};
	struct et_pair *p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		KUNIT_EXPECT_EQ_MSG(test, et_sre_run(test, c[i].name, c[i].at, 0), 0,
				    "%s %u", c[i].name, c[i].at);
		KUNIT_EXPECT_EQ_MSG(test, et_sre_run(test, c[i].name, c[i].at, 1), -EBADMSG,
				    "%s %u", c[i].name, c[i].at);
		KUNIT_EXPECT_EQ_MSG(test, et_sre_run(test, c[i].name, c[i].at, 2), 0,
				    "%s %u", c[i].name, c[i].at);
	}
	/* NN's responder has no s; X's initiator never computes DH(s, re). */
	p = et_pair_new(test, "Noise_NN_25519_ChaChaPoly_BLAKE2s", NULL);
	KUNIT_EXPECT_EQ(test, noise_handshake_set_precomputed_sre(p->res, zero, zero), -EINVAL);
	kunit_release_action(test, et_pair_release, p);
	p = et_pair_new(test, "Noise_X_25519_ChaChaPoly_BLAKE2s", NULL);
	KUNIT_EXPECT_EQ(test, noise_handshake_set_precomputed_sre(p->ini, zero, zero), -EINVAL);
	KUNIT_EXPECT_EQ(test, noise_handshake_set_precomputed_sre(p->res, zero, zero), 0);
	kunit_release_action(test, et_pair_release, p);
}

/* The callback: the responder looks the peer up and supplies its PSK. */
struct et_peer {
	struct et_pair *p;
	const u8 *psk;
	unsigned int calls;
	int fail;
};

static int et_peer_cb(void *ctx, struct noise_handshake *hs, const u8 *remote_static)
{
	struct et_peer *e = ctx;
	u8 ss[NOISE_MAX_DHLEN];
	int err;

	e->calls++;
	if (e->fail)
		return e->fail;
	if (memcmp(remote_static, e->p->pub[0], e->p->info.dh_len))
		return -ENOENT;
	err = noise_handshake_set_psk(hs, 0, e->psk);
	if (!err)
		err = noise_dh_shared(e->p->info.dh, ss, e->p->s[1], remote_static);
	if (!err)
		err = noise_handshake_set_precomputed_ss(hs, ss);
	memzero_explicit(ss, sizeof(ss));
	return err;
}

static void et_remote_static_cb(struct kunit *test)
{
	const char *name = "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s";
	struct et_pair *p = et_pair_new(test, name, NULL);
	struct et_peer e = { .p = p, .psk = p->psks[1][0], .fail = -EPERM };
	struct noise_keys k = {
		.local_static = p->s[1], .prologue = "prologue", .prologue_len = 8,
		.remote_static_cb = et_peer_cb, .cb_ctx = &e,
	};
	size_t n, pl;
	bool rf;

	noise_handshake_free(p->res);
	p->res = noise_handshake_new(name, NOISE_RESPONDER, &k, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->res));
	KUNIT_ASSERT_EQ(test, noise_handshake_write(p->ini, "x", 1, p->orig, ET_BUF, &n), 0);
	/* The callback refuses: the read fails with its error, nothing changes. */
	memcpy(p->buf, p->orig, n);
	KUNIT_EXPECT_EQ(test, noise_handshake_read(p->res, p->buf, n, p->pt, ET_BUF, &pl),
			-EPERM);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(p->res), NOISE_ACTION_READ);
	KUNIT_EXPECT_EQ(test, noise_handshake_remote_static(p->res, p->pt, 64), -ENOENT);
	/* Then it accepts; the PSK it gave is used (psk2, message 1). */
	e.fail = 0;
	KUNIT_EXPECT_EQ(test, noise_handshake_read(p->res, p->buf, n, p->pt, ET_BUF, &pl), 0);
	KUNIT_EXPECT_EQ(test, e.calls, 2U);
	KUNIT_EXPECT_EQ(test, et_step(p, 1, 5, -1, 0, &rf), 0);
	KUNIT_EXPECT_EQ(test, et_split(p), 0);
	et_transport(p, 2, 64);
}

/*
 * noise_handshake_dh_ephemeral(): DH(e, pub) from message 1 on equals
 * DH(the responder's static private key, e_pub), e_pub being the first
 * DHLEN bytes of message 1; -ENOKEY before the e token and after its last
 * use; -ENOBUFS for a short buffer.
 */
static void et_dh_ephemeral(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_KK_25519_ChaChaPoly_BLAKE2s", "Noise_KKpsk0_448_AESGCM_SHA512",
	};
	u8 out[NOISE_MAX_DHLEN], ref[NOISE_MAX_DHLEN];
	unsigned int i, len;
	bool rf;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], NULL);

		len = p->info.dh_len;
		KUNIT_EXPECT_EQ(test, noise_handshake_dh_ephemeral(p->ini, p->pub[1], out,
								   sizeof(out)), -ENOKEY);
		KUNIT_ASSERT_EQ(test, et_step(p, 0, 12, -1, 0, &rf), 0);
		KUNIT_ASSERT_EQ(test, noise_dh_shared(p->info.dh, ref, p->s[1], p->orig), 0);
		KUNIT_EXPECT_EQ(test, noise_handshake_dh_ephemeral(p->ini, p->pub[1], out,
								   sizeof(out)), (int)len);
		KUNIT_EXPECT_MEMEQ_MSG(test, out, ref, len, "%s", names[i]);
		KUNIT_EXPECT_EQ(test, noise_handshake_dh_ephemeral(p->ini, p->pub[1], out,
								   len - 1), -ENOBUFS);
		/* The responder has read e but not made its own yet. */
		KUNIT_EXPECT_EQ(test, noise_handshake_dh_ephemeral(p->res, p->pub[0], out,
								   sizeof(out)), -ENOKEY);
		KUNIT_ASSERT_EQ(test, et_step(p, 1, 0, -1, 0, &rf), 0);
		/* After message 2 the initiator's e is wiped (its last use). */
		KUNIT_EXPECT_EQ(test, noise_handshake_dh_ephemeral(p->ini, p->pub[1], out,
								   sizeof(out)), -ENOKEY);
		memzero_explicit(out, sizeof(out));
		memzero_explicit(ref, sizeof(ref));
		kunit_release_action(test, et_pair_release, p);
	}
}

static struct kunit_case et_dp_cases[] = {
	KUNIT_CASE(et_at_matches_stateful),
	KUNIT_CASE(et_at_failure),
	KUNIT_CASE(et_take_nonce_limit),
	KUNIT_CASE(et_concurrent),
	KUNIT_CASE(et_async_at),
	KUNIT_CASE(et_replay),
	KUNIT_CASE_SLOW(et_forgeries),
	KUNIT_CASE(et_allocations),
	KUNIT_CASE(et_atomic_handshake),
	KUNIT_CASE(et_ss_used),
	KUNIT_CASE(et_sre_used),
	KUNIT_CASE(et_remote_static_cb),
	KUNIT_CASE(et_dh_ephemeral),
	KUNIT_CASE_PARAM(et_ss_vector, et_ss_vector_gen),
	{}
};

static struct kunit_suite et_dp_suite = {
	.name = "noise_engine_datapath",
	.test_cases = et_dp_cases,
};

kunit_test_suite(et_dp_suite);
