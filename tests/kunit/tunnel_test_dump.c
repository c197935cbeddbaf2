// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the GET_DEVICE dump across its messages while the device changes
 * between them (noise_nl_dump_test_step() runs the dumpit as netlink does
 * and calls back between two messages): peers removed behind the dump's
 * position, the peer it goes on with removed, allowed IPs changed; every
 * peer still there comes back exactly once, and a changed dump says so
 * (NLM_F_DUMP_INTR).
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <uapi/linux/noise.h>
#include "tunnel/allowedips.h"
#include "tunnel/device.h"
#include "tunnel/peer.h"
#include "tunnel/peer_conf.h"
#include "tunnel_test.h"

#define TD_PEERS	300
#define TD_AIPS		1500	/* allowed IPs of peer 0 in td_aips */

struct td_ctx {
	struct kunit *test;
	struct noise_device *nd;
	unsigned int msgs;
	unsigned int heads[TD_PEERS];	/* nests with the peer's attributes */
	unsigned int aips[TD_PEERS];
	unsigned int first_heads[TD_PEERS];	/* in message 1 */
	bool removed[TD_PEERS];
	bool intr;
	int action;
};

static void td_key(u8 key[NOISE_KEY_LEN_25519], unsigned int i)
{
	memset(key, 0x5a, NOISE_KEY_LEN_25519);
	key[0] = i & 0xff;
	key[1] = i >> 8;
}

static int td_init(struct kunit *test)
{
	struct td_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);
	u8 key[NOISE_KEY_LEN_25519];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	test->priv = c;
	c->test = test;
	c->nd = noise_device_create_test("noisedump%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->nd));
	mutex_lock(&c->nd->conf_lock);
	for (i = 0; i < TD_PEERS; i++) {
		td_key(key, i);
		KUNIT_EXPECT_FALSE(test, IS_ERR(noise_peer_create(c->nd, key)));
	}
	mutex_unlock(&c->nd->conf_lock);
	return 0;
}

static void td_exit(struct kunit *test)
{
	struct td_ctx *c = test->priv;

	if (!c)
		return;
	if (!IS_ERR_OR_NULL(c->nd))
		noise_device_destroy_test(c->nd);
	kfree(c);
}

/* Counts each peer's nests with its attributes and its allowed IPs. */
static void td_scan(struct td_ctx *c, const u8 *buf, size_t len, unsigned int *heads,
		    unsigned int *aips)
{
	const int hdr = NLMSG_HDRLEN + GENL_HDRLEN;
	const struct nlmsghdr *nlh;
	const struct nlattr *a, *p;
	size_t off;
	int rem, prem;

	for (off = 0; off + hdr <= len; off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		nlh = (const void *)(buf + off);
		if (nlh->nlmsg_len < hdr || off + nlh->nlmsg_len > len)
			break;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			c->intr = true;
		nla_for_each_attr(a, (const struct nlattr *)(buf + off + hdr),
				  nlh->nlmsg_len - hdr, rem) {
			const u8 *key = NULL;
			unsigned int head = 0, n = 0, i;

			if (nla_type(a) != NOISE_A_DEVICE_PEER)
				continue;
			nla_for_each_nested(p, a, prem) {
				if (nla_type(p) == NOISE_A_PEER_PUBLIC_KEY &&
				    nla_len(p) == NOISE_KEY_LEN_25519)
					key = nla_data(p);
				else if (nla_type(p) == NOISE_A_PEER_PERSISTENT_KEEPALIVE)
					head = 1;
				else if (nla_type(p) == NOISE_A_PEER_ALLOWEDIP)
					n++;
			}
			/* No ASSERT here: it would leave the dump (and a device reference). */
			KUNIT_EXPECT_NOT_NULL(c->test, key);
			if (!key)
				continue;
			i = key[0] | key[1] << 8;
			KUNIT_EXPECT_LT(c->test, i, TD_PEERS);
			if (i >= TD_PEERS)
				continue;
			heads[i] += head;
			if (aips)
				aips[i] += n;
		}
	}
}

static void td_remove(struct td_ctx *c, unsigned int i)
{
	u8 key[NOISE_KEY_LEN_25519];
	struct noise_peer *peer;

	td_key(key, i);
	mutex_lock(&c->nd->conf_lock);
	peer = noise_peer_lookup(c->nd, key);
	KUNIT_EXPECT_NOT_NULL(c->test, peer);
	if (peer)
		noise_peer_remove(peer);
	mutex_unlock(&c->nd->conf_lock);
	c->removed[i] = true;
}

enum { TD_REMOVE_SENT, TD_REMOVE_NEXT, TD_ADD_AIP };

/* After message 1: change the device as the case says. */
static void td_between(void *arg, const void *msg, size_t len)
{
	struct td_ctx *c = arg;
	unsigned int i, sent = 0, last = 0;

	if (c->msgs++)
		return;
	td_scan(c, msg, len, c->first_heads, NULL);
	for (i = 0; i < TD_PEERS; i++) {
		if (c->first_heads[i]) {
			sent++;
			last = i;
		}
	}
	if (c->action != TD_ADD_AIP) {
		KUNIT_EXPECT_GE(c->test, sent, 4U);
		KUNIT_EXPECT_LT(c->test, last + 2, TD_PEERS);
		if (sent < 4 || last + 2 >= TD_PEERS)
			return;
	}
	if (c->action == TD_REMOVE_SENT) {
		/* Four peers the dump has sent, behind its position. */
		for (i = 0; i < 4; i++)
			td_remove(c, i);
	} else if (c->action == TD_REMOVE_NEXT) {
		/* The peer it goes on with, and the one after. */
		td_remove(c, last + 1);
		td_remove(c, last + 2);
	} else {
		struct noise_allowedips_pool pool = {};
		u8 key[NOISE_KEY_LEN_25519];
		__be32 addr = htonl(0x0b000001);
		struct noise_peer *peer;

		td_key(key, TD_PEERS - 1);
		mutex_lock(&c->nd->conf_lock);
		peer = noise_peer_lookup(c->nd, key);
		KUNIT_EXPECT_NOT_NULL(c->test, peer);
		KUNIT_EXPECT_EQ(c->test, noise_allowedips_pool_fill(&pool, 2, GFP_KERNEL), 0);
		if (peer)
			KUNIT_EXPECT_EQ(c->test,
					noise_allowedips_insert(&c->nd->aips, AF_INET, &addr, 32,
								peer, &peer->allowedips, &pool), 0);
		noise_allowedips_pool_drain(&pool);
		mutex_unlock(&c->nd->conf_lock);
	}
}

static void td_dump(struct td_ctx *c)
{
	size_t len;
	u8 *buf = noise_nl_dump_test_step(c->nd, &len, td_between, c);

	KUNIT_ASSERT_NOT_NULL(c->test, buf);
	td_scan(c, buf, len, c->heads, c->aips);
	kvfree(buf);
	kunit_info(c->test, "%u messages", c->msgs);
}

/* Peers removed behind the dump: each other peer still comes once. */
static void td_remove_sent(struct kunit *test)
{
	struct td_ctx *c = test->priv;
	unsigned int i, missing = 0;

	c->action = TD_REMOVE_SENT;
	td_dump(c);
	for (i = 0; i < TD_PEERS; i++) {
		if (c->heads[i] != 1)
			kunit_info(test, "peer %u: %u times%s", i, c->heads[i],
				   c->removed[i] ? " (removed after message 1)" : "");
		missing += c->heads[i] != 1;
	}
	KUNIT_EXPECT_EQ_MSG(test, missing, 0U, "peers not dumped exactly once");
	KUNIT_EXPECT_TRUE_MSG(test, c->intr, "a changed dump without NLM_F_DUMP_INTR");
}

/* The peer the dump goes on with removed: it ends, flagged, nothing twice. */
static void td_remove_next(struct kunit *test)
{
	struct td_ctx *c = test->priv;
	unsigned int i;

	c->action = TD_REMOVE_NEXT;
	td_dump(c);
	for (i = 0; i < TD_PEERS; i++) {
		KUNIT_EXPECT_LE_MSG(test, c->heads[i], 1U, "peer %u twice", i);
		if (c->removed[i])
			KUNIT_EXPECT_EQ_MSG(test, c->heads[i], 0U, "removed peer %u dumped", i);
	}
	KUNIT_EXPECT_TRUE_MSG(test, c->intr, "a changed dump without NLM_F_DUMP_INTR");
}

/*
 * Peer 0 with TD_AIPS allowed IPs (several messages); an allowed IP added
 * to another peer after message 1: every one of peer 0's comes once.
 */
static void td_aips(struct kunit *test)
{
	struct td_ctx *c = test->priv;
	struct noise_allowedips_pool pool = {};
	u8 key[NOISE_KEY_LEN_25519];
	struct noise_peer *peer;
	unsigned int i;
	__be32 addr;

	td_key(key, 0);
	mutex_lock(&c->nd->conf_lock);
	peer = noise_peer_lookup(c->nd, key);
	KUNIT_ASSERT_EQ(test, noise_allowedips_pool_fill(&pool, 2 * TD_AIPS, GFP_KERNEL), 0);
	for (i = 0; i < TD_AIPS; i++) {
		addr = htonl(0x0a000000 + i);
		KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&c->nd->aips, AF_INET, &addr, 32,
							      peer, &peer->allowedips, &pool), 0);
	}
	noise_allowedips_pool_drain(&pool);
	mutex_unlock(&c->nd->conf_lock);
	c->action = TD_ADD_AIP;
	td_dump(c);
	KUNIT_EXPECT_GT(test, c->msgs, 3U);
	KUNIT_EXPECT_EQ(test, c->aips[0], TD_AIPS);
	for (i = 0; i < TD_PEERS; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->heads[i], 1U, "peer %u", i);
	KUNIT_EXPECT_TRUE(test, c->intr);
}

static struct kunit_case td_cases[] = {
	KUNIT_CASE(td_remove_sent),
	KUNIT_CASE(td_remove_next),
	KUNIT_CASE(td_aips),
	{}
};

struct kunit_suite tt_dump_suite = {
	.name = "noise_tunnel_dump",
	.init = td_init,
	.exit = td_exit,
	.test_cases = td_cases,
};
