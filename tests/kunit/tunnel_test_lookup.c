// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: peers found by static key and by message-1 hint (one DH and a
 * hash lookup, however many peers), when a peer's ss is derived, and the
 * index table (receiver index -> keypair or handshake), on a real device.
 */

#include <crypto/algapi.h>
#include <crypto/blake2s.h>
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "tunnel/device.h"
#include "tunnel/identity.h"
#include "tunnel/peer.h"
#include "tunnel/peer_conf.h"
#include "tunnel_test.h"

#define TL_PEERS	64
/* A hinted protocol: its peers are filed by hint id (wire-format.rst). */
#define TL_HINTED	"Noise_KK_25519_ChaChaPoly_BLAKE2s"

struct tl_ctx {
	struct noise_device *nd;
	u8 priv[TL_PEERS][NOISE_MAX_DHLEN], pub[TL_PEERS][NOISE_MAX_DHLEN];
	struct noise_peer *peer[TL_PEERS];
	u8 dev_pub[NOISE_MAX_DHLEN];
};

static int tl_init(struct kunit *test)
{
	struct tl_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);
	u8 priv[NOISE_MAX_DHLEN];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	test->priv = c;
	c->nd = noise_device_create_test("noisetest%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->nd));
	KUNIT_ASSERT_EQ(test, noise_dh_generate(NOISE_DH_25519, priv, c->dev_pub), 0);
	mutex_lock(&c->nd->conf_lock);
	KUNIT_EXPECT_EQ(test, noise_device_set_protocol(c->nd, TL_HINTED, NULL), 0);
	KUNIT_EXPECT_EQ(test, noise_device_set_private_key(c->nd, priv), 0);
	for (i = 0; i < TL_PEERS; i++) {
		KUNIT_EXPECT_EQ(test, noise_dh_generate(NOISE_DH_25519, c->priv[i], c->pub[i]), 0);
		c->peer[i] = noise_peer_create(c->nd, c->pub[i]);
		KUNIT_EXPECT_FALSE(test, IS_ERR(c->peer[i]));
	}
	mutex_unlock(&c->nd->conf_lock);
	memzero_explicit(priv, sizeof(priv));
	return 0;
}

static void tl_exit(struct kunit *test)
{
	struct tl_ctx *c = test->priv;

	if (!c)
		return;
	if (!IS_ERR_OR_NULL(c->nd))
		noise_device_destroy_test(c->nd);
	kfree_sensitive(c);
}

static void tl_by_key(struct kunit *test)
{
	struct tl_ctx *c = test->priv;
	u8 other[NOISE_MAX_DHLEN], priv[NOISE_MAX_DHLEN];
	int i;

	mutex_lock(&c->nd->conf_lock);
	for (i = 0; i < TL_PEERS; i++)
		KUNIT_EXPECT_PTR_EQ(test, noise_peer_lookup(c->nd, c->pub[i]), c->peer[i]);
	KUNIT_EXPECT_EQ(test, noise_dh_generate(NOISE_DH_25519, priv, other), 0);
	KUNIT_EXPECT_NULL(test, noise_peer_lookup(c->nd, other));
	/* one bit off */
	memcpy(other, c->pub[3], 32);
	other[31] ^= 0x40;
	KUNIT_EXPECT_NULL(test, noise_peer_lookup(c->nd, other));
	/* duplicates and our own key are refused */
	KUNIT_EXPECT_EQ(test, PTR_ERR(noise_peer_create(c->nd, c->pub[5])), -EEXIST);
	KUNIT_EXPECT_EQ(test, PTR_ERR(noise_peer_create(c->nd, c->dev_pub)), -EINVAL);
	/* removed: gone */
	noise_peer_remove(c->peer[7]);
	KUNIT_EXPECT_NULL(test, noise_peer_lookup(c->nd, c->pub[7]));
	KUNIT_EXPECT_PTR_EQ(test, noise_peer_lookup(c->nd, c->pub[8]), c->peer[8]);
	mutex_unlock(&c->nd->conf_lock);
}

/*
 * The message-1 hint an initiator with static private key @priv sends to
 * our device, computed here from the formula of wire-format.rst: a fresh
 * e (@e_pub), k = DH(e, our s), id = BLAKE2s-256(key "noise-tunnel id",
 * ss), ct = id ^ BLAKE2s-256(key = BLAKE2s-256(key "noise-tunnel hint",
 * k), e_pub || "noise-tunnel hint"); @k_out (or NULL) gets k.
 */
static void tl_hint_k(struct tl_ctx *c, const u8 *priv, u8 *e_pub, u8 *ct, u8 *k_out)
{
	static const char id_label[] = "noise-tunnel id", hint_label[] = "noise-tunnel hint";
	u8 ss[NOISE_MAX_DHLEN], k[NOISE_MAX_DHLEN], e[NOISE_MAX_DHLEN];
	u8 key[BLAKE2S_HASH_SIZE], mask[BLAKE2S_HASH_SIZE];
	struct blake2s_state st;

	WARN_ON(noise_dh_generate(NOISE_DH_25519, e, e_pub));
	WARN_ON(noise_dh_shared(NOISE_DH_25519, ss, priv, c->dev_pub));
	WARN_ON(noise_dh_shared(NOISE_DH_25519, k, e, c->dev_pub));
	blake2s(ct, ss, id_label, 32, 32, sizeof(id_label) - 1);
	blake2s(key, k, hint_label, 32, 32, sizeof(hint_label) - 1);
	blake2s_init_key(&st, 32, key, sizeof(key));
	blake2s_update(&st, e_pub, 32);
	blake2s_update(&st, hint_label, sizeof(hint_label) - 1);
	blake2s_final(&st, mask);
	crypto_xor(ct, mask, NOISE_HINT_LEN);
	if (k_out)
		memcpy(k_out, k, 32);
	memzero_explicit(ss, sizeof(ss));
	memzero_explicit(k, sizeof(k));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(key, sizeof(key));
	memzero_explicit(mask, sizeof(mask));
}

static void tl_hint(struct tl_ctx *c, const u8 *priv, u8 *e_pub, u8 *ct)
{
	tl_hint_k(c, priv, e_pub, ct, NULL);
}

/*
 * A found peer comes with the DH the hint was masked with (the responder's
 * es of the same message reuses it); a hint that names nobody leaves @got
 * as it was.
 */
static void tl_hint_dh(struct kunit *test, struct tl_ctx *c, int i)
{
	u8 e_pub[NOISE_MAX_DHLEN], ct[NOISE_HINT_LEN];
	u8 k[NOISE_MAX_DHLEN], got[NOISE_MAX_DHLEN], mark[NOISE_MAX_DHLEN];

	tl_hint_k(c, c->priv[i], e_pub, ct, k);
	memset(got, 0xa5, sizeof(got));
	memset(mark, 0xa5, sizeof(mark));
	KUNIT_EXPECT_PTR_EQ(test, noise_peer_hint_lookup(c->nd, e_pub, ct, got), c->peer[i]);
	KUNIT_EXPECT_MEMEQ(test, got, k, 32);
	memset(got, 0xa5, sizeof(got));
	ct[i % NOISE_HINT_LEN] ^= 1 << (i & 7);	/* a flipped bit names nobody */
	KUNIT_EXPECT_NULL(test, noise_peer_hint_lookup(c->nd, e_pub, ct, got));
	KUNIT_EXPECT_MEMEQ(test, got, mark, sizeof(got));
	ct[i % NOISE_HINT_LEN] ^= 1 << (i & 7);
	e_pub[i % 31] ^= 1 << (i & 7);		/* e is bound */
	KUNIT_EXPECT_NULL(test, noise_peer_hint_lookup(c->nd, e_pub, ct, got));
	KUNIT_EXPECT_MEMEQ(test, got, mark, sizeof(got));
	memzero_explicit(k, sizeof(k));
	memzero_explicit(got, sizeof(got));
}

static void tl_by_hint(struct kunit *test)
{
	struct tl_ctx *c = test->priv;
	u8 e_pub[NOISE_MAX_DHLEN], ct[NOISE_HINT_LEN], ct2[NOISE_HINT_LEN];
	u8 priv[NOISE_MAX_DHLEN], pub[NOISE_MAX_DHLEN];
	int i;

	mutex_lock(&c->nd->hs_lock);
	for (i = 0; i < TL_PEERS; i++)
		tl_hint_dh(test, c, i);
	/* two hints of one initiator differ (a fresh e each) */
	tl_hint(c, c->priv[0], e_pub, ct);
	tl_hint(c, c->priv[0], pub, ct2);
	KUNIT_EXPECT_MEMNEQ(test, ct, ct2, NOISE_HINT_LEN);
	KUNIT_EXPECT_PTR_EQ(test, noise_peer_hint_lookup(c->nd, pub, ct2, NULL), c->peer[0]);
	/* a stranger's hint names nobody */
	KUNIT_EXPECT_EQ(test, noise_dh_generate(NOISE_DH_25519, priv, pub), 0);
	tl_hint(c, priv, e_pub, ct);
	KUNIT_EXPECT_NULL(test, noise_peer_hint_lookup(c->nd, e_pub, ct, NULL));
	mutex_unlock(&c->nd->hs_lock);
}

/* A removed peer, and every peer after our key changed, leave the table. */
static void tl_hint_rekey(struct kunit *test)
{
	struct tl_ctx *c = test->priv;
	u8 e_pub[NOISE_MAX_DHLEN], ct[NOISE_HINT_LEN], old[NOISE_MAX_DHLEN];
	u8 priv[NOISE_MAX_DHLEN];

	mutex_lock(&c->nd->conf_lock);
	noise_peer_remove(c->peer[7]);
	mutex_unlock(&c->nd->conf_lock);
	mutex_lock(&c->nd->hs_lock);
	tl_hint(c, c->priv[7], e_pub, ct);
	KUNIT_EXPECT_NULL(test, noise_peer_hint_lookup(c->nd, e_pub, ct, NULL));
	mutex_unlock(&c->nd->hs_lock);

	memcpy(old, c->dev_pub, sizeof(old));
	KUNIT_ASSERT_EQ(test, noise_dh_generate(NOISE_DH_25519, priv, c->dev_pub), 0);
	mutex_lock(&c->nd->conf_lock);
	KUNIT_EXPECT_EQ(test, noise_device_set_private_key(c->nd, priv), 0);
	mutex_unlock(&c->nd->conf_lock);
	memzero_explicit(priv, sizeof(priv));
	mutex_lock(&c->nd->hs_lock);
	tl_hint(c, c->priv[8], e_pub, ct);	/* to the new key: found */
	KUNIT_EXPECT_PTR_EQ(test, noise_peer_hint_lookup(c->nd, e_pub, ct, NULL), c->peer[8]);
	memcpy(c->dev_pub, old, sizeof(old));	/* to the old one: nobody */
	tl_hint(c, c->priv[8], e_pub, ct);
	KUNIT_EXPECT_NULL(test, noise_peer_hint_lookup(c->nd, e_pub, ct, NULL));
	mutex_unlock(&c->nd->hs_lock);
}

/*
 * Many peers: a lookup examines about one entry, however many peers. The
 * TL_PEERS peers added first (their keys known) are looked up once
 * TL_MANY are filed: in a table with a fixed number of buckets they sit at
 * the ends of long chains (TL_MANY / 2,048 = 4 entries on average ahead
 * of them); in one that grows with its peers, about half an entry.
 * Both tables (by key too) end with a bucket per peer.
 */
#define TL_MANY		8192
#define TL_MAX_MEAN_X10	25	/* 2.5 entries a lookup */

/* Both tables have a bucket per peer, and the moved peers are found by key. */
static void tl_tables_grown(struct kunit *test, struct tl_ctx *c)
{
	struct noise_device *nd = c->nd;
	int i;

	mutex_lock(&nd->conf_lock);
	KUNIT_EXPECT_EQ(test, nd->peer_hash.count, (unsigned int)TL_MANY);
	KUNIT_EXPECT_EQ(test, nd->peer_id_hash.count, (unsigned int)TL_MANY);
	KUNIT_EXPECT_GE(test, 1U << nd->peer_hash.bits, (unsigned int)TL_MANY);
	KUNIT_EXPECT_GE(test, 1U << nd->peer_id_hash.bits, (unsigned int)TL_MANY);
	for (i = 0; i < TL_PEERS; i++)
		KUNIT_EXPECT_PTR_EQ(test, noise_peer_lookup(nd, c->pub[i]), c->peer[i]);
	mutex_unlock(&nd->conf_lock);
}

static void tl_hint_o1(struct kunit *test)
{
	struct tl_ctx *c = test->priv;
	u8 e_pub[NOISE_MAX_DHLEN], ct[NOISE_HINT_LEN], pub[NOISE_MAX_DHLEN];
	struct noise_peer *peer = NULL, *found;
	unsigned int steps, total = 0;
	u64 t = ktime_get_ns();
	int i;

	mutex_lock(&c->nd->conf_lock);
	for (i = TL_PEERS; i < TL_MANY; i++) {
		get_random_bytes(pub, 32);
		peer = noise_peer_create(c->nd, pub);
		if (IS_ERR(peer))
			break;
	}
	mutex_unlock(&c->nd->conf_lock);
	KUNIT_ASSERT_FALSE(test, IS_ERR(peer));
	kunit_info(test, "%d peers added in %llu ms\n", TL_MANY,
		   (ktime_get_ns() - t) / NSEC_PER_MSEC);
	mutex_lock(&c->nd->hs_lock);
	for (i = 0; i < TL_PEERS; i++) {
		tl_hint(c, c->priv[i], e_pub, ct);
		found = noise_peer_hint_lookup_test(c->nd, e_pub, ct, &steps);
		KUNIT_EXPECT_PTR_EQ(test, found, c->peer[i]);
		KUNIT_EXPECT_GE(test, steps, 1U);
		total += steps;
	}
	mutex_unlock(&c->nd->hs_lock);
	kunit_info(test, "lookups of the first %d of %d peers examined %u.%02u entries each\n",
		   TL_PEERS, TL_MANY, total / TL_PEERS, total * 100 / TL_PEERS % 100);
	KUNIT_EXPECT_LE(test, total * 10, TL_MAX_MEAN_X10 * TL_PEERS);
	tl_tables_grown(test, c);
}

/*
 * Peers added before the device has a key are filed by hint id only when
 * the key comes (every ss derived at once): the id table must grow then
 * too, not only as peers are added.
 */
#define TL_KEYLESS	1024

static void tl_tables_fit_after_key(struct kunit *test)
{
	struct noise_device *nd = noise_device_create_test("noisetest%d");
	u8 priv[NOISE_MAX_DHLEN], pub[NOISE_MAX_DHLEN];
	struct noise_peer *peer = NULL;
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(nd));
	mutex_lock(&nd->conf_lock);
	KUNIT_EXPECT_EQ(test, noise_device_set_protocol(nd, TL_HINTED, NULL), 0);
	for (i = 0; i < TL_KEYLESS && !IS_ERR(peer); i++) {
		get_random_bytes(pub, 32);
		peer = noise_peer_create(nd, pub);
	}
	KUNIT_EXPECT_FALSE(test, IS_ERR(peer));
	KUNIT_EXPECT_EQ(test, nd->peer_id_hash.count, 0U);
	KUNIT_EXPECT_EQ(test, noise_dh_generate(NOISE_DH_25519, priv, pub), 0);
	KUNIT_EXPECT_EQ(test, noise_device_set_private_key(nd, priv), 0);
	KUNIT_EXPECT_EQ(test, nd->peer_id_hash.count, (unsigned int)TL_KEYLESS);
	KUNIT_EXPECT_GE(test, 1U << nd->peer_id_hash.bits, (unsigned int)TL_KEYLESS);
	mutex_unlock(&nd->conf_lock);
	memzero_explicit(priv, sizeof(priv));
	noise_device_destroy_test(nd);
}

#define TL_LATER	16

struct tl_later {
	struct noise_device *nd;
	struct noise_peer *peer[TL_LATER], *bad;
	u8 priv[NOISE_MAX_DHLEN], pub[NOISE_MAX_DHLEN];
};

static void tl_ss_expect(struct kunit *test, struct noise_peer *peer, const u8 *priv,
			 const u8 *pub)
{
	u8 ss[NOISE_MAX_DHLEN];

	KUNIT_EXPECT_TRUE(test, peer->ss_later);
	KUNIT_EXPECT_FALSE(test, peer->ss_ok);
	KUNIT_EXPECT_NULL(test, memchr_inv(peer->ss, 0, sizeof(peer->ss)));
	KUNIT_EXPECT_TRUE(test, noise_peer_ss_ready(peer));
	KUNIT_EXPECT_FALSE(test, peer->ss_later);
	KUNIT_EXPECT_EQ(test, noise_dh_shared(NOISE_DH_25519, ss, priv, pub), 0);
	KUNIT_EXPECT_MEMEQ(test, peer->ss, ss, 32);
	KUNIT_EXPECT_TRUE(test, noise_peer_ss_ready(peer));
	memzero_explicit(ss, sizeof(ss));
}

/* A (new) private key for @l->nd; the first time, its peers. conf_lock held. */
static bool tl_later_keys(struct kunit *test, struct tl_ctx *c, struct tl_later *l)
{
	static const u8 zero[NOISE_MAX_DHLEN];	/* DH(x, 0) = 0: degenerate */
	int i;

	KUNIT_EXPECT_EQ(test, noise_dh_generate(NOISE_DH_25519, l->priv, l->pub), 0);
	KUNIT_EXPECT_EQ(test, noise_device_set_private_key(l->nd, l->priv), 0);
	for (i = 0; !l->bad && i < TL_LATER; i++) {
		l->peer[i] = noise_peer_create(l->nd, c->pub[i]);
		KUNIT_EXPECT_FALSE(test, IS_ERR(l->peer[i]));
		if (IS_ERR(l->peer[i]))
			return false;
	}
	if (!l->bad)
		l->bad = noise_peer_create(l->nd, zero);
	KUNIT_EXPECT_FALSE(test, IS_ERR(l->bad));
	return !IS_ERR(l->bad);
}

/*
 * Without hints (the default protocol, IKpsk2) a peer's ss waits for its
 * first handshake: configuring peers or a new private key does no DH, the
 * id table stays empty, and the handshake's first noise_peer_ss_ready()
 * gives DH(our static, its static), once; a degenerate DH is remembered.
 * With hints every ss is there at once (tl_init's device).
 */
static void tl_ss_later(struct kunit *test)
{
	struct tl_ctx *c = test->priv;
	struct tl_later *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	int i, k;

	KUNIT_ASSERT_NOT_NULL(test, l);
	l->nd = noise_device_create_test("noisetest%d");
	KUNIT_ASSERT_FALSE(test, IS_ERR(l->nd));
	mutex_lock(&l->nd->conf_lock);
	for (k = 0; k < 2 && tl_later_keys(test, c, l); k++) {
		KUNIT_EXPECT_EQ(test, l->nd->peer_id_hash.count, 0U);
		mutex_lock(&l->nd->hs_lock);
		for (i = 0; i < TL_LATER; i++)
			tl_ss_expect(test, l->peer[i], c->priv[i], l->pub);
		KUNIT_EXPECT_TRUE(test, l->bad->ss_later);
		KUNIT_EXPECT_FALSE(test, noise_peer_ss_ready(l->bad));
		KUNIT_EXPECT_FALSE(test, l->bad->ss_later);	/* not tried again */
		KUNIT_EXPECT_FALSE(test, noise_peer_ss_ready(l->bad));
		mutex_unlock(&l->nd->hs_lock);
	}
	mutex_unlock(&l->nd->conf_lock);
	memzero_explicit(l->priv, sizeof(l->priv));
	noise_device_destroy_test(l->nd);
	mutex_lock(&c->nd->conf_lock);
	for (i = 0; i < TL_PEERS; i++)
		KUNIT_EXPECT_TRUE(test, c->peer[i]->ss_ok && !c->peer[i]->ss_later);
	KUNIT_EXPECT_EQ(test, c->nd->peer_id_hash.count, (unsigned int)TL_PEERS);
	mutex_unlock(&c->nd->conf_lock);
}

static void tl_index(struct kunit *test)
{
	struct tl_ctx *c = test->priv;
	struct noise_index *e = kunit_kcalloc(test, 1000, sizeof(*e), GFP_KERNEL);
	struct noise_index repl = { .type = NOISE_INDEX_KEYPAIR };
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < 1000; i++) {
		e[i].type = i & 1 ? NOISE_INDEX_KEYPAIR : NOISE_INDEX_HANDSHAKE;
		e[i].peer = c->peer[i % TL_PEERS];
		noise_index_insert(&c->nd->index, &e[i]);
		KUNIT_EXPECT_NE(test, (__force u32)e[i].index, 0U);
	}
	rcu_read_lock_bh();
	for (i = 0; i < 1000; i++) {
		KUNIT_EXPECT_PTR_EQ(test, noise_index_lookup(&c->nd->index, e[i].index,
							     e[i].type), &e[i]);
		/* the type is part of the key */
		KUNIT_EXPECT_NULL(test, noise_index_lookup(&c->nd->index, e[i].index,
							   !e[i].type));
	}
	rcu_read_unlock_bh();
	/* a handshake's index passes to its keypair */
	noise_index_replace(&c->nd->index, &e[0], &repl);
	KUNIT_EXPECT_EQ(test, (__force u32)repl.index, (__force u32)e[0].index);
	rcu_read_lock_bh();
	KUNIT_EXPECT_NULL(test, noise_index_lookup(&c->nd->index, repl.index,
						   NOISE_INDEX_HANDSHAKE));
	KUNIT_EXPECT_PTR_EQ(test, noise_index_lookup(&c->nd->index, repl.index,
						     NOISE_INDEX_KEYPAIR), &repl);
	rcu_read_unlock_bh();
	noise_index_remove(&c->nd->index, &repl);
	noise_index_remove(&c->nd->index, &e[0]);	/* already out: harmless */
	for (i = 1; i < 1000; i++)
		noise_index_remove(&c->nd->index, &e[i]);
	rcu_read_lock_bh();
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_NULL(test, noise_index_lookup(&c->nd->index, e[i].index,
							   e[i].type));
	rcu_read_unlock_bh();
	synchronize_rcu();
}

static struct kunit_case tl_cases[] = {
	KUNIT_CASE(tl_by_key),
	KUNIT_CASE(tl_by_hint),
	KUNIT_CASE(tl_hint_rekey),
	KUNIT_CASE_SLOW(tl_hint_o1),
	KUNIT_CASE(tl_tables_fit_after_key),
	KUNIT_CASE(tl_ss_later),
	KUNIT_CASE(tl_index),
	{}
};

struct kunit_suite tt_lookup_suite = {
	.name = "noise_tunnel_lookup",
	.init = tl_init,
	.exit = tl_exit,
	.test_cases = tl_cases,
};
