// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the WireGuard profile's framing (kmod/noise/tunnel/wg.c): the
 * type/length classifier at every length, the profile's protocol (engine
 * name, prologue, native message lengths), and the handshake sealer's
 * layout and MAC1 (WireGuard's label, keyed by the receiver's key).
 *
 *   insmod kmod/noise/noise.ko; insmod tests/kunit/noise_wg_kunit.ko
 */

#include "compat.h"
#include <kunit/test.h>
#include <crypto/blake2s.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "tunnel/device.h"
#include "tunnel/peer.h"
#include "tunnel/peer_conf.h"
#include "tunnel/proto.h"
#include "tunnel/wg.h"

MODULE_IMPORT_NS(NOISE_INTERNAL);

#define WT_MAX_LEN	300

static u8 wt_expect(u32 type, unsigned int len, u8 *want_type)
{
	switch (type) {
	case NOISE_WG_MSG_INITIATION:
		*want_type = NOISE_MSG_HANDSHAKE;
		return len == 148 ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_WG_MSG_RESPONSE:
		*want_type = NOISE_MSG_HANDSHAKE;
		return len == 92 ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_WG_MSG_COOKIE_REPLY:
		*want_type = NOISE_MSG_COOKIE_REPLY;
		return len == 64 ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_WG_MSG_DATA:
		*want_type = NOISE_MSG_TRANSPORT;
		return len >= 32 ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	default:
		return NOISE_DROP_BAD_TYPE;
	}
}

/* Every type 0..5 (and one with a reserved byte set) at every length. */
static void wt_rx_check(struct kunit *test)
{
	static const u32 types[] = { 0, 1, 2, 3, 4, 5, 0x101, 0x01000004 };
	u8 *msg = kunit_kzalloc(test, WT_MAX_LEN, GFP_KERNEL);
	unsigned int i, len;

	KUNIT_ASSERT_NOT_NULL(test, msg);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		for (len = 4; len < WT_MAX_LEN; len++) {
			u8 type = 0xff, want_type = 0xff;
			enum noise_drop want = wt_expect(types[i], len, &want_type);
			enum noise_drop got;

			memset(msg, 0x5a, WT_MAX_LEN);
			put_unaligned_le32(types[i], msg);
			got = noise_wg_framing.rx_check(msg, len, &type);
			KUNIT_EXPECT_EQ_MSG(test, got, want, "type %#x len %u", types[i], len);
			if (got == NOISE_MSG_OK)
				KUNIT_EXPECT_EQ(test, type, want_type);
		}
	}
	for (len = 0; len < 4; len++) {
		u8 type;

		KUNIT_EXPECT_EQ(test, noise_wg_framing.rx_check(msg, len, &type),
				NOISE_DROP_BAD_LENGTH);
	}
}

/* The profile runs IKpsk2 with WireGuard's identifier as the prologue. */
static void wt_profile(struct kunit *test)
{
	struct noise_tunnel_proto *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct noise_protocol_info info;
	unsigned int dh_len = 0;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_PTR_EQ(test, noise_framing_by_name("WireGuard"), &noise_wg_framing);
	KUNIT_EXPECT_NULL(test, noise_framing_by_name("wireguard"));
	KUNIT_EXPECT_NULL(test, noise_framing_by_name(NOISE_WG_CONSTRUCTION));
	KUNIT_EXPECT_EQ(test, noise_tunnel_protocol_ok("WireGuard", &dh_len, NULL), 0);
	KUNIT_EXPECT_EQ(test, dh_len, 32);
	KUNIT_EXPECT_EQ(test, noise_tunnel_protocol_info("WireGuard", &info), 0);
	KUNIT_EXPECT_EQ(test, info.num_psks, 1);
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse("WireGuard", p, NULL), 0);
	KUNIT_EXPECT_STREQ(test, p->name, "WireGuard");
	KUNIT_EXPECT_PTR_EQ(test, p->framing, &noise_wg_framing);
	KUNIT_EXPECT_STREQ(test, noise_proto_hs_name(p), NOISE_WG_CONSTRUCTION);
	KUNIT_EXPECT_EQ(test, p->prologue_len, 34);
	KUNIT_EXPECT_MEMEQ(test, p->prologue, "WireGuard v1 zx2c4 Jason@zx2c4.com", 34);
	KUNIT_EXPECT_FALSE(test, p->hinted);
	/* Native lengths (one receiver index more in message 1). */
	KUNIT_EXPECT_EQ(test, p->msg_len[1], 148 + 4);
	KUNIT_EXPECT_EQ(test, p->msg_len[2], 92);
}

/*
 * Native message 1 and 2 -> WireGuard's layout; the peer's maker keyed by
 * its key with WireGuard's label (hs_glue.c adds the MACs with it: the
 * selftests against the kernel's WireGuard check them on the wire).
 */
static void wt_layout(struct kunit *test)
{
	struct noise_peer *peer = kunit_kzalloc(test, sizeof(*peer), GFP_KERNEL);
	struct noise_tunnel_proto *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	u8 *msg = kunit_kzalloc(test, 160, GFP_KERNEL);
	u8 key[NOISE_KEY_LEN];
	unsigned int i, len;

	KUNIT_ASSERT_NOT_NULL(test, peer);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse("WireGuard", p, NULL), 0);
	for (i = 0; i < 32; i++)
		peer->public_key[i] = i;
	noise_peer_cookie_keys(p, peer);
	/* mac1 key = BLAKE2s("mac1----" || receiver's public key) */
	{
		u8 buf[8 + 32];

		memcpy(buf, "mac1----", 8);
		memcpy(buf + 8, peer->public_key, 32);
		blake2s(key, buf, NULL, NOISE_KEY_LEN, sizeof(buf), 0);
		KUNIT_EXPECT_MEMEQ(test, peer->cookie.mac1_key, key, NOISE_KEY_LEN);
	}

	/* message 1: header, sender 0x11223344, receiver 0, 108 bytes, MACs */
	memset(msg, 0, 160);
	msg[0] = NOISE_MSG_HANDSHAKE;
	msg[1] = NOISE_WIRE_VERSION;
	msg[2] = 1;
	put_unaligned_le32(0x11223344, msg + 4);
	for (i = 0; i < 108; i++)
		msg[12 + i] = i + 1;
	len = noise_wg_framing.hs_layout(msg, 152);
	KUNIT_ASSERT_EQ(test, len, 148);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(msg), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(msg + 4), 0x11223344);
	for (i = 0; i < 108; i++)
		KUNIT_EXPECT_EQ(test, msg[8 + i], (u8)(i + 1));

	/* message 2: same layout as native, only the type word changes */
	memset(msg, 0, 160);
	msg[0] = NOISE_MSG_HANDSHAKE;
	msg[1] = NOISE_WIRE_VERSION;
	msg[2] = 2;
	put_unaligned_le32(0x55667788, msg + 4);
	put_unaligned_le32(0x11223344, msg + 8);
	len = noise_wg_framing.hs_layout(msg, 92);
	KUNIT_ASSERT_EQ(test, len, 92);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(msg), 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(msg + 4), 0x55667788);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(msg + 8), 0x11223344);
}

static struct kunit_case wt_cases[] = {
	KUNIT_CASE(wt_rx_check),
	KUNIT_CASE(wt_profile),
	KUNIT_CASE(wt_layout),
	{}
};

static struct kunit_suite wt_suite = {
	.name = "noise_wg",
	.test_cases = wt_cases,
};

kunit_test_suites(&wt_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the noise tunnel's WireGuard profile framing");
