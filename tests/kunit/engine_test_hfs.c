// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the hfs modifier beyond the public vectors (which cover the 12
 * fundamental patterns, 25519 and ML-KEM-768): every interactive pattern
 * with both KEMs, psk modifiers, both DH functions and every cipher and
 * hash; message sizes; damaged and invalid KEM tokens; the KEM secrets
 * wiped; the test-only seed hook.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include "engine_test.h"
#include "noise_internal.h"

static const char * const eh_patterns[] = {
	"NN", "NK", "NX", "KN", "KK", "KX", "XN", "XK", "XX", "IN", "IK", "IX",
	"NK1", "NX1", "X1N", "X1K", "XK1", "X1K1", "X1X", "XX1", "X1X1", "K1N",
	"K1K", "KK1", "K1K1", "K1X", "KX1", "K1X1", "I1N", "I1K", "IK1", "I1K1",
	"I1X", "IX1", "I1X1",
};

static const char * const eh_ciphers[] = { "ChaChaPoly", "AESGCM" };
static const char * const eh_hashes[] = { "SHA256", "SHA512", "BLAKE2s", "BLAKE2b" };
static const char * const eh_psks[] = { "", "+psk0", "+psk1", "+psk2", "+psk0+psk2" };

/* Every interactive pattern with both KEMs: handshake, Split, transport. */
static void eh_all_patterns(struct kunit *test)
{
	char name[NOISE_MAX_NAME_LEN + 1];
	unsigned int i, k, n, done = 0;

	for (i = 0; i < ARRAY_SIZE(eh_patterns); i++) {
		for (k = 0; k < 2; k++) {
			bool x448 = (i + k) % 6 == 0;
			struct et_pair *p;

			n = i * 2 + k;
			snprintf(name, sizeof(name), "Noise_%shfs%s_%s+%s_%s_%s",
				 eh_patterns[i], eh_psks[n % ARRAY_SIZE(eh_psks)],
				 x448 ? "448" : "25519", k ? "MLKEM1024" : "MLKEM768",
				 eh_ciphers[n % 2], eh_hashes[(n / 2) % 4]);
			p = et_pair_new(test, name, NULL);
			KUNIT_EXPECT_EQ(test, p->info.kem_pub_len, k ? 1568U : 1184U);
			KUNIT_EXPECT_EQ(test, p->info.kem_ct_len, k ? 1568U : 1088U);
			KUNIT_ASSERT_EQ_MSG(test, et_handshake(p, 16), 0, "%s", name);
			KUNIT_EXPECT_FALSE_MSG(test, noise_handshake_has_ephemeral(p->ini),
					       "%s", name);
			KUNIT_EXPECT_FALSE_MSG(test, noise_handshake_has_ephemeral(p->res),
					       "%s", name);
			et_transport(p, 2, 100);
			kunit_release_action(test, et_pair_release, p);
			done++;
		}
	}
	kunit_info(test, "%u hfs handshakes", done);
}

struct eh_size_case {
	const char *name;
	size_t len[2];	/* messages 0 and 1 with empty payloads */
};

static const struct eh_size_case eh_sizes_cases[] = {
	/* -> e, e1 (in clear); <- e, ee, ekem1 (encrypted), payload tag */
	{ "Noise_NNhfs_25519+MLKEM768_ChaChaPoly_SHA256",
	  { 32 + 1184, 32 + 1088 + 16 + 16 } },
	{ "Noise_NNhfs_25519+MLKEM1024_AESGCM_BLAKE2b",
	  { 32 + 1568, 32 + 1568 + 16 + 16 } },
	/* -> e, es, e1 (encrypted after es) */
	{ "Noise_NKhfs_25519+MLKEM768_AESGCM_BLAKE2s",
	  { 32 + 1184 + 16 + 16, 32 + 1088 + 16 + 16 } },
	/* psk: e's MixKey gives a key, so e1 is encrypted (no MixKey of e1) */
	{ "Noise_NNhfs+psk2_25519+MLKEM1024_ChaChaPoly_SHA512",
	  { 32 + 1568 + 16 + 16, 32 + 1568 + 16 + 16 } },
	{ "Noise_NNpsk0+hfs_25519+MLKEM768_ChaChaPoly_SHA256",
	  { 32 + 1184 + 16 + 16, 32 + 1088 + 16 + 16 } },
};

/* Message sizes; one byte short is refused and changes nothing. */
static void eh_sizes(struct kunit *test)
{
	unsigned int i, m;
	size_t n, pl;

	for (i = 0; i < ARRAY_SIZE(eh_sizes_cases); i++) {
		const struct eh_size_case *c = &eh_sizes_cases[i];
		struct et_pair *p = et_pair_new(test, c->name, NULL);

		for (m = 0; m < 2; m++) {
			struct noise_handshake *w = m ? p->res : p->ini;
			struct noise_handshake *r = m ? p->ini : p->res;

			KUNIT_EXPECT_EQ(test, noise_handshake_write(w, NULL, 0, p->buf,
								    c->len[m] - 1, &n), -ENOBUFS);
			KUNIT_ASSERT_EQ(test, noise_handshake_write(w, NULL, 0, p->buf,
								    ET_BUF, &n), 0);
			KUNIT_EXPECT_EQ_MSG(test, n, c->len[m], "%s message %u", c->name, m);
			KUNIT_EXPECT_EQ(test, noise_handshake_read(r, p->buf, n - 1, p->pt,
								   ET_BUF, &pl), -EBADMSG);
			KUNIT_ASSERT_EQ_MSG(test, noise_handshake_read(r, p->buf, n, p->pt,
								       ET_BUF, &pl), 0,
					    "%s message %u", c->name, m);
		}
		KUNIT_EXPECT_EQ(test, et_split(p), 0);
		kunit_release_action(test, et_pair_release, p);
	}
}

/*
 * A damaged KEM token fails the read (authentication) and leaves the
 * reader as it was: the undamaged message is then read.
 */
static void eh_tamper(struct kunit *test)
{
	static const struct {
		const char *name;
		unsigned int msg, byte;
	} cases[] = {
		{ "Noise_NKhfs_25519+MLKEM768_ChaChaPoly_SHA256", 0, 32 + 500 },
		{ "Noise_XXhfs_25519+MLKEM768_AESGCM_SHA256", 1, 32 + 700 },
		{ "Noise_IKhfs+psk2_25519+MLKEM1024_ChaChaPoly_BLAKE2s", 1, 32 + 1000 },
		{ "Noise_NNhfs_25519+MLKEM1024_ChaChaPoly_SHA256", 1, 32 + 5 },
	};
	unsigned int i, m;
	bool rf;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct et_pair *p = et_pair_new(test, cases[i].name, NULL);

		for (m = 0; m < p->info.num_msgs; m++) {
			if (m == cases[i].msg) {
				KUNIT_EXPECT_EQ_MSG(test, et_step(p, m, 8, cases[i].byte, 0, &rf),
						    -EBADMSG, "%s", cases[i].name);
				KUNIT_EXPECT_TRUE(test, rf);
				KUNIT_ASSERT_EQ(test, et_resend(p, m), 0);
			} else {
				KUNIT_ASSERT_EQ(test, et_step(p, m, 8, -1, 0, &rf), 0);
			}
		}
		KUNIT_EXPECT_EQ(test, et_split(p), 0);
		kunit_release_action(test, et_pair_release, p);
	}
}

/* An e1 that fails ML-KEM's modulus check is refused when it is read. */
static void eh_bad_e1(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_NNhfs_25519+MLKEM768_ChaChaPoly_SHA256",
		"Noise_XNhfs_25519+MLKEM1024_AESGCM_SHA256",
	};
	unsigned int i;
	size_t n, pl;
	bool rf;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], NULL);

		KUNIT_ASSERT_EQ(test, noise_handshake_write(p->ini, NULL, 0, p->buf,
							    ET_BUF, &n), 0);
		memcpy(p->orig, p->buf, n);
		memset(p->buf + 32, 0xff, 3);	/* coefficients 4095 */
		KUNIT_EXPECT_EQ(test, noise_handshake_read(p->res, p->buf, n, p->pt,
							   ET_BUF, &pl), -EINVAL);
		KUNIT_EXPECT_EQ(test, noise_handshake_next(p->res), NOISE_ACTION_READ);
		KUNIT_ASSERT_EQ(test, noise_handshake_read(p->res, p->orig, n, p->pt,
							   ET_BUF, &pl), 0);
		KUNIT_ASSERT_EQ(test, et_step(p, 1, 8, -1, 0, &rf), 0);
		kunit_release_action(test, et_pair_release, p);
	}
}

/* The KEM decapsulation key lives from e1 until ekem1 is read. */
static void eh_wipe(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_NXhfs_25519+MLKEM768_ChaChaPoly_SHA256",
					NULL);
	bool rf;

	KUNIT_EXPECT_FALSE(test, noise_handshake_has_ephemeral(p->ini));
	KUNIT_ASSERT_EQ(test, et_step(p, 0, 8, -1, 0, &rf), 0);
	KUNIT_EXPECT_TRUE(test, noise_handshake_has_ephemeral(p->ini));
	/* A damaged ekem1 does not consume the key. */
	KUNIT_EXPECT_EQ(test, et_step(p, 1, 8, 32 + 40, 0, &rf), -EBADMSG);
	KUNIT_EXPECT_TRUE(test, noise_handshake_has_ephemeral(p->ini));
	KUNIT_ASSERT_EQ(test, et_resend(p, 1), 0);
	KUNIT_EXPECT_FALSE(test, noise_handshake_has_ephemeral(p->ini));
	KUNIT_EXPECT_FALSE(test, noise_handshake_has_ephemeral(p->res));
	KUNIT_EXPECT_EQ(test, et_split(p), 0);
}

#define EH_NN768 "Noise_NNhfs_25519+MLKEM768_ChaChaPoly_SHA256"

/* The test build's KEM seed hook: hfs handshakes only, 64 or 32 bytes. */
static void eh_seed_hook(struct kunit *test)
{
	static const u8 seed[64] = { 1 };
	struct et_pair *p = et_pair_new(test, EH_NN768, NULL);
	struct et_pair *q = et_pair_new(test, EH_NN768, NULL);
	struct et_pair *plain = et_pair_new(test, "Noise_NN_25519_ChaChaPoly_SHA256", NULL);
	size_t n[2], pl;
	bool rf;

	KUNIT_EXPECT_EQ(test, noise_handshake_set_kem_seed_for_testing(plain->ini, seed, 64),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, noise_handshake_set_kem_seed_for_testing(p->ini, seed, 33),
			-EINVAL);
	/* The same seed gives the same e1 twice (e1 is in clear in NN). */
	KUNIT_ASSERT_EQ(test, noise_handshake_set_kem_seed_for_testing(p->ini, seed, 64), 0);
	KUNIT_ASSERT_EQ(test, noise_handshake_set_kem_seed_for_testing(q->ini, seed, 64), 0);
	KUNIT_ASSERT_EQ(test, noise_handshake_write(p->ini, NULL, 0, p->buf, ET_BUF, &n[0]), 0);
	KUNIT_ASSERT_EQ(test, noise_handshake_write(q->ini, NULL, 0, q->buf, ET_BUF, &n[1]), 0);
	KUNIT_ASSERT_EQ(test, n[0], n[1]);
	KUNIT_EXPECT_MEMEQ(test, p->buf + 32, q->buf + 32, 1184);
	/* Past its KEM tokens, a handshake refuses a seed. */
	KUNIT_ASSERT_EQ(test, noise_handshake_read(p->res, p->buf, n[0], p->pt, ET_BUF, &pl), 0);
	KUNIT_ASSERT_EQ(test, et_step(p, 1, 8, -1, 0, &rf), 0);
	KUNIT_EXPECT_EQ(test, noise_handshake_set_kem_seed_for_testing(p->ini, seed, 64),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, et_split(p), 0);
}

static struct kunit_case eh_cases[] = {
	KUNIT_CASE_SLOW(eh_all_patterns),
	KUNIT_CASE(eh_sizes),
	KUNIT_CASE(eh_tamper),
	KUNIT_CASE(eh_bad_e1),
	KUNIT_CASE(eh_wipe),
	KUNIT_CASE(eh_seed_hook),
	{}
};

static struct kunit_suite eh_suite = {
	.name = "noise_engine_hfs",
	.test_cases = eh_cases,
};

kunit_test_suite(eh_suite);
