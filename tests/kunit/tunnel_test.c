// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the tunnel's wire-message checks (noise_msg_check()): every type
 * at every length up to well past the longest message, bad types, bad
 * versions, bad message numbers; and the exact handshake lengths of
 * Documentation/wire-format.rst.
 *
 *   insmod kmod/noise/noise.ko; insmod tests/kunit/noise_tunnel_kunit.ko
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "tunnel/device.h"
#include "tunnel/messages.h"
#include "tunnel/proto.h"
#include "tunnel_test.h"

MODULE_IMPORT_NS(NOISE_INTERNAL);

#define TT_MAX_LEN	2100	/* past NOISE_MAX_HS_MSG_LEN */

struct tt_proto {
	const char *name;
	unsigned int len[NOISE_MAX_MESSAGES + 1];	/* wire-format.rst */
	bool hinted;
};

static const struct tt_proto tt_protos[] = {
	{ "Noise_IK_25519_ChaChaPoly_BLAKE2s", { 0, 152, 92 }, false },
	{ "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s", { 0, 152, 92 }, false },
	{ "Noise_XX_25519_AESGCM_SHA256", { 0, 88, 140, 108 }, false },
	{ "Noise_KK_25519_ChaChaPoly_BLAKE2s", { 0, 136, 92 }, true },
	/* X448: 56-byte keys, 24 more per DH key. */
	{ "Noise_XX_448_ChaChaPoly_SHA512", { 0, 112, 188, 132 }, false },
	{ "Noise_XXpsk0_25519_ChaChaPoly_BLAKE2s", { 0, 136, 140, 108 }, true },
	/* hfs: an ML-KEM key in message 1, its ciphertext in message 2. */
	{ "Noise_IKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s", { 0, 1352, 1196 }, false },
	{ "Noise_XXhfs_448+MLKEM1024_ChaChaPoly_BLAKE2b", { 0, 1680, 1772, 132 }, false },
	{ "Noise_KKhfs+psk0_448+MLKEM1024_AESGCM_SHA512", { 0, 1744, 1700 }, true },
};

static void tt_proto_desc(const struct tt_proto *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tt_proto, tt_protos, tt_proto_desc);

struct tt_ctx {
	struct noise_tunnel_proto proto;
	u8 msg[TT_MAX_LEN];
};

static struct tt_ctx *tt_setup(struct kunit *test)
{
	const struct tt_proto *tp = test->param_value;
	struct tt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(tp->name, &c->proto, NULL), 0);
	return c;
}

static enum noise_drop tt_check(struct tt_ctx *c, u8 type, u8 version, u8 msgno,
				unsigned int len)
{
	u8 t = 0;

	memset(c->msg, 0xa5, sizeof(c->msg));
	c->msg[0] = type;
	c->msg[1] = version;
	c->msg[2] = msgno;
	c->msg[3] = 0;
	return noise_msg_check(&c->proto, c->msg, len, &t);
}

/* The measured lengths are the documented ones. */
static void tt_lengths(struct kunit *test)
{
	const struct tt_proto *tp = test->param_value;
	struct tt_ctx *c = tt_setup(test);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, c->proto.hinted, tp->hinted);
	for (i = 1; i <= c->proto.info.num_msgs; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->proto.msg_len[i], tp->len[i], "message %u", i);
	KUNIT_EXPECT_EQ(test, c->proto.overhead, 80U);
}

/* Handshake messages: accepted at their exact length only. */
static void tt_handshake_lengths(struct kunit *test)
{
	struct tt_ctx *c = tt_setup(test);
	unsigned int i, len;

	for (i = 1; i <= c->proto.info.num_msgs; i++)
		for (len = 0; len < TT_MAX_LEN; len++)
			KUNIT_EXPECT_EQ_MSG(test, tt_check(c, NOISE_MSG_HANDSHAKE, 1, i, len),
					    len < 4 ? NOISE_DROP_BAD_LENGTH :
					    len == c->proto.msg_len[i] ? NOISE_MSG_OK :
					    NOISE_DROP_BAD_LENGTH, "msg %u len %u", i, len);
}

/* Message numbers outside the pattern are a bad type at any length. */
static void tt_handshake_msgno(struct kunit *test)
{
	struct tt_ctx *c = tt_setup(test);
	unsigned int n, len;

	for (n = 0; n < 256; n++) {
		if (n >= 1 && n <= c->proto.info.num_msgs)
			continue;
		for (len = 4; len < TT_MAX_LEN; len += 7)
			KUNIT_EXPECT_EQ_MSG(test, tt_check(c, NOISE_MSG_HANDSHAKE, 1, n, len),
					    NOISE_DROP_BAD_TYPE, "msgno %u len %u", n, len);
	}
}

static void tt_cookie_transport(struct kunit *test)
{
	struct tt_ctx *c = tt_setup(test);
	unsigned int len;

	for (len = 0; len < TT_MAX_LEN; len++) {
		KUNIT_EXPECT_EQ_MSG(test, tt_check(c, NOISE_MSG_COOKIE_REPLY, 1, 0, len),
				    len == 64 ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH,
				    "cookie len %u", len);
		KUNIT_EXPECT_EQ_MSG(test, tt_check(c, NOISE_MSG_TRANSPORT, 1, 0, len),
				    len >= 32 ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH,
				    "transport len %u", len);
	}
}

/* Unknown types and versions, at every length from 4 on. */
static void tt_bad_type_version(struct kunit *test)
{
	struct tt_ctx *c = tt_setup(test);
	unsigned int t, v, len;

	for (t = 0; t < 256; t++) {
		if (t >= NOISE_MSG_HANDSHAKE && t <= NOISE_MSG_TRANSPORT)
			continue;
		for (len = 4; len < TT_MAX_LEN; len += 3)
			KUNIT_EXPECT_EQ_MSG(test, tt_check(c, t, 1, 1, len),
					    NOISE_DROP_BAD_TYPE, "type %u len %u", t, len);
	}
	for (v = 0; v < 256; v++) {
		if (v == NOISE_WIRE_VERSION)
			continue;
		for (t = 1; t <= 3; t++)
			KUNIT_EXPECT_EQ_MSG(test, tt_check(c, t, v, 1, c->proto.msg_len[1]),
					    NOISE_DROP_BAD_TYPE, "version %u type %u", v, t);
	}
	for (len = 0; len < 4; len++)
		KUNIT_EXPECT_EQ(test, tt_check(c, 7, 9, 1, len), NOISE_DROP_BAD_LENGTH);
}

/* Protocols the tunnel refuses, with a reason. */
static void tt_refused(struct kunit *test)
{
	static const char * const bad[] = {
		"Noise_N_25519_ChaChaPoly_BLAKE2s", "Noise_K_25519_ChaChaPoly_BLAKE2s",
		"Noise_X_25519_ChaChaPoly_BLAKE2s", "Noise_NN_25519_ChaChaPoly_BLAKE2s",
		"Noise_NK_25519_ChaChaPoly_BLAKE2s", "Noise_XN_25519_ChaChaPoly_BLAKE2s",
		"Noise_IN_25519_ChaChaPoly_BLAKE2s", "Noise_KN_25519_ChaChaPoly_BLAKE2s",
		"Noise_NX_25519_ChaChaPoly_BLAKE2s", "Noise_XXfallback_25519_ChaChaPoly_BLAKE2s",
		"Noise_IK_25519_ChaChaPoly", "Noise_Foo_25519_ChaChaPoly_BLAKE2s", "",
		"Noise_NKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s",
		"Noise_Xhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s",
		"Noise_IKhfs_25519+MLKEM512_ChaChaPoly_BLAKE2s",
	};
	static const char * const good[] = {
		"Noise_IK_25519_ChaChaPoly_BLAKE2s", "Noise_XX_448_AESGCM_SHA512",
		"Noise_KK_25519_AESGCM_BLAKE2b", "Noise_IX_25519_ChaChaPoly_SHA256",
		"Noise_XK_25519_ChaChaPoly_BLAKE2s", "Noise_KX_25519_ChaChaPoly_BLAKE2s",
		"Noise_I1K1_25519_ChaChaPoly_BLAKE2s", "Noise_X1X1_448_ChaChaPoly_BLAKE2b",
		"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s", "Noise_KKpsk0_25519_ChaChaPoly_BLAKE2s",
		"Noise_IKhfs+psk2_25519+MLKEM768_ChaChaPoly_BLAKE2s",
		"Noise_XXhfs_448+MLKEM1024_AESGCM_SHA512",
	};
	struct netlink_ext_ack ext = {};
	unsigned int i, dh;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ext._msg = NULL;
		KUNIT_EXPECT_EQ_MSG(test, noise_tunnel_protocol_ok(bad[i], &dh, &ext), -EINVAL,
				    "%s", bad[i]);
		KUNIT_EXPECT_NOT_NULL_MSG(test, ext._msg, "%s", bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ_MSG(test, noise_tunnel_protocol_ok(good[i], &dh, NULL), 0,
				    "%s", good[i]);
		KUNIT_EXPECT_EQ(test, dh, strstr(good[i], "_448") ? 56U : 32U);
	}
}

static void tt_same_proto(struct kunit *test, const struct noise_tunnel_proto *a,
			  const struct noise_tunnel_proto *b)
{
	KUNIT_EXPECT_STREQ(test, a->name, b->name);
	KUNIT_EXPECT_EQ(test, a->info.num_msgs, b->info.num_msgs);
	KUNIT_EXPECT_EQ(test, a->info.dh_len, b->info.dh_len);
	KUNIT_EXPECT_MEMEQ(test, a->msg_len, b->msg_len, sizeof(a->msg_len));
	KUNIT_EXPECT_MEMEQ(test, a->noise_len, b->noise_len, sizeof(a->noise_len));
	KUNIT_EXPECT_EQ(test, a->max_msg_len, b->max_msg_len);
	KUNIT_EXPECT_EQ(test, a->hinted, b->hinted);
	KUNIT_EXPECT_EQ(test, a->overhead, b->overhead);
	KUNIT_EXPECT_EQ(test, a->prologue_len, b->prologue_len);
	KUNIT_EXPECT_MEMEQ(test, a->prologue, b->prologue, a->prologue_len);
	KUNIT_EXPECT_PTR_EQ(test, a->framing, b->framing);
}

/* Exactly the tt_protos[] indexed by @kept are kept. */
static void tt_expect_kept(struct kunit *test, const unsigned int *kept, unsigned int n)
{
	unsigned int i, j;
	bool want;

	for (i = 0; i < ARRAY_SIZE(tt_protos); i++) {
		for (want = false, j = 0; j < n; j++)
			want |= kept[j] == i;
		KUNIT_EXPECT_EQ_MSG(test, noise_tunnel_protocol_cached(tt_protos[i].name), want,
				    "%s", tt_protos[i].name);
	}
}

/*
 * The last NOISE_PROTO_CACHE_SIZE protocols parsed are kept: parsing one
 * of them again gives what its calibration gave and moves it up; a name
 * pushed out calibrates again; a refused name is not kept.
 */
static void tt_proto_cache(struct kunit *test)
{
	static const unsigned int kept1[] = { 0, 2, 3, 4, 5, 6, 7, 8 };
	static const unsigned int kept2[] = { 0, 1, 2, 4, 5, 6, 7, 8 };
	const unsigned int n = ARRAY_SIZE(tt_protos);
	struct noise_tunnel_proto *a = kunit_kcalloc(test, 2, sizeof(*a), GFP_KERNEL);
	unsigned int i;

	static_assert(ARRAY_SIZE(tt_protos) == NOISE_PROTO_CACHE_SIZE + 1);
	KUNIT_ASSERT_NOT_NULL(test, a);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(tt_protos[i].name, a, NULL), 0);
	KUNIT_EXPECT_FALSE(test, noise_tunnel_protocol_cached(tt_protos[0].name));
	for (i = 1; i < n; i++)
		KUNIT_EXPECT_TRUE(test, noise_tunnel_protocol_cached(tt_protos[i].name));

	/* 0 calibrates again (pushing 1 out), then comes from the cache. */
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(tt_protos[0].name, &a[0], NULL), 0);
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(tt_protos[0].name, &a[1], NULL), 0);
	tt_same_proto(test, &a[0], &a[1]);
	tt_expect_kept(test, kept1, ARRAY_SIZE(kept1));

	/* 2, the oldest, used again moves up: 1 pushes 3 out instead. */
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(tt_protos[2].name, a, NULL), 0);
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(tt_protos[1].name, a, NULL), 0);
	tt_expect_kept(test, kept2, ARRAY_SIZE(kept2));

	KUNIT_EXPECT_EQ(test, noise_tunnel_protocol_parse("Noise_NN_25519_ChaChaPoly_BLAKE2s",
							  a, NULL), -EINVAL);
	KUNIT_EXPECT_FALSE(test, noise_tunnel_protocol_cached("Noise_NN_25519_ChaChaPoly_BLAKE2s"));
}

static struct kunit_case tt_cases[] = {
	KUNIT_CASE_PARAM(tt_lengths, tt_proto_gen_params),
	KUNIT_CASE_PARAM(tt_handshake_lengths, tt_proto_gen_params),
	KUNIT_CASE_PARAM(tt_handshake_msgno, tt_proto_gen_params),
	KUNIT_CASE_PARAM(tt_cookie_transport, tt_proto_gen_params),
	KUNIT_CASE_PARAM(tt_bad_type_version, tt_proto_gen_params),
	KUNIT_CASE(tt_refused),
	KUNIT_CASE(tt_proto_cache),
	{}
};

static struct kunit_suite tt_suite = {
	.name = "noise_tunnel_wire",
	.test_cases = tt_cases,
};

kunit_test_suites(&tt_suite, &tt_lookup_suite, &tt_dump_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the noise tunnel: wire checks, peer and index lookup");
