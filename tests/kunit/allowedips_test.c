// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the tunnel's allowed-IPs trie (kmod/noise/tunnel/
 * allowedips.c): edge cases, and a randomized comparison with a linear
 * scan over thousands of prefixes in both families, through inserts,
 * moves, removals and per-peer removals. The seed is printed; load the
 * module with seed=N to replay a run.
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "tunnel/allowedips.h"

MODULE_IMPORT_NS(NOISE_INTERNAL);

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "random seed of the randomized cases (0: a fresh one)");

struct fake_peer {
	struct list_head entries;
	int id;
};

#define P(fp) ((struct noise_peer *)(fp))

struct aip_env {
	struct mutex lock;	/* the table's update mutex */
	struct noise_allowedips t;
	struct fake_peer peers[64];
};

static struct aip_env *env_new(struct kunit *test)
{
	struct aip_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mutex_init(&e->lock);
	noise_allowedips_init(&e->t, &e->lock);
	for (i = 0; i < ARRAY_SIZE(e->peers); i++) {
		INIT_LIST_HEAD(&e->peers[i].entries);
		e->peers[i].id = i;
	}
	return e;
}

static void env_free(struct aip_env *e)
{
	mutex_lock(&e->lock);
	noise_allowedips_free(&e->t);
	mutex_unlock(&e->lock);
	mutex_destroy(&e->lock);
}

static int ins(struct aip_env *e, int family, const char *addr, u8 cidr, int peer)
{
	u8 a[16];
	int err;

	if (family == AF_INET)
		WARN_ON(!in4_pton(addr, -1, a, -1, NULL));
	else
		WARN_ON(!in6_pton(addr, -1, a, -1, NULL));
	mutex_lock(&e->lock);
	err = noise_allowedips_insert(&e->t, family, a, cidr, P(&e->peers[peer]),
				      &e->peers[peer].entries, NULL);
	mutex_unlock(&e->lock);
	return err;
}

static int rem(struct aip_env *e, int family, const char *addr, u8 cidr)
{
	struct noise_peer *p;
	u8 a[16];

	if (family == AF_INET)
		WARN_ON(!in4_pton(addr, -1, a, -1, NULL));
	else
		WARN_ON(!in6_pton(addr, -1, a, -1, NULL));
	mutex_lock(&e->lock);
	p = noise_allowedips_remove(&e->t, family, a, cidr);
	mutex_unlock(&e->lock);
	return p ? ((struct fake_peer *)p)->id : -1;
}

/* The peer id for @addr, -1 for none. */
static int look(struct aip_env *e, int family, const char *addr)
{
	struct noise_peer *p;
	u8 a[16];

	if (family == AF_INET)
		WARN_ON(!in4_pton(addr, -1, a, -1, NULL));
	else
		WARN_ON(!in6_pton(addr, -1, a, -1, NULL));
	rcu_read_lock_bh();
	p = noise_allowedips_lookup(&e->t, family, a);
	rcu_read_unlock_bh();
	return p ? ((struct fake_peer *)p)->id : -1;
}

static unsigned long peer_count(struct aip_env *e, int peer)
{
	unsigned long n;

	mutex_lock(&e->lock);
	n = noise_allowedips_peer_count(&e->t, &e->peers[peer].entries);
	mutex_unlock(&e->lock);
	return n;
}

static void aip_test_v4_basic(struct kunit *test)
{
	struct aip_env *e = env_new(test);

	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.0.1"), -1);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.0.0", 8, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.1.0.0", 16, 2), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.1.2.3", 32, 3), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.1.128.0", 17, 4), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "192.168.0.0", 24, 5), 0);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.200.0.1"), 1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.1.0.1"), 2);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.1.2.3"), 3);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.1.2.4"), 2);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.1.200.4"), 4);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "192.168.0.255"), 5);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "192.168.1.0"), -1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "11.0.0.0"), -1);
	/* The other family is a separate table. */
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "::a00:1"), -1);
	KUNIT_EXPECT_EQ(test, e->t.count, 5U);
	env_free(e);
	KUNIT_EXPECT_EQ(test, e->t.count, 0U);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[1].entries));
}

static void aip_test_edges(struct kunit *test)
{
	struct aip_env *e = env_new(test);

	/* /0 holds everything; host routes are the longest. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "1.2.3.4", 0, 1), 0);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "255.255.255.255"), 1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "0.0.0.0"), 1);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "255.255.255.255", 32, 2), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "0.0.0.0", 32, 3), 0);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "255.255.255.255"), 2);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "255.255.255.254"), 1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "0.0.0.0"), 3);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "0.0.0.1"), 1);

	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "::", 0, 4), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 128, 5),
			0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "2001:db8::1", 128, 6), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "2001:db8::", 64, 7), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "2001:db8::8000:0:0:0", 65, 8), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "2001:db8:0:0:ffff::", 80, 9), 0);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), 5);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"), 4);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "2001:db8::1"), 6);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "2001:db8::2"), 7);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "2001:db8::8000:0:0:1"), 8);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "2001:db8::ffff:0:0:1"), 9);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "2001:db8::7fff:0:0:1"), 7);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "2001:db9::"), 4);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.0.1"), 1);

	/* Bits past the prefix length are ignored. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "172.16.99.99", 12, 10), 0);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "172.31.0.1"), 10);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "172.32.0.1"), 1);
	KUNIT_EXPECT_EQ(test, rem(e, AF_INET, "172.16.0.0", 12), 10);

	/* Refused: prefix too long, unknown family; nothing changes. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "1.2.3.4", 33, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "::1", 129, 1), -EINVAL);
	mutex_lock(&e->lock);
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_UNIX, "x", 0, P(&e->peers[1]),
						      &e->peers[1].entries, NULL),
			-EAFNOSUPPORT);
	mutex_unlock(&e->lock);
	KUNIT_EXPECT_EQ(test, e->t.count, 9U);
	env_free(e);
}

/*
 * The deepest trie there is: every prefix length of one IPv6 address, a
 * chain of 129 entries, freed whole (the walk keeps the path from the root:
 * a path too short for it would warn, and the test kernel panics on that).
 */
static void aip_test_free_deep(struct kunit *test)
{
	struct aip_env *e = env_new(test);
	const char *addr = "2001:db8:aaaa:5555:ffff:0:8000:1";
	int cidr, i;

	for (cidr = 0; cidr <= 128; cidr++)
		KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, addr, cidr, cidr % 64), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.0.1", 32, 0), 0);
	KUNIT_EXPECT_EQ(test, e->t.count, 130U);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, addr), 0);	/* the /128 */
	env_free(e);
	KUNIT_EXPECT_EQ(test, e->t.count, 0U);
	for (i = 0; i < ARRAY_SIZE(e->peers); i++)
		KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[i].entries));
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, addr), -1);
}

/*
 * A teardown's two steps: after the detach no lookup finds anything while
 * the entries stay on their peers' lists; after the free (once a grace
 * period has passed) the lists are empty and the table takes new entries.
 */
static void aip_test_detach(struct kunit *test)
{
	struct aip_env *e = env_new(test);
	struct noise_allowedips_roots old;
	int i;

	for (i = 0; i < 40; i++) {
		char a[24];

		snprintf(a, sizeof(a), "10.%d.0.0", i);
		KUNIT_EXPECT_EQ(test, ins(e, AF_INET, a, 16 + i % 17, i % 8), 0);
		snprintf(a, sizeof(a), "fd00:%x::", i);
		KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, a, 32 + i, i % 8), 0);
	}
	KUNIT_EXPECT_EQ(test, e->t.count, 80U);
	mutex_lock(&e->lock);
	noise_allowedips_detach(&e->t, &old);
	mutex_unlock(&e->lock);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.3.0.1"), -1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "fd00:3::1"), -1);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, peer_count(e, i), 10UL);
	synchronize_rcu();
	mutex_lock(&e->lock);
	noise_allowedips_free_detached(&e->t, &old);
	mutex_unlock(&e->lock);
	KUNIT_EXPECT_EQ(test, e->t.count, 0U);
	for (i = 0; i < ARRAY_SIZE(e->peers); i++)
		KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[i].entries));
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(old.root4));
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(old.root6));
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.3.0.0", 16, 5), 0);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.3.0.1"), 5);
	env_free(e);
}

static void aip_test_move_remove(struct kunit *test)
{
	struct aip_env *e = env_new(test);

	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.0.0", 8, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.0.0", 24, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.1.0", 24, 1), 0);
	KUNIT_EXPECT_EQ(test, peer_count(e, 1), 3UL);
	/* Re-inserting the same prefix for the same peer changes nothing. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.0.0", 24, 1), 0);
	KUNIT_EXPECT_EQ(test, peer_count(e, 1), 3UL);
	/* For another peer, it moves there. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.0.0", 24, 2), 0);
	KUNIT_EXPECT_EQ(test, peer_count(e, 1), 2UL);
	KUNIT_EXPECT_EQ(test, peer_count(e, 2), 1UL);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.0.7"), 2);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.1.7"), 1);
	KUNIT_EXPECT_EQ(test, e->t.count, 3U);

	/* Removing a prefix falls back to the next shorter one. */
	KUNIT_EXPECT_EQ(test, rem(e, AF_INET, "10.0.0.0", 24), 2);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.0.7"), 1);
	KUNIT_EXPECT_EQ(test, peer_count(e, 2), 0UL);
	KUNIT_EXPECT_EQ(test, rem(e, AF_INET, "10.0.0.0", 24), -1);
	KUNIT_EXPECT_EQ(test, rem(e, AF_INET, "10.0.0.0", 9), -1);
	/* A branch point is not an entry. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.0.2.0", 24, 3), 0);
	KUNIT_EXPECT_EQ(test, rem(e, AF_INET, "10.0.0.0", 22), -1);
	KUNIT_EXPECT_EQ(test, rem(e, AF_INET, "10.0.0.0", 8), 1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.1.1"), 1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.2.1"), 3);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.3.1"), -1);

	/* Removing all of a peer's entries leaves the others. */
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "fd00::", 8, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "fd00::1", 128, 3), 0);
	mutex_lock(&e->lock);
	noise_allowedips_remove_peer(&e->t, &e->peers[1].entries);
	mutex_unlock(&e->lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[1].entries));
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.1.1"), -1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "fd00::2"), -1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET6, "fd00::1"), 3);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.2.1"), 3);
	KUNIT_EXPECT_EQ(test, e->t.count, 2U);
	env_free(e);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[3].entries));
}

static void aip_test_pool(struct kunit *test)
{
	struct aip_env *e = env_new(test);
	struct noise_allowedips_pool pool = {};
	u8 a[4] = { 10, 0, 0, 0 };
	u32 seq;
	int i;

	mutex_lock(&e->lock);
	KUNIT_EXPECT_EQ(test, noise_allowedips_pool_fill(&pool, 3, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, pool.count, 3U);
	/* The first takes one node, the second a node and a branch point. */
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_INET, a, 24, P(&e->peers[1]),
						      &e->peers[1].entries, &pool), 0);
	a[2] = 1;
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_INET, a, 24, P(&e->peers[1]),
						      &e->peers[1].entries, &pool), 0);
	KUNIT_EXPECT_EQ(test, pool.count, 0U);
	/* Empty pool: refused, and nothing changed. */
	seq = e->t.seq;
	a[2] = 2;
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_INET, a, 24, P(&e->peers[1]),
						      &e->peers[1].entries, &pool), -ENOMEM);
	KUNIT_EXPECT_EQ(test, e->t.seq, seq);
	KUNIT_EXPECT_EQ(test, e->t.count, 2U);
	/* A prefix that exists needs no node. */
	a[2] = 1;
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_INET, a, 24, P(&e->peers[2]),
						      &e->peers[2].entries, &pool), 0);
	/* One node: enough for a new leaf, not for a leaf and a branch. */
	KUNIT_EXPECT_EQ(test, noise_allowedips_pool_fill(&pool, 1, GFP_KERNEL), 0);
	a[2] = 2;
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_INET, a, 24, P(&e->peers[1]),
						      &e->peers[1].entries, &pool), -ENOMEM);
	KUNIT_EXPECT_EQ(test, pool.count, 1U);
	KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, AF_INET, a, 16, P(&e->peers[1]),
						      &e->peers[1].entries, &pool), 0);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, noise_allowedips_pool_fill(&pool, 4, GFP_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, pool.count, 4U);
	noise_allowedips_pool_drain(&pool);
	KUNIT_EXPECT_EQ(test, pool.count, 0U);
	mutex_unlock(&e->lock);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.1.1"), 2);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.0.1"), 1);
	KUNIT_EXPECT_EQ(test, look(e, AF_INET, "10.0.2.1"), 1);
	KUNIT_EXPECT_EQ(test, noise_allowedips_node_size(), 64UL);
	env_free(e);
}

struct walk_ctx {
	int calls, stop_at;
	u8 last[16];
	u8 last_cidr;
	int family;
};

static int walk_fn(void *data, int family, const u8 *addr, u8 cidr)
{
	struct walk_ctx *w = data;

	if (w->calls == w->stop_at)
		return -EMSGSIZE;
	w->calls++;
	w->family = family;
	memcpy(w->last, addr, family == AF_INET ? 4 : 16);
	w->last_cidr = cidr;
	return 0;
}

static void aip_test_walk(struct kunit *test)
{
	struct aip_env *e = env_new(test);
	struct walk_ctx w = { .stop_at = 2 };
	unsigned long pos = 0;
	static const u8 v6[16] = { 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "10.9.9.9", 8, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "192.168.1.0", 24, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET6, "fd00::77", 16, 1), 0);
	KUNIT_EXPECT_EQ(test, ins(e, AF_INET, "1.1.1.1", 32, 2), 0);
	mutex_lock(&e->lock);
	/* Stops when the callback says so, and resumes there. */
	KUNIT_EXPECT_EQ(test, noise_allowedips_walk_peer(&e->t, &e->peers[1].entries, &pos,
							 walk_fn, &w), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, pos, 2UL);
	KUNIT_EXPECT_EQ(test, w.last_cidr, 24);
	KUNIT_EXPECT_EQ(test, w.family, AF_INET);
	w.stop_at = 100;
	KUNIT_EXPECT_EQ(test, noise_allowedips_walk_peer(&e->t, &e->peers[1].entries, &pos,
							 walk_fn, &w), 0);
	KUNIT_EXPECT_EQ(test, pos, 3UL);
	KUNIT_EXPECT_EQ(test, w.calls, 3);
	KUNIT_EXPECT_EQ(test, w.family, AF_INET6);
	KUNIT_EXPECT_EQ(test, w.last_cidr, 16);
	/* The address comes back masked to its prefix. */
	KUNIT_EXPECT_MEMEQ(test, w.last, v6, 16);
	mutex_unlock(&e->lock);
	env_free(e);
}

/* Randomized comparison with a linear scan. */

struct ref_entry {
	u8 addr[16];
	u8 cidr;
	int peer;	/* -1: removed */
};

struct ref {
	struct ref_entry *e;
	unsigned int n;
	int family;
	unsigned int len;	/* address bytes */
};

static bool ref_prefix_match(const u8 *a, const u8 *b, unsigned int cidr)
{
	unsigned int whole = cidr / 8, rest = cidr % 8;

	if (memcmp(a, b, whole))
		return false;
	return !rest || !((a[whole] ^ b[whole]) & (0xff00 >> rest));
}

static void ref_mask(u8 *a, unsigned int len, unsigned int cidr)
{
	unsigned int i;

	for (i = 0; i < len; i++) {
		if (cidr >= 8 * (i + 1))
			continue;
		a[i] &= cidr > 8 * i ? (u8)(0xff00 >> (cidr - 8 * i)) : 0;
	}
}

static int ref_lookup(const struct ref *r, const u8 *addr)
{
	int best = -1, best_cidr = -1;
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		const struct ref_entry *x = &r->e[i];

		if (x->peer < 0 || x->cidr <= best_cidr)
			continue;
		if (ref_prefix_match(addr, x->addr, x->cidr)) {
			best = x->peer;
			best_cidr = x->cidr;
		}
	}
	return best;
}

static struct ref_entry *ref_find(const struct ref *r, const u8 *addr, u8 cidr)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->e[i].peer >= 0 && r->e[i].cidr == cidr &&
		    !memcmp(r->e[i].addr, addr, r->len))
			return &r->e[i];
	return NULL;
}

/*
 * Prefixes that overlap a lot: addresses drawn from a few random bases
 * with a random number of their bits kept, and every prefix length.
 */
static void rnd_prefix(struct rnd_state *rs, const u8 bases[8][16],
		       unsigned int len, u8 *addr, u8 *cidr)
{
	unsigned int keep = prandom_u32_state(rs) % (8 * len + 1), i;
	const u8 *base = bases[prandom_u32_state(rs) % 8];

	prandom_bytes_state(rs, addr, len);
	for (i = 0; i < len; i++) {
		u8 m = keep >= 8 * (i + 1) ? 0xff :
		       keep > 8 * i ? (u8)(0xff00 >> (keep - 8 * i)) : 0;

		addr[i] = (base[i] & m) | (addr[i] & ~m);
	}
	*cidr = prandom_u32_state(rs) % (8 * len + 1);
	if (prandom_u32_state(rs) % 4 == 0)
		*cidr = 8 * len - prandom_u32_state(rs) % 3;
	ref_mask(addr, len, *cidr);
}

static unsigned int compare_lookups(struct kunit *test, struct aip_env *e,
				    const struct ref *r, struct rnd_state *rs,
				    unsigned int rounds)
{
	unsigned int i, bad = 0, k;
	struct noise_peer *p;
	u8 addr[16];
	int want, got;

	for (i = 0; i < rounds; i++) {
		/* Near an entry (random host bits), or anywhere. */
		prandom_bytes_state(rs, addr, r->len);
		if (r->n && (i & 3)) {
			const struct ref_entry *x = &r->e[prandom_u32_state(rs) % r->n];
			u8 host[16];

			memcpy(host, addr, r->len);
			memcpy(addr, x->addr, r->len);
			for (k = x->cidr; k < 8 * r->len; k++)
				if (host[k / 8] & (0x80 >> (k % 8)))
					addr[k / 8] ^= 0x80 >> (k % 8);
		}
		want = ref_lookup(r, addr);
		rcu_read_lock_bh();
		p = noise_allowedips_lookup(&e->t, r->family, addr);
		got = p ? ((struct fake_peer *)p)->id : -1;
		rcu_read_unlock_bh();
		if (want != got && bad++ < 5)
			KUNIT_FAIL(test, "family %d %*phN: trie %d, reference %d",
				   r->family, r->len, addr, got, want);
	}
	return bad;
}

static int count_fn(void *data, int family, const u8 *addr, u8 cidr)
{
	unsigned long *n = data;

	(*n)++;
	return 0;
}

static void check_counts(struct kunit *test, struct aip_env *e,
			 const struct ref *r4, const struct ref *r6)
{
	unsigned long want[ARRAY_SIZE(e->peers)] = {}, got, pos;
	unsigned int i, total = 0;

	for (i = 0; i < r4->n; i++)
		if (r4->e[i].peer >= 0) {
			want[r4->e[i].peer]++;
			total++;
		}
	for (i = 0; i < r6->n; i++)
		if (r6->e[i].peer >= 0) {
			want[r6->e[i].peer]++;
			total++;
		}
	KUNIT_EXPECT_EQ(test, e->t.count, total);
	mutex_lock(&e->lock);
	for (i = 0; i < ARRAY_SIZE(e->peers); i++) {
		got = 0;
		pos = 0;
		noise_allowedips_walk_peer(&e->t, &e->peers[i].entries, &pos, count_fn, &got);
		KUNIT_EXPECT_EQ(test, got, want[i]);
		KUNIT_EXPECT_EQ(test, pos, want[i]);
	}
	mutex_unlock(&e->lock);
}

#define RAND_PREFIXES	4096
#define RAND_LOOKUPS	4096

static void aip_test_random(struct kunit *test)
{
	struct aip_env *e = env_new(test);
	struct ref refs[2] = { { .family = AF_INET, .len = 4 },
			       { .family = AF_INET6, .len = 16 } };
	u8 bases[8][16], addr[16], cidr;
	struct rnd_state rs;
	unsigned int f, i, bad = 0;
	struct ref_entry *x;
	u64 s = seed ? seed : get_random_u64();
	int peer;

	kunit_info(test, "seed=%llu (replay: insmod ... seed=%llu)\n", s, s);
	prandom_seed_state(&rs, s);
	prandom_bytes_state(&rs, bases, sizeof(bases));
	for (f = 0; f < 2; f++) {
		refs[f].e = kvcalloc(RAND_PREFIXES, sizeof(*refs[f].e), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, refs[f].e);
	}

	/* Inserts, with moves of existing prefixes to other peers. */
	for (f = 0; f < 2; f++) {
		struct ref *r = &refs[f];

		for (i = 0; i < RAND_PREFIXES; i++) {
			rnd_prefix(&rs, bases, r->len, addr, &cidr);
			peer = prandom_u32_state(&rs) % ARRAY_SIZE(e->peers);
			x = ref_find(r, addr, cidr);
			if (!x) {
				x = &r->e[r->n++];
				memcpy(x->addr, addr, r->len);
				x->cidr = cidr;
			}
			x->peer = peer;
			mutex_lock(&e->lock);
			KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, r->family, addr, cidr,
								      P(&e->peers[peer]),
								      &e->peers[peer].entries,
								      NULL), 0);
			mutex_unlock(&e->lock);
		}
	}
	for (f = 0; f < 2; f++)
		bad += compare_lookups(test, e, &refs[f], &rs, RAND_LOOKUPS);
	check_counts(test, e, &refs[0], &refs[1]);

	/* Remove a third of the prefixes, one by one. */
	for (f = 0; f < 2; f++) {
		struct ref *r = &refs[f];
		struct noise_peer *p;

		for (i = 0; i < r->n; i++) {
			x = &r->e[i];
			if (x->peer < 0 || prandom_u32_state(&rs) % 3)
				continue;
			mutex_lock(&e->lock);
			p = noise_allowedips_remove(&e->t, r->family, x->addr, x->cidr);
			mutex_unlock(&e->lock);
			KUNIT_EXPECT_PTR_EQ(test, p, P(&e->peers[x->peer]));
			x->peer = -1;
		}
	}
	for (f = 0; f < 2; f++)
		bad += compare_lookups(test, e, &refs[f], &rs, RAND_LOOKUPS);
	check_counts(test, e, &refs[0], &refs[1]);

	/* Remove every entry of a quarter of the peers. */
	for (peer = 0; peer < ARRAY_SIZE(e->peers); peer += 4) {
		mutex_lock(&e->lock);
		noise_allowedips_remove_peer(&e->t, &e->peers[peer].entries);
		mutex_unlock(&e->lock);
		KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[peer].entries));
		for (f = 0; f < 2; f++)
			for (i = 0; i < refs[f].n; i++)
				if (refs[f].e[i].peer == peer)
					refs[f].e[i].peer = -1;
	}
	for (f = 0; f < 2; f++)
		bad += compare_lookups(test, e, &refs[f], &rs, RAND_LOOKUPS);
	check_counts(test, e, &refs[0], &refs[1]);

	/* Insert again over what is left (branch points turn into entries). */
	for (f = 0; f < 2; f++) {
		struct ref *r = &refs[f];

		for (i = 0; i < r->n; i++) {
			x = &r->e[i];
			if (x->peer >= 0 || prandom_u32_state(&rs) % 2)
				continue;
			x->peer = prandom_u32_state(&rs) % ARRAY_SIZE(e->peers);
			mutex_lock(&e->lock);
			peer = x->peer;
			KUNIT_EXPECT_EQ(test, noise_allowedips_insert(&e->t, r->family, x->addr,
								      x->cidr, P(&e->peers[peer]),
								      &e->peers[peer].entries,
								      NULL), 0);
			mutex_unlock(&e->lock);
		}
	}
	for (f = 0; f < 2; f++)
		bad += compare_lookups(test, e, &refs[f], &rs, RAND_LOOKUPS);
	check_counts(test, e, &refs[0], &refs[1]);
	kunit_info(test, "%u+%u prefixes, %u lookups compared, %u mismatches\n",
		   refs[0].n, refs[1].n, 8 * RAND_LOOKUPS, bad);

	env_free(e);
	KUNIT_EXPECT_EQ(test, e->t.count, 0U);
	for (peer = 0; peer < ARRAY_SIZE(e->peers); peer++)
		KUNIT_EXPECT_TRUE(test, list_empty(&e->peers[peer].entries));
	rcu_read_lock_bh();
	KUNIT_EXPECT_NULL(test, noise_allowedips_lookup(&e->t, AF_INET6, addr));
	rcu_read_unlock_bh();
	for (f = 0; f < 2; f++)
		kvfree(refs[f].e);
}

/* Lock-free readers while the trie changes under them (KASAN, lockdep). */
struct reader_ctx {
	struct aip_env *e;
	atomic_t stop;
	unsigned long lookups, bad;
};

static int reader_fn(void *data)
{
	struct reader_ctx *rc = data;
	struct rnd_state rs;
	struct noise_peer *p;
	u8 addr[16];

	prandom_seed_state(&rs, 42);
	while (!atomic_read(&rc->stop)) {
		prandom_bytes_state(&rs, addr, sizeof(addr));
		addr[0] = 10;
		rcu_read_lock_bh();
		p = noise_allowedips_lookup(&rc->e->t, rc->lookups & 1 ? AF_INET6 : AF_INET, addr);
		if (p && (p < P(&rc->e->peers[0]) ||
			  p > P(&rc->e->peers[ARRAY_SIZE(rc->e->peers) - 1])))
			rc->bad++;
		rcu_read_unlock_bh();
		rc->lookups++;
		cond_resched();
	}
	return 0;
}

static void aip_test_concurrent(struct kunit *test)
{
	struct reader_ctx rc = { .e = env_new(test) };
	struct task_struct *t;
	struct rnd_state rs;
	u8 addr[16];
	int i, peer;

	prandom_seed_state(&rs, 7);
	t = kthread_run(reader_fn, &rc, "aip-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	for (i = 0; i < 3000; i++) {
		prandom_bytes_state(&rs, addr, sizeof(addr));
		addr[0] = 10;
		peer = prandom_u32_state(&rs) % ARRAY_SIZE(rc.e->peers);
		mutex_lock(&rc.e->lock);
		noise_allowedips_insert(&rc.e->t, i & 1 ? AF_INET6 : AF_INET, addr,
					prandom_u32_state(&rs) % 33, P(&rc.e->peers[peer]),
					&rc.e->peers[peer].entries, NULL);
		peer = prandom_u32_state(&rs) % ARRAY_SIZE(rc.e->peers);
		if (i % 7 == 0)
			noise_allowedips_remove_peer(&rc.e->t, &rc.e->peers[peer].entries);
		mutex_unlock(&rc.e->lock);
		if (i % 64 == 0)
			cond_resched();
	}
	env_free(rc.e);
	atomic_set(&rc.stop, 1);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_EXPECT_EQ(test, rc.bad, 0UL);
	kunit_info(test, "%lu lookups during 3000 changes\n", rc.lookups);
}

static struct kunit_case aip_cases[] = {
	KUNIT_CASE(aip_test_v4_basic),
	KUNIT_CASE(aip_test_edges),
	KUNIT_CASE(aip_test_free_deep),
	KUNIT_CASE(aip_test_detach),
	KUNIT_CASE(aip_test_move_remove),
	KUNIT_CASE(aip_test_pool),
	KUNIT_CASE(aip_test_walk),
	KUNIT_CASE(aip_test_random),
	KUNIT_CASE(aip_test_concurrent),
	{}
};

static struct kunit_suite aip_suite = {
	.name = "noise_allowedips",
	.test_cases = aip_cases,
};

kunit_test_suites(&aip_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the noise tunnel's allowed-IPs trie");
