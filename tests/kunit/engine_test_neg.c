// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what no public vector covers. Invalid names, mismatched prologue,
 * PSK or static key, damaged, truncated, oversized and out-of-order
 * messages, low-order keys, nonce exhaustion, Rekey against an independent
 * computation, failed decryption leaving no trace, multi-psk handshakes,
 * explicit nonces, scatterlists and the asynchronous calls.
 */

#include <crypto/aead.h>
#include <crypto/blake2s.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include "engine_test.h"
#include "noise_internal.h"

#define SUITE "_25519_ChaChaPoly_SHA256"

MODULE_IMPORT_NS(NOISE_INTERNAL);

struct et_name_case {
	const char *name;
	int err;
};

static const struct et_name_case et_bad_names[] = {
	{ "", -EINVAL },
	{ "Noise", -EINVAL },
	{ "Noise_", -EINVAL },
	{ "noise_XX" SUITE, -EINVAL },			/* prefix case */
	{ "Noise_XX_25519_ChaChaPoly", -EINVAL },	/* no hash */
	{ "Noise_XX_25519_ChaChaPoly_SHA256_", -EINVAL },
	{ "Noise_XX_25519_ChaChaPoly_SHA256x", -EINVAL },
	{ "Noise_XX_25519_ChaChaPoly_SHA256_extra", -EINVAL },
	{ "Noise_XX_25519_ChaChaPoly_SHA256\n", -EINVAL },
	{ "Noise__25519_ChaChaPoly_SHA256", -EINVAL },	/* empty pattern */
	{ "Noise_XX__ChaChaPoly_SHA256", -EINVAL },	/* empty DH */
	{ "Noise_XY" SUITE, -EINVAL },			/* unknown pattern */
	{ "Noise_xx" SUITE, -EINVAL },
	{ "Noise_XXX" SUITE, -EINVAL },
	{ "Noise_NX2" SUITE, -EINVAL },
	{ "Noise_XX_25518_ChaChaPoly_SHA256", -EINVAL },	/* unknown DH */
	{ "Noise_XX_25519+448_ChaChaPoly_SHA256", -EOPNOTSUPP },	/* hybrid DH */
	{ "Noise_XXhfs_25519+448_ChaChaPoly_SHA256", -EINVAL },	/* hfs: no KEM */
	{ "Noise_XXhfs" SUITE, -EINVAL },
	{ "Noise_XXhfs_25519+MLKEM512_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXhfs_25519+mlkem768_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXhfs_25519+MLKEM768+448_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXhfs_MLKEM768_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXhfs_MLKEM768+25519_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XX_25519+MLKEM768_ChaChaPoly_SHA256", -EINVAL },	/* KEM, no hfs */
	{ "Noise_Nhfs_25519+MLKEM768_ChaChaPoly_SHA256", -EINVAL },	/* one-way */
	{ "Noise_Khfs_25519+MLKEM768_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_Xhfs+psk1_25519+MLKEM1024_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXfallback+hfs_25519+MLKEM768_ChaChaPoly_SHA256", -EOPNOTSUPP },
	{ "Noise_XXhfs+hfs_25519+MLKEM768_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXHFS_25519+MLKEM768_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XX_25519+_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XX_25519+449_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XX_25519_ChaCha_SHA256", -EINVAL },	/* unknown cipher */
	{ "Noise_XX_25519_chachapoly_SHA256", -EINVAL },
	{ "Noise_XX_25519_AESGCM256_SHA256", -EINVAL },
	{ "Noise_XX_25519_ChaChaPoly_SHA1", -EINVAL },	/* unknown hash */
	{ "Noise_XX_25519_ChaChaPoly_BLAKE2S", -EINVAL },
	{ "Noise_XX_25519_ChaChaPoly_SHA-256", -EINVAL },	/* bad character */
	{ "Noise_XX 25519_ChaChaPoly_SHA256", -EINVAL },
	{ "Noise_XXpsk" SUITE, -EINVAL },		/* psk without a number */
	{ "Noise_XXpsk4" SUITE, -EINVAL },		/* after the last message */
	{ "Noise_Npsk2" SUITE, -EINVAL },		/* one-way: one message */
	{ "Noise_X1X1psk5" SUITE, -EINVAL },
	{ "Noise_XX1psk0+psk1+psk2+psk3+psk4" SUITE, -EINVAL },
	{ "Noise_XXpsk01" SUITE, -EINVAL },		/* leading zero */
	{ "Noise_XXpsk3+psk0" SUITE, -EINVAL },		/* unsorted */
	{ "Noise_XXpsk0+psk0" SUITE, -EINVAL },		/* repeated */
	{ "Noise_XXpsk0+" SUITE, -EINVAL },		/* trailing '+' */
	{ "Noise_XX+psk0" SUITE, -EINVAL },		/* '+' before the first */
	{ "Noise_XXpsk0++psk1" SUITE, -EINVAL },
	{ "Noise_XXPSK0" SUITE, -EINVAL },		/* upper-case modifier */
	{ "Noise_XXfoo" SUITE, -EINVAL },		/* unknown modifier */
	{ "Noise_XX1fallbackx" SUITE, -EINVAL },
	{ "Noise_XXpsk0+fallback" SUITE, -EINVAL },	/* modifier order */
	{ "Noise_XXfallback+fallback" SUITE, -EINVAL },
	{ "Noise_NKfallback" SUITE, -EINVAL },		/* first message has a DH */
	{ "Noise_IKfallback" SUITE, -EINVAL },
	{ "Noise_Nfallback" SUITE, -EINVAL },		/* one-way */
	{ "Noise_KNfallback" SUITE, -EINVAL },		/* initiator pre-message */
};

static void et_names(struct kunit *test)
{
	static const char * const good[] = {
		"Noise_XXpsk0+psk1+psk2+psk3" SUITE, "Noise_XXfallback+psk0" SUITE,
		"Noise_NNpsk0+psk2" SUITE, "Noise_X1X1psk0+psk4" SUITE,
		"Noise_Kpsk0+psk1_25519_AESGCM_BLAKE2b", "Noise_I1X1psk3_25519_AESGCM_SHA512",
		"Noise_XXfallback_25519_ChaChaPoly_BLAKE2s", "Noise_NNfallback" SUITE,
		"Noise_XXhfs_25519+MLKEM1024_AESGCM_SHA512",
		"Noise_IKhfs+psk2_25519+MLKEM768_ChaChaPoly_BLAKE2s",
		"Noise_NNpsk0+hfs+psk2_25519+MLKEM768_AESGCM_BLAKE2b",
		"Noise_I1X1hfs_25519+MLKEM1024_ChaChaPoly_SHA256",
	};
	struct noise_protocol_info info;
	char *longname;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(et_bad_names); i++)
		KUNIT_EXPECT_EQ_MSG(test, noise_protocol_info(et_bad_names[i].name, NULL),
				    et_bad_names[i].err, "'%s'", et_bad_names[i].name);
	for (i = 0; i < ARRAY_SIZE(good); i++)
		KUNIT_EXPECT_EQ_MSG(test, noise_protocol_info(good[i], NULL), 0, "%s", good[i]);
	/* 256 bytes: too long; 448 is supported. */
	longname = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, longname);
	memset(longname, 'A', 256);
	memcpy(longname, "Noise_XX" SUITE, strlen("Noise_XX" SUITE));
	KUNIT_EXPECT_EQ(test, noise_protocol_info(longname, NULL), -EINVAL);
	err = noise_protocol_info("Noise_XX_448_AESGCM_SHA512", NULL);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, noise_protocol_info("Noise_XXpsk0+psk1+psk2+psk3" SUITE,
						  &info), 0);
	KUNIT_EXPECT_EQ(test, info.num_psks, 4U);
	KUNIT_EXPECT_EQ(test, info.num_msgs, 3U);
	KUNIT_EXPECT_EQ(test, noise_protocol_info("Noise_XXfallback" SUITE, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.fallback);
	KUNIT_EXPECT_EQ(test, info.num_msgs, 2U);
	KUNIT_EXPECT_TRUE(test, info.needs_local_static[NOISE_INITIATOR]);
	KUNIT_EXPECT_EQ(test, noise_protocol_info("Noise_IK" SUITE, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.needs_remote_static[NOISE_INITIATOR]);
	KUNIT_EXPECT_FALSE(test, info.needs_remote_static[NOISE_RESPONDER]);
	kunit_info(test, "%zu invalid names refused", ARRAY_SIZE(et_bad_names) + 1);
}

/*
 * The handshake failed with -EBADMSG (or -EINVAL, a low-order key) on a
 * read: the reader is left as it was, still waiting to read, and usable.
 */
static void et_expect_fail(struct kunit *test, struct et_pair *p, int err)
{
	u8 h[NOISE_MAX_HASHLEN];

	KUNIT_EXPECT_TRUE_MSG(test, err == -EBADMSG || err == -EINVAL, "err %d", err);
	KUNIT_EXPECT_NE(test, noise_handshake_next(p->ini), NOISE_ACTION_FAILED);
	KUNIT_EXPECT_NE(test, noise_handshake_next(p->res), NOISE_ACTION_FAILED);
	KUNIT_EXPECT_TRUE(test, noise_handshake_next(p->ini) == NOISE_ACTION_READ ||
			  noise_handshake_next(p->res) == NOISE_ACTION_READ);
	KUNIT_EXPECT_EQ(test, noise_handshake_hash(p->res, h, sizeof(h)),
			(int)p->info.hash_len);
}

static void et_mismatch(struct kunit *test)
{
	static const char * const prologue[] = { "NN", "XX", "IK", "N", "NK1", "KX" };
	static const char * const psk[] = { "NNpsk0", "XXpsk3", "IKpsk2", "Npsk0",
					    "XXpsk0+psk1+psk2+psk3" };
	static const char * const rs[] = { "IK", "NK", "X", "KK", "NK1", "I1K1" };
	const struct et_opts wrong_prologue = { .resp_prologue = "prologuf" };
	const struct et_opts wrong_psk = { .wrong_psk = true };
	const struct et_opts wrong_rs = { .wrong_rs = true };
	char name[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prologue); i++) {
		struct et_pair *p;

		snprintf(name, sizeof(name), "Noise_%s" SUITE, prologue[i]);
		p = et_pair_new(test, name, &wrong_prologue);
		et_expect_fail(test, p, et_handshake(p, 8));
	}
	for (i = 0; i < ARRAY_SIZE(psk); i++) {
		struct et_pair *p;

		snprintf(name, sizeof(name), "Noise_%s" SUITE, psk[i]);
		p = et_pair_new(test, name, &wrong_psk);
		et_expect_fail(test, p, et_handshake(p, 8));
	}
	for (i = 0; i < ARRAY_SIZE(rs); i++) {
		struct et_pair *p;

		snprintf(name, sizeof(name), "Noise_%s" SUITE, rs[i]);
		p = et_pair_new(test, name, &wrong_rs);
		et_expect_fail(test, p, et_handshake(p, 8));
	}
}

/*
 * Run messages 0..@m-1 cleanly, damage message @m, continue to the end. A
 * damage caught at once leaves the reader as it was: the undamaged message
 * then completes the handshake.
 */
static int et_damaged(struct kunit *test, const char *name, unsigned int m,
		      int tamper, size_t trunc)
{
	struct et_pair *p = et_pair_new(test, name, NULL);
	unsigned int i;
	bool rf;
	int err = 0;

	for (i = 0; i < p->info.num_msgs && !err; i++)
		err = et_step(p, i, 8, i == m ? tamper : -1, i == m ? trunc : 0, &rf);
	if (!err) {
		err = et_split(p);
		KUNIT_EXPECT_EQ_MSG(test, err, -1, "%s: damaged message %u accepted", name, m);
	} else {
		KUNIT_EXPECT_TRUE_MSG(test, rf, "%s: the writer failed (%d)", name, err);
		et_expect_fail(test, p, err);
		if (i - 1 == m) {
			KUNIT_EXPECT_EQ_MSG(test, et_resend(p, m), 0, "%s %u", name, m);
			for (; i < p->info.num_msgs; i++)
				KUNIT_EXPECT_EQ(test, et_step(p, i, 8, -1, 0, &rf), 0);
			KUNIT_EXPECT_EQ_MSG(test, et_split(p), 0, "%s %u", name, m);
			et_transport(p, 1, 64);
		}
	}
	kunit_release_action(test, et_pair_release, p);
	return err;
}

/* A flipped bit anywhere in any handshake message is caught. */
static void et_tamper(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_XX" SUITE, "Noise_IKpsk2_25519_AESGCM_BLAKE2b", "Noise_N" SUITE,
		"Noise_NK1_25519_ChaChaPoly_SHA512", "Noise_XXfallback" SUITE,
	};
	unsigned int i, m, b, cases = 0;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], NULL);
		unsigned int msgs = p->info.num_msgs;
		size_t len[NOISE_MAX_MESSAGES];

		/* Message lengths with an 8-byte payload. */
		for (m = 0; m < msgs; m++) {
			size_t n;

			get_random_bytes(p->ref, 8);
			KUNIT_ASSERT_EQ(test, 0, noise_handshake_write(m & 1 && !p->info.one_way ?
					p->res : p->ini, p->ref, 8, p->buf, ET_BUF, &n));
			len[m] = n;
			KUNIT_ASSERT_EQ(test, 0, noise_handshake_read(m & 1 && !p->info.one_way ?
					p->ini : p->res, p->buf, n, p->pt, ET_BUF, &n));
		}
		kunit_release_action(test, et_pair_release, p);
		for (m = 0; m < msgs; m++) {
			/* Every byte, one bit each (the bit varies with the byte). */
			for (b = 0; b < len[m]; b++, cases++)
				et_damaged(test, names[i], m, b, 0);
			et_damaged(test, names[i], m, -1, 1);
			et_damaged(test, names[i], m, -1, len[m]);
			cases += 2;
		}
	}
	kunit_info(test, "%u damaged or truncated handshake messages refused", cases);
}

static void et_sizes(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_NN" SUITE, NULL);
	struct et_pair *q = et_pair_new(test, "Noise_NN" SUITE, NULL);
	size_t n, over, pl;
	bool rf;

	/* Message 0 of NN is e plus a cleartext payload: 32 + payload. */
	KUNIT_ASSERT_EQ(test, 0, noise_handshake_write(p->ini, NULL, 0, p->buf, ET_BUF, &n));
	over = n;
	KUNIT_EXPECT_EQ(test, over, (size_t)32);
	/* One byte too many is refused without changing the state. */
	KUNIT_EXPECT_EQ(test, noise_handshake_write(q->ini, p->ref, NOISE_MAX_MSG_LEN - over + 1,
						    q->buf, ET_BUF, &n), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(q->ini), NOISE_ACTION_WRITE);
	KUNIT_EXPECT_EQ(test, noise_handshake_write(q->ini, p->ref, 10, q->buf, 20, &n),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, noise_handshake_write(q->ini, p->ref, NOISE_MAX_MSG_LEN - over,
						    q->buf, ET_BUF, &n), 0);
	KUNIT_EXPECT_EQ(test, n, (size_t)NOISE_MAX_MSG_LEN);
	/* A payload buffer too small: -ENOBUFS, state unchanged. */
	KUNIT_EXPECT_EQ(test, noise_handshake_read(q->res, q->buf, n, q->pt, 100, &pl),
			-ENOBUFS);
	KUNIT_EXPECT_EQ(test, noise_handshake_read(q->res, q->buf, n, q->pt, ET_BUF, &pl), 0);
	KUNIT_EXPECT_EQ(test, pl, (size_t)(NOISE_MAX_MSG_LEN - over));
	/* The largest message 1 (e, ee, payload + tag) also works. */
	KUNIT_EXPECT_EQ(test, et_step(q, 1, NOISE_MAX_MSG_LEN - 32 - 16, -1, 0, &rf), 0);
	KUNIT_EXPECT_EQ(test, et_split(q), 0);
	et_transport(q, 1, NOISE_MAX_PAYLOAD_LEN);
	/* A 65536-byte message is refused; the reader is left as it was. */
	KUNIT_EXPECT_EQ(test, noise_handshake_read(p->res, p->buf, NOISE_MAX_MSG_LEN + 1, p->pt,
						   ET_BUF, &pl), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(p->res), NOISE_ACTION_READ);
	KUNIT_EXPECT_EQ(test, noise_handshake_read(p->res, p->buf, over, p->pt, ET_BUF, &pl), 0);
	/* Transport limits. */
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(q->is, NULL, 0, q->buf,
						   NOISE_MAX_PAYLOAD_LEN + 1), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(q->rr, NULL, 0, q->buf,
						   NOISE_MAX_MSG_LEN + 1), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(q->rr, NULL, 0, q->buf, 15), -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(q->is, NULL, 0, q->buf,
						   NOISE_MAX_PAYLOAD_LEN), 0);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(q->rr, NULL, 0, q->buf,
						   NOISE_MAX_MSG_LEN), 0);
}

static void et_order(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_XK" SUITE, NULL);
	struct et_pair *q = et_pair_new(test, "Noise_XK" SUITE, NULL);
	struct noise_cipher *a, *b;
	size_t n, pl;
	bool rf;

	KUNIT_EXPECT_EQ(test, noise_handshake_read(p->ini, p->buf, 48, p->pt, ET_BUF, &pl),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, noise_handshake_write(p->res, NULL, 0, p->buf, ET_BUF, &n),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, noise_handshake_split(p->ini, &a, &b), -EPROTO);
	KUNIT_EXPECT_EQ(test, et_step(p, 0, 8, -1, 0, &rf), 0);
	/* The same message again: not the responder's turn to read. */
	KUNIT_EXPECT_EQ(test, noise_handshake_read(p->res, p->buf, 48 + 24, p->pt, ET_BUF,
						   &pl), -EPROTO);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(p->res), NOISE_ACTION_WRITE);
	KUNIT_EXPECT_EQ(test, et_step(p, 1, 8, -1, 0, &rf), 0);
	KUNIT_EXPECT_EQ(test, et_step(p, 2, 8, -1, 0, &rf), 0);
	/* Message 3 of p fed to q's responder as its message 1: refused. */
	KUNIT_ASSERT_EQ(test, noise_handshake_write(q->ini, NULL, 0, q->buf, ET_BUF, &n), 0);
	KUNIT_EXPECT_LT(test, noise_handshake_read(q->res, p->buf, 48 + 8 + 16, q->pt,
						   ET_BUF, &pl), 0);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(q->res), NOISE_ACTION_READ);
	KUNIT_EXPECT_EQ(test, noise_handshake_read(q->res, q->buf, n, q->pt, ET_BUF, &pl), 0);
	KUNIT_EXPECT_EQ(test, et_split(p), 0);
	KUNIT_EXPECT_EQ(test, noise_handshake_write(p->ini, NULL, 0, p->buf, ET_BUF, &n),
			-ENOTCONN);
	KUNIT_EXPECT_EQ(test, noise_handshake_split(p->ini, &a, &b), -ENOTCONN);
	et_transport(p, 3, 100);
}

static const char * const et_low_25519[] = {
	"0000000000000000000000000000000000000000000000000000000000000000",
	"0100000000000000000000000000000000000000000000000000000000000000",
	"e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
	"5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
};

/* X448 low-order u: 0, 1 and p - 1 = 2^448 - 2^224 - 2 (little endian). */
static void et_low_448_point(unsigned int i, u8 out[56])
{
	memset(out, 0, 56);
	if (i == 1)
		out[0] = 1;
	if (i == 2) {
		memset(out, 0xff, 56);
		out[0] = 0xfe;
		out[28] = 0xfe;
	}
}

/* A low-order e from the initiator: the responder's ee gives zero: -EINVAL. */
static void et_low_order_one(struct kunit *test, const char *name, const u8 *bad)
{
	struct et_pair *p = et_pair_new(test, name, NULL);
	unsigned int dhlen = p->info.dh_len;
	size_t n, pl;

	KUNIT_ASSERT_EQ(test, 0, noise_handshake_write(p->ini, NULL, 0, p->buf, ET_BUF, &n));
	memcpy(p->buf, bad, dhlen);
	KUNIT_ASSERT_EQ(test, 0, noise_handshake_read(p->res, p->buf, n, p->pt, ET_BUF, &pl));
	KUNIT_EXPECT_EQ(test, noise_handshake_write(p->res, NULL, 0, p->buf, ET_BUF, &n),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(p->res), NOISE_ACTION_FAILED);
	kunit_release_action(test, et_pair_release, p);
}

static void et_low_order_448(struct kunit *test)
{
	u8 bad[56];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		et_low_448_point(i, bad);
		et_low_order_one(test, "Noise_NN_448_ChaChaPoly_SHA512", bad);
	}
}

static void et_low_order_25519(struct kunit *test)
{
	struct noise_keys k = {};
	struct noise_handshake *hs;
	u8 bad[32], pub[32], priv[32];
	unsigned int i;
	size_t n;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(et_low_25519); i++) {
		KUNIT_ASSERT_EQ(test, 0, hex2bin(bad, et_low_25519[i], 32));
		et_low_order_one(test, "Noise_NN" SUITE, bad);
	}
	/* A low-order pre-message static key: the initiator's es fails. */
	buf = kunit_kmalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0, hex2bin(bad, et_low_25519[2], 32));
	KUNIT_ASSERT_EQ(test, 0, noise_dh_generate(NOISE_DH_25519, priv, pub));
	k.local_static = priv;
	k.remote_static = bad;
	hs = noise_handshake_new("Noise_IK" SUITE, NOISE_INITIATOR, &k, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hs));
	KUNIT_EXPECT_EQ(test, noise_handshake_write(hs, NULL, 0, buf, 256, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(hs), NOISE_ACTION_FAILED);
	noise_handshake_free(hs);
}

/* One AEAD operation done directly with the crypto API; @key NULL: as set. */
static int et_aead(struct crypto_aead *tfm, const u8 *key, u8 id, u64 n, u8 *buf,
		   unsigned int len)
{
	struct aead_request *req;
	struct scatterlist sg;
	DECLARE_CRYPTO_WAIT(wait);
	u8 iv[12] = {};
	int err;

	if (id == NOISE_CIPHER_CHACHAPOLY)
		put_unaligned_le64(n, iv + 4);
	else
		put_unaligned_be64(n, iv + 4);
	err = key ? crypto_aead_setkey(tfm, key, NOISE_KEY_LEN) : 0;
	if (err)
		return err;
	req = aead_request_alloc(tfm, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	sg_init_one(&sg, buf, len + NOISE_TAG_LEN);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP, crypto_req_done, &wait);
	aead_request_set_ad(req, 0);
	aead_request_set_crypt(req, &sg, &sg, len, iv);
	err = crypto_wait_req(crypto_aead_encrypt(req), &wait);
	aead_request_free(req);
	return err;
}

static const char * const et_aead_names[] = { "rfc7539(chacha20,poly1305)", "gcm(aes)" };

static void et_rekey_nonce(struct kunit *test)
{
	u8 key[NOISE_KEY_LEN], key2[NOISE_KEY_LEN];
	u8 *a = kunit_kzalloc(test, 128, GFP_KERNEL);
	u8 *b = kunit_kzalloc(test, 128, GFP_KERNEL);
	u8 id;

	KUNIT_ASSERT_TRUE(test, a && b);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++) {
		struct crypto_aead *tfm = crypto_alloc_aead(et_aead_names[id], 0, 0);
		struct noise_cipher *c, *d;

		KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
		get_random_bytes(key, sizeof(key));
		c = noise_cipher_new(id, key, GFP_KERNEL);
		d = noise_cipher_new(id, key, GFP_KERNEL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(c) || IS_ERR(d));
		/* Rekey: k' = ENCRYPT(k, 2^64-1, "", zeros[32])[0..32]. */
		memset(key2, 0, sizeof(key2));
		memset(a, 0, 64);
		KUNIT_EXPECT_EQ(test, et_aead(tfm, key, id, U64_MAX, a, 32), 0);
		memcpy(key2, a, 32);
		noise_cipher_set_nonce(c, 5);
		KUNIT_EXPECT_EQ(test, noise_cipher_rekey(c), 0);
		KUNIT_EXPECT_EQ(test, noise_cipher_nonce(c), 5ULL);
		memcpy(a, "rekeyed message", 15);
		memcpy(b, a, 15);
		KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(c, NULL, 0, a, 15), 0);
		KUNIT_EXPECT_EQ(test, et_aead(tfm, key2, id, 5, b, 15), 0);
		KUNIT_EXPECT_MEMEQ(test, a, b, 15 + NOISE_TAG_LEN);
		/*
		 * The peer without Rekey cannot read it; n stays 5. A failed
		 * decryption leaves the buffer undefined: decrypt a copy.
		 */
		noise_cipher_set_nonce(d, 5);
		memcpy(b, a, 31);
		KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(d, NULL, 0, b, 31), -EBADMSG);
		KUNIT_EXPECT_EQ(test, noise_cipher_nonce(d), 5ULL);
		KUNIT_EXPECT_EQ(test, noise_cipher_rekey(d), 0);
		KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(d, NULL, 0, a, 31), 0);
		KUNIT_EXPECT_EQ(test, noise_cipher_nonce(d), 6ULL);
		/* 2^64-2 is the last usable nonce, encoded as the spec says. */
		noise_cipher_set_nonce(c, U64_MAX - 1);
		noise_cipher_set_nonce(d, U64_MAX - 1);
		memcpy(a, "last", 4);
		memcpy(b, a, 4);
		KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(c, NULL, 0, a, 4), 0);
		KUNIT_EXPECT_EQ(test, et_aead(tfm, key2, id, U64_MAX - 1, b, 4), 0);
		KUNIT_EXPECT_MEMEQ(test, a, b, 4 + NOISE_TAG_LEN);
		KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(d, NULL, 0, a, 20), 0);
		/* n = 2^64-1: both directions refuse, n does not wrap. */
		KUNIT_EXPECT_EQ(test, noise_cipher_nonce(c), U64_MAX);
		KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(c, NULL, 0, a, 4), -EKEYEXPIRED);
		KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(d, NULL, 0, a, 20), -EKEYEXPIRED);
		KUNIT_EXPECT_EQ(test, noise_cipher_nonce(c), U64_MAX);
		KUNIT_EXPECT_EQ(test, noise_cipher_nonce(d), U64_MAX);
		noise_cipher_free(c);
		noise_cipher_free(d);
		crypto_free_aead(tfm);
	}
	memzero_explicit(key, sizeof(key));
	memzero_explicit(key2, sizeof(key2));
}

#ifdef NOISE_TESTING
/*
 * Nothing stays long in the pool: a transform past its age limit is not
 * kept, and states unused for the idle time are freed by the pool's work.
 */
static void et_cipher_pool_ages(struct kunit *test)
{
	u8 key[NOISE_KEY_LEN] = {};
	struct noise_cipher *c;
	unsigned int n, i;
	u8 id = NOISE_CIPHER_CHACHAPOLY;

	c = noise_cipher_new(id, key, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	n = noise_cipher_pooled(id, NULL);
	noise_cipher_pool_set_ages_for_testing(NOISE_CIPHER_POOL_IDLE, 0);
	noise_cipher_free(c);
	KUNIT_EXPECT_EQ_MSG(test, noise_cipher_pooled(id, NULL), n, "an old transform was kept");

	noise_cipher_pool_set_ages_for_testing(NOISE_CIPHER_POOL_IDLE, NOISE_CIPHER_TFM_MAX_AGE);
	c = noise_cipher_new(id, key, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	noise_cipher_free(c);
	KUNIT_EXPECT_GE(test, noise_cipher_pooled(id, NULL), 1U);
	noise_cipher_pool_set_ages_for_testing(HZ / 20, NOISE_CIPHER_TFM_MAX_AGE);
	for (i = 0; i < 100 && noise_cipher_pooled(id, NULL); i++)
		msleep(50);
	KUNIT_EXPECT_EQ_MSG(test, noise_cipher_pooled(id, NULL), 0U, "idle states not freed");
	noise_cipher_pool_set_ages_for_testing(NOISE_CIPHER_POOL_IDLE, NOISE_CIPHER_TFM_MAX_AGE);
}
#endif

/*
 * A responder made from a template (the name parsed and the prologue
 * hashed once) completes the handshake with an initiator made from the
 * name (Split() checks both have the same h), and talks with it after
 * Split; with another prologue than the
 * initiator's it fails. A template never filled, or a prologue given
 * beside a template, is refused.
 */
static void et_template(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s",
		"Noise_NN_25519_AESGCM_SHA256",
		"Noise_KK_25519_ChaChaPoly_BLAKE2b",
		"Noise_XXpsk3_448_AESGCM_SHA512",
		"Noise_NNhfs_25519+MLKEM768_ChaChaPoly_SHA256",
		"Noise_Npsk0_25519_ChaChaPoly_SHA256",
	};
	struct et_opts same = { .resp_template = true };
	struct et_opts other = { .resp_template = true, .resp_prologue = "other" };
	struct noise_handshake_template *t;
	struct noise_keys k = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], &same);

		KUNIT_ASSERT_EQ_MSG(test, et_handshake(p, 16), 0, "%s", names[i]);
		et_transport(p, 2, 64);
		kunit_release_action(test, et_pair_release, p);
		p = et_pair_new(test, names[i], &other);
		KUNIT_EXPECT_NE_MSG(test, et_handshake(p, 16), 0, "%s", names[i]);
		kunit_release_action(test, et_pair_release, p);
	}
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_PTR_EQ(test, noise_handshake_new_from(t, NOISE_INITIATOR, &k, GFP_KERNEL),
			    ERR_PTR(-EINVAL));
	KUNIT_EXPECT_EQ(test, noise_handshake_template_init(t, "Noise_QQ_25519_AESGCM_SHA256",
							    NULL, 0), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, noise_handshake_new_from(t, NOISE_INITIATOR, &k, GFP_KERNEL),
			    ERR_PTR(-EINVAL));
	KUNIT_ASSERT_EQ(test, noise_handshake_template_init(t, names[1], NULL, 0), 0);
	k.prologue = "p";
	k.prologue_len = 1;
	KUNIT_EXPECT_PTR_EQ(test, noise_handshake_new_from(t, NOISE_INITIATOR, &k, GFP_KERNEL),
			    ERR_PTR(-EINVAL));
}

/*
 * A freed cipher state is kept with its key wiped: its transform encrypts
 * as the all-zero key does. The next state of its cipher takes it, keyed
 * anew, with n = 0 and zero counts. Past its maximum the pool frees.
 */
static void et_cipher_pool_one(struct kunit *test, u8 id, struct crypto_aead *ref,
			       u8 *a, u8 *b)
{
	static const u8 zeros[NOISE_KEY_LEN];
	struct noise_cipher *hold, *c, *d;
	struct crypto_aead *next;
	u8 key[NOISE_KEY_LEN];
	unsigned int n;

	get_random_bytes(key, sizeof(key));
	/* Taking one leaves room for one more. */
	hold = noise_cipher_new(id, key, GFP_KERNEL);
	c = noise_cipher_new(id, key, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hold) || IS_ERR(c));
	noise_cipher_set_nonce(c, 7);
	memset(a, 0, 64);
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(c, NULL, 0, a, 16), 0);
	n = noise_cipher_pooled(id, NULL);
	noise_cipher_free(c);
	KUNIT_EXPECT_EQ(test, noise_cipher_pooled(id, &next), n + 1);
	KUNIT_ASSERT_NOT_NULL(test, next);
	memset(a, 0, 64);
	memset(b, 0, 64);
	KUNIT_EXPECT_EQ(test, et_aead(next, NULL, id, 3, a, 16), 0);
	KUNIT_EXPECT_EQ(test, et_aead(ref, zeros, id, 3, b, 16), 0);
	KUNIT_EXPECT_MEMEQ_MSG(test, a, b, 16 + NOISE_TAG_LEN, "cipher %u: key not wiped", id);

	get_random_bytes(key, sizeof(key));
	d = noise_cipher_new(id, key, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(d));
	KUNIT_EXPECT_PTR_EQ(test, d, c);
	KUNIT_EXPECT_EQ(test, noise_cipher_pooled(id, NULL), n);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(d), 0ULL);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_sent(d), 0ULL);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(d), 0ULL);
	memset(a, 0, 64);
	memset(b, 0, 64);
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(d, NULL, 0, a, 16), 0);
	KUNIT_EXPECT_EQ(test, et_aead(ref, key, id, 0, b, 16), 0);
	KUNIT_EXPECT_MEMEQ(test, a, b, 16 + NOISE_TAG_LEN);
	noise_cipher_free(d);
	noise_cipher_free(hold);
	memzero_explicit(key, sizeof(key));
}

static void et_cipher_pool(struct kunit *test)
{
	struct noise_cipher **many;
	u8 key[NOISE_KEY_LEN] = {};
	u8 *a = kunit_kzalloc(test, 64, GFP_KERNEL);
	u8 *b = kunit_kzalloc(test, 64, GFP_KERNEL);
	unsigned int i;
	u8 id;

	many = kunit_kcalloc(test, NOISE_CIPHER_POOL_MAX + 1, sizeof(*many), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, a && b && many);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++) {
		struct crypto_aead *ref = crypto_alloc_aead(et_aead_names[id], 0, 0);

		KUNIT_ASSERT_FALSE(test, IS_ERR(ref));
		et_cipher_pool_one(test, id, ref, a, b);
		crypto_free_aead(ref);
		for (i = 0; i <= NOISE_CIPHER_POOL_MAX; i++) {
			many[i] = noise_cipher_new(id, key, GFP_KERNEL);
			KUNIT_ASSERT_FALSE(test, IS_ERR(many[i]));
		}
		for (i = 0; i <= NOISE_CIPHER_POOL_MAX; i++)
			noise_cipher_free(many[i]);
		KUNIT_EXPECT_EQ(test, noise_cipher_pooled(id, NULL), NOISE_CIPHER_POOL_MAX);
	}
}

/* HMAC-BLAKE2s(key, a || b) as RFC 2104 writes it, for et_hkdf_blake2s. */
static void et_hmac_b2s(u8 *out, const u8 *key, const u8 *a, size_t alen,
			const u8 *b, size_t blen)
{
	u8 pad[BLAKE2S_BLOCK_SIZE], inner[BLAKE2S_HASH_SIZE];
	struct blake2s_state st;
	int i;

	for (i = 0; i < BLAKE2S_BLOCK_SIZE; i++)
		pad[i] = (i < BLAKE2S_HASH_SIZE ? key[i] : 0) ^ 0x36;
	blake2s_init(&st, BLAKE2S_HASH_SIZE);
	blake2s_update(&st, pad, sizeof(pad));
	blake2s_update(&st, a, alen);
	blake2s_update(&st, b, blen);
	blake2s_final(&st, inner);
	for (i = 0; i < BLAKE2S_BLOCK_SIZE; i++)
		pad[i] ^= 0x36 ^ 0x5c;
	blake2s_init(&st, BLAKE2S_HASH_SIZE);
	blake2s_update(&st, pad, sizeof(pad));
	blake2s_update(&st, inner, sizeof(inner));
	blake2s_final(&st, out);
}

/*
 * HKDF with BLAKE2s starts each output from HMAC states keyed once:
 * every output equals the one RFC 2104's HMAC gives, for input key
 * material of every length around the block size, two and three outputs,
 * the outputs aliasing ck as MixKey has them.
 */
static void et_hkdf_blake2s(struct kunit *test)
{
	static const size_t lens[] = { 0, 1, 31, 32, 33, 56, 63, 64, 65, 128, 200 };
	u8 ck[32], ikm[200], prk[32], want[3][32], got[3][32];
	unsigned int i, n;
	u8 c;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (n = 2; n <= 3; n++) {
			get_random_bytes(ck, sizeof(ck));
			get_random_bytes(ikm, lens[i]);
			et_hmac_b2s(prk, ck, ikm, lens[i], NULL, 0);
			for (c = 1; c <= n; c++)
				et_hmac_b2s(want[c - 1], prk, c == 1 ? NULL : want[c - 2],
					    c == 1 ? 0 : 32, &c, 1);
			memcpy(got[0], ck, sizeof(ck));
			noise_hkdf(NOISE_HASH_BLAKE2S, got[0], ikm, lens[i], got[0], got[1],
				   n == 3 ? got[2] : NULL);
			KUNIT_EXPECT_MEMEQ_MSG(test, got, want, n * 32,
					       "ikm %zu bytes, %u outputs", lens[i], n);
		}
	}
}

/* A failed decryption changes nothing; explicit nonces out of order. */
static void et_transport_state(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_XX_25519_AESGCM_SHA512", NULL);
	u8 *ct[3];
	int i;

	KUNIT_ASSERT_EQ(test, et_handshake(p, 0), 0);
	for (i = 0; i < 3; i++) {
		ct[i] = kunit_kzalloc(test, 64, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ct[i]);
		memset(ct[i], 'a' + i, 16);
		KUNIT_ASSERT_EQ(test, noise_cipher_encrypt(p->rs, NULL, 0, ct[i], 16), 0);
	}
	memcpy(p->buf, ct[0], 32);
	p->buf[3] ^= 0x80;
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->ir, NULL, 0, p->buf, 32), -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(p->ir), 0ULL);
	memcpy(p->buf, ct[0], 32);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->ir, p->buf, 4, p->buf, 32), -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(p->ir), 0ULL);
	/* SetNonce: 2, 0, 1. */
	noise_cipher_set_nonce(p->ir, 2);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->ir, NULL, 0, ct[2], 32), 0);
	KUNIT_EXPECT_EQ(test, ct[2][0], 'c');
	noise_cipher_set_nonce(p->ir, 0);
	memcpy(p->buf, ct[1], 32);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->ir, NULL, 0, p->buf, 32), -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->ir, NULL, 0, ct[0], 32), 0);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->ir, NULL, 0, ct[1], 32), 0);
	KUNIT_EXPECT_EQ(test, ct[1][15], 'b');
	/* With AD: the AD is authenticated. */
	memcpy(p->ref, "header", 6);
	memset(p->buf, 'x', 10);
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(p->is, p->ref, 6, p->buf, 10), 0);
	memcpy(p->pt, p->buf, 26);
	p->ref[0] = 'H';
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->rr, p->ref, 6, p->pt, 26), -EBADMSG);
	p->ref[0] = 'h';
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->rr, p->ref, 6, p->buf, 26), 0);
	KUNIT_EXPECT_EQ(test, p->buf[9], 'x');
}

static void et_multi_psk(struct kunit *test)
{
	static const char * const names[] = {
		"Noise_XXpsk0+psk1+psk2+psk3" SUITE,
		"Noise_XXpsk0+psk1+psk2+psk3_25519_AESGCM_BLAKE2b",
		"Noise_NNpsk0+psk1+psk2_25519_ChaChaPoly_BLAKE2s",
		"Noise_IKpsk0+psk1+psk2_25519_AESGCM_SHA512",
		"Noise_X1X1psk0+psk2+psk4" SUITE, "Noise_Kpsk0+psk1" SUITE,
		"Noise_XXfallback+psk0+psk2" SUITE,
	};
	struct noise_keys k = {};
	u8 priv[32], psks[1][NOISE_PSK_LEN] = {};
	struct noise_handshake *hs;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct et_pair *p = et_pair_new(test, names[i], NULL);

		KUNIT_EXPECT_EQ_MSG(test, et_handshake(p, 33), 0, "%s", names[i]);
		et_transport(p, 2, 300);
		kunit_release_action(test, et_pair_release, p);
	}
	/* The wrong number of PSKs, or a missing key: refused at creation. */
	get_random_bytes(priv, sizeof(priv));
	k.local_static = priv;
	k.psks = (const u8 (*)[NOISE_PSK_LEN])psks;
	k.num_psks = 1;
	hs = noise_handshake_new(names[0], NOISE_INITIATOR, &k, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(hs), -EINVAL);
	/* No PSK at creation: allowed, the write waits for it (-ENOKEY). */
	k.num_psks = 0;
	hs = noise_handshake_new("Noise_XXpsk0" SUITE, NOISE_INITIATOR, &k, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hs));
	{
		u8 *out = kmalloc(256, GFP_KERNEL);
		size_t n;

		KUNIT_ASSERT_NOT_NULL(test, out);
		KUNIT_EXPECT_EQ(test, noise_handshake_write(hs, NULL, 0, out, 256, &n), -ENOKEY);
		KUNIT_EXPECT_EQ(test, noise_handshake_next(hs), NOISE_ACTION_WRITE);
		KUNIT_EXPECT_EQ(test, noise_handshake_set_psk(hs, 1, psks[0]), -EINVAL);
		KUNIT_EXPECT_EQ(test, noise_handshake_set_psk(hs, 0, psks[0]), 0);
		KUNIT_EXPECT_EQ(test, noise_handshake_write(hs, NULL, 0, out, 256, &n), 0);
		KUNIT_EXPECT_EQ(test, noise_handshake_set_psk(hs, 0, psks[0]), -EINVAL);
		kfree(out);
	}
	noise_handshake_free(hs);
	k.local_static = NULL;
	hs = noise_handshake_new("Noise_XX" SUITE, NOISE_INITIATOR, &k, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(hs), -EINVAL);
	k.local_static = priv;
	hs = noise_handshake_new("Noise_IK" SUITE, NOISE_INITIATOR, &k, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(hs), -EINVAL);
	hs = noise_handshake_new("Noise_XX" SUITE, 7, &k, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(hs), -EINVAL);
}

struct et_async {
	struct completion done;
	int err;
};

static void et_async_done(void *data, int err)
{
	struct et_async *a = data;

	a->err = err;
	complete(&a->done);
}

static int et_async_wait(struct et_async *a, int ret)
{
	if (ret != -EINPROGRESS)
		return ret;
	wait_for_completion(&a->done);
	return a->err;
}

/* Scatterlist and asynchronous calls round-trip with the linear ones. */
static void et_sg_async(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_NK_25519_ChaChaPoly_BLAKE2s", NULL);
	struct noise_crypt_req *req, *other;
	struct scatterlist sg[3];
	struct et_async a;
	int ret;

	KUNIT_ASSERT_EQ(test, et_handshake(p, 1), 0);
	req = noise_crypt_req_alloc(p->is, GFP_KERNEL);
	other = noise_crypt_req_alloc(p->rr, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, req && other);
	/* AD "hdr" | 100 bytes split over two entries | tag. */
	get_random_bytes(p->ref, 300);
	memcpy(p->buf, p->ref, 300);
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], p->buf, 3);
	sg_set_buf(&sg[1], p->buf + 3, 40);
	sg_set_buf(&sg[2], p->buf + 43, 60 + NOISE_TAG_LEN);
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt_sg(p->is, sg, 3, 100), 0);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt(p->rr, p->buf, 3, p->buf + 3, 116), 0);
	KUNIT_EXPECT_MEMEQ(test, p->buf, p->ref, 103);
	/* Async encrypt (nonce 1), linear decrypt. */
	init_completion(&a.done);
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt_async(p->is, other, sg, 3, 100,
							 et_async_done, &a), -EINVAL);
	ret = noise_cipher_encrypt_async(p->is, req, sg, 3, 100, et_async_done, &a);
	KUNIT_EXPECT_EQ(test, et_async_wait(&a, ret), 0);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(p->is), 2ULL);
	KUNIT_EXPECT_EQ(test, noise_cipher_decrypt_sg(p->rr, sg, 3, 116), 0);
	KUNIT_EXPECT_MEMEQ(test, p->buf, p->ref, 103);
	/* Linear encrypt, async decrypt; a forgery reports -EBADMSG. */
	KUNIT_EXPECT_EQ(test, noise_cipher_encrypt(p->is, p->buf, 3, p->buf + 3, 100), 0);
	memcpy(p->pt, p->buf, 119);
	p->buf[50] ^= 1;
	reinit_completion(&a.done);
	ret = noise_cipher_decrypt_async(p->rr, other, sg, 3, 116, et_async_done, &a);
	KUNIT_EXPECT_EQ(test, et_async_wait(&a, ret), -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_cipher_nonce(p->rr), 2ULL);	/* not consumed */
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), 2ULL);
	memcpy(p->buf, p->pt, 119);
	reinit_completion(&a.done);
	ret = noise_cipher_decrypt_async(p->rr, other, sg, 3, 116, et_async_done, &a);
	KUNIT_EXPECT_EQ(test, et_async_wait(&a, ret), 0);
	KUNIT_EXPECT_MEMEQ(test, p->buf, p->ref, 103);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_received(p->rr), 3ULL);
	KUNIT_EXPECT_EQ(test, noise_cipher_messages_sent(p->is), 3ULL);
	KUNIT_EXPECT_NE(test, strlen(noise_cipher_driver_name(p->is)), 0);
	kunit_info(test, "drivers: %s / %s", noise_aead_driver_name(NOISE_CIPHER_CHACHAPOLY),
		   noise_aead_driver_name(NOISE_CIPHER_AESGCM));
	noise_crypt_req_free(req);
	noise_crypt_req_free(other);
}

/* Remote static learned, handshake hash usable for channel binding. */
static void et_accessors(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_XX_25519_AESGCM_BLAKE2b", NULL);
	u8 rs[NOISE_MAX_DHLEN], h[NOISE_MAX_HASHLEN];

	KUNIT_EXPECT_EQ(test, noise_handshake_remote_static(p->res, rs, sizeof(rs)), -ENOENT);
	KUNIT_ASSERT_EQ(test, et_handshake(p, 5), 0);
	KUNIT_EXPECT_EQ(test, noise_handshake_remote_static(p->res, rs, sizeof(rs)), 32);
	KUNIT_EXPECT_MEMEQ(test, rs, p->pub[0], 32);
	KUNIT_EXPECT_EQ(test, noise_handshake_remote_static(p->ini, rs, sizeof(rs)), 32);
	KUNIT_EXPECT_MEMEQ(test, rs, p->pub[1], 32);
	KUNIT_EXPECT_EQ(test, noise_handshake_hash(p->ini, h, 10), -ENOBUFS);
	KUNIT_EXPECT_EQ(test, noise_dh_public(NOISE_DH_25519, rs, p->s[0]), 0);
	KUNIT_EXPECT_MEMEQ(test, rs, p->pub[0], 32);
	KUNIT_EXPECT_EQ(test, noise_dh_len(NOISE_DH_448), 56U);
}

/*
 * Noise Pipes (10.5) through the public API: Alice sends IK with a stale
 * key for Bob; Bob's read fails and leaves his handshake as it was; he
 * starts XXfallback from it (Alice's e from the failed message). Alice
 * first tries Bob's reply as IK message 1 (refused, nothing changes), then
 * falls back from her IK handshake.
 */
static void et_pipes(struct kunit *test)
{
	struct et_pair *p = et_pair_new(test, "Noise_IK_25519_AESGCM_SHA256",
					&(struct et_opts){ .wrong_rs = true });
	static const char * const not_fb[] = {
		"Noise_XX_25519_AESGCM_SHA256", "Noise_XXfallback_25519_ChaChaPoly_SHA256",
		"Noise_XXfallback_25519_AESGCM_SHA512", "Noise_XXfallback_448_AESGCM_SHA256",
	};
	const char *fb = "Noise_XXfallback_25519_AESGCM_SHA256";
	struct noise_handshake *alice, *bob;
	struct noise_keys ka = {}, kb = {};
	size_t n, pl;
	bool rf;
	int err;

	KUNIT_ASSERT_EQ(test, noise_handshake_write(p->ini, NULL, 0, p->buf, ET_BUF, &n), 0);
	err = noise_handshake_read(p->res, p->buf, n, p->pt, ET_BUF, &pl);
	KUNIT_EXPECT_EQ(test, err, -EBADMSG);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(p->res), NOISE_ACTION_READ);
	/* Alice keeps e after IK message 0: the fallback needs it. */
	KUNIT_EXPECT_TRUE(test, noise_handshake_has_ephemeral(p->ini));
	ka.local_static = p->s[0];
	kb.local_static = p->s[1];
	ka.prologue = "pipes";
	kb.prologue = "pipes";
	ka.prologue_len = 5;
	kb.prologue_len = 5;
	/* Only the fallback form of the same DH, cipher and hash. */
	for (n = 0; n < ARRAY_SIZE(not_fb); n++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(noise_handshake_fallback(p->res, not_fb[n], &kb,
									   GFP_KERNEL)),
				    -EINVAL, "%s", not_fb[n]);
	bob = noise_handshake_fallback(p->res, fb, &kb, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bob));
	KUNIT_EXPECT_STREQ(test, noise_handshake_protocol_name(bob), fb);
	/* Bob's XXfallback message 0; Alice tries it as IK message 1 first. */
	KUNIT_ASSERT_EQ(test, noise_handshake_write(bob, "hi", 2, p->buf, ET_BUF, &n), 0);
	KUNIT_EXPECT_LT(test, noise_handshake_read(p->ini, p->buf, n, p->pt, ET_BUF, &pl), 0);
	KUNIT_EXPECT_EQ(test, noise_handshake_next(p->ini), NOISE_ACTION_READ);
	KUNIT_EXPECT_TRUE(test, noise_handshake_has_ephemeral(p->ini));
	alice = noise_handshake_fallback(p->ini, fb, &ka, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(alice));
	noise_handshake_free(p->ini);
	noise_handshake_free(p->res);
	p->ini = bob;
	p->res = alice;
	p->info.num_msgs = 2;
	KUNIT_EXPECT_TRUE(test, noise_handshake_has_ephemeral(alice));
	KUNIT_ASSERT_EQ(test, noise_handshake_read(alice, p->buf, n, p->pt, ET_BUF, &pl), 0);
	KUNIT_EXPECT_EQ(test, pl, (size_t)2);
	KUNIT_EXPECT_MEMEQ(test, p->pt, "hi", 2);
	/* XXfallback: Alice's e is last used in message 0 (ee, se). */
	KUNIT_EXPECT_FALSE(test, noise_handshake_has_ephemeral(alice));
	KUNIT_EXPECT_TRUE(test, noise_handshake_has_ephemeral(bob));
	KUNIT_ASSERT_EQ(test, et_step(p, 1, 20, -1, 0, &rf), 0);
	KUNIT_EXPECT_FALSE(test, noise_handshake_has_ephemeral(bob));
	KUNIT_EXPECT_EQ(test, et_split(p), 0);
	KUNIT_EXPECT_EQ(test, noise_handshake_remote_static(alice, p->ref, 64), 32);
	KUNIT_EXPECT_MEMEQ(test, p->ref, p->pub[1], 32);
	KUNIT_EXPECT_EQ(test, noise_handshake_remote_static(bob, p->ref, 64), 32);
	KUNIT_EXPECT_MEMEQ(test, p->ref, p->pub[0], 32);
	et_transport(p, 3, 500);
}

/*
 * Each side's ephemeral private key is wiped right after the last message
 * that uses it (ee; es for the initiator, se for the responder), not only
 * at Split. @after[i]: initiator then responder, '1' if it still holds
 * ephemeral key material after message i; worked out by hand from the
 * patterns of sections 7.4, 7.5 and 18.1.
 */
static const struct {
	const char *name;
	const char *after[NOISE_MAX_MESSAGES];
} et_e_wipes[] = {
	{ "Noise_N" SUITE, { "00" } },			/* e, es */
	{ "Noise_NN" SUITE, { "10", "00" } },		/* e | e, ee */
	{ "Noise_IK" SUITE, { "10", "00" } },		/* ... | e, ee, se */
	{ "Noise_XX" SUITE, { "10", "01", "00" } },	/* ... | s, se */
	{ "Noise_NX1" SUITE, { "10", "10", "00" } },	/* ... | es */
	{ "Noise_X1K" SUITE, { "10", "01", "01", "00" } },	/* ... | s | se */
	{ "Noise_XXpsk3_448_AESGCM_BLAKE2b", { "10", "01", "00" } },
};

static void et_ephemeral_wipe(struct kunit *test)
{
	u8 priv[NOISE_MAX_DHLEN] = { 1 };
	unsigned int i, m;
	bool rf;

	for (i = 0; i < ARRAY_SIZE(et_e_wipes); i++) {
		const char *name = et_e_wipes[i].name;
		struct et_pair *p;

		if (noise_protocol_info(name, NULL) == -EOPNOTSUPP)
			continue;	/* 448 without X448 */
		p = et_pair_new(test, name, NULL);
		KUNIT_EXPECT_FALSE_MSG(test, noise_handshake_has_ephemeral(p->ini), "%s", name);
		for (m = 0; m < p->info.num_msgs; m++) {
			const char *want = et_e_wipes[i].after[m];

			KUNIT_ASSERT_NOT_NULL(test, want);
			KUNIT_ASSERT_EQ_MSG(test, et_step(p, m, 8, -1, 0, &rf), 0,
					    "%s message %u", name, m);
			KUNIT_EXPECT_EQ_MSG(test, noise_handshake_has_ephemeral(p->ini),
					    want[0] == '1', "%s initiator after %u", name, m);
			KUNIT_EXPECT_EQ_MSG(test, noise_handshake_has_ephemeral(p->res),
					    want[1] == '1', "%s responder after %u", name, m);
		}
		/* A wiped ephemeral cannot be replaced by a test key either. */
		KUNIT_EXPECT_EQ(test, noise_handshake_set_ephemeral_for_testing(p->ini, priv),
				-EINVAL);
		KUNIT_EXPECT_EQ_MSG(test, et_split(p), 0, "%s", name);
		if (!p->info.one_way)
			et_transport(p, 2, 100);
		kunit_release_action(test, et_pair_release, p);
	}
}

/* A given local static public key is used as is (no derivation). */
static void et_static_public(struct kunit *test)
{
	static const char * const names[] = { "Noise_XX" SUITE, "Noise_IK" SUITE };
	unsigned int i, good;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		for (good = 0; good < 2; good++) {
			struct et_pair *p = et_pair_new(test, names[i], NULL);
			struct noise_keys k = {};
			u8 pub[32];
			int err;

			memcpy(pub, p->pub[0], 32);
			pub[5] ^= !good;
			k.local_static = p->s[0];
			k.local_static_public = pub;
			k.remote_static = p->pub[1];
			k.prologue = "prologue";
			k.prologue_len = 8;
			noise_handshake_free(p->ini);
			p->ini = noise_handshake_new(names[i], NOISE_INITIATOR, &k, GFP_KERNEL);
			KUNIT_ASSERT_FALSE(test, IS_ERR(p->ini));
			err = et_handshake(p, 4);
			if (good)
				KUNIT_EXPECT_EQ_MSG(test, err, 0, "%s", names[i]);
			else
				KUNIT_EXPECT_EQ_MSG(test, err, -EBADMSG, "%s", names[i]);
			kunit_release_action(test, et_pair_release, p);
		}
	}
}

static struct kunit_case et_neg_cases[] = {
	KUNIT_CASE(et_names),
	KUNIT_CASE(et_mismatch),
	KUNIT_CASE_SLOW(et_tamper),
	KUNIT_CASE(et_sizes),
	KUNIT_CASE(et_order),
	KUNIT_CASE(et_low_order_25519),
	KUNIT_CASE(et_low_order_448),
	KUNIT_CASE(et_rekey_nonce),
	KUNIT_CASE(et_cipher_pool),
#ifdef NOISE_TESTING
	KUNIT_CASE(et_cipher_pool_ages),
#endif
	KUNIT_CASE(et_template),
	KUNIT_CASE(et_hkdf_blake2s),
	KUNIT_CASE(et_transport_state),
	KUNIT_CASE(et_multi_psk),
	KUNIT_CASE(et_sg_async),
	KUNIT_CASE(et_accessors),
	KUNIT_CASE(et_pipes),
	KUNIT_CASE(et_static_public),
	KUNIT_CASE(et_ephemeral_wipe),
	{}
};

static struct kunit_suite et_neg_suite = {
	.name = "noise_engine_negative",
	.test_cases = et_neg_cases,
};

kunit_test_suite(et_neg_suite);
