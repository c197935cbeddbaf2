// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the state floor's peer tables. A device finds a peer by
 * its static public key (netlink, the handshake that learns a key) and
 * by the id a hinted message 1 names (peer.c). Both are hash tables of
 * RCU hlists whose buckets double once the peers filed outnumber them:
 * at 100,000 peers a lookup still examines about one entry, where a
 * fixed 2,048 buckets would walk some 49.
 */

#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include "device.h"
#include "peer_table.h"

/* Context: the device's setup, before any peer. */
void noise_peer_table_init(struct noise_peer_table *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->first); i++)
		INIT_HLIST_HEAD(&t->first[i]);
	t->buckets = t->first;
	t->bits = NOISE_TABLE_MIN_BITS;
	t->count = 0;
}

/* Context: the device's teardown, every peer gone. */
void noise_peer_table_free(struct noise_peer_table *t)
{
	WARN_ON(t->count);
	if (t->buckets != t->first)
		kvfree(t->buckets);
	noise_peer_table_init(t);
}

/* File @node under @hash. Context: conf_lock held. */
void noise_peer_table_add(struct noise_peer_table *t, struct hlist_node *node,
			  u32 hash)
{
	hlist_add_head_rcu(node, noise_peer_table_bucket(t, hash));
	t->count++;
}

/* Take @node out (filed). Context: conf_lock held. */
void noise_peer_table_del(struct noise_peer_table *t, struct hlist_node *node)
{
	hlist_del_init_rcu(node);
	t->count--;
}

/* Every entry of @t into @nb (1 << @bits buckets). */
static void noise_peer_table_move(struct noise_device *nd, struct noise_peer_table *t,
				  struct hlist_head *nb, unsigned int bits,
				  noise_node_hash_t hash)
{
	struct hlist_node *node, *tmp;
	unsigned int i;

	for (i = 0; i < (1U << t->bits); i++) {
		hlist_for_each_safe(node, tmp, &t->buckets[i]) {
			hlist_del(node);
			hlist_add_head(node, &nb[hash(nd, node) & ((1U << bits) - 1)]);
		}
	}
}

/**
 * noise_peer_table_grow() - at least a bucket per peer filed: the buckets
 *	double as many times as that takes, in one step.
 * @nd: the device.
 * @t: one of its tables.
 * @hash: the hash each entry was filed under.
 *
 * Every entry moves with hs_lock held, which keeps the readers out. A
 * failed allocation keeps the old buckets: longer chains, the same peers.
 * Context: process, conf_lock held, hs_lock not held.
 */
void noise_peer_table_grow(struct noise_device *nd, struct noise_peer_table *t,
			   noise_node_hash_t hash)
{
	struct hlist_head *old = t->buckets, *nb;
	unsigned int bits = t->bits, i;

	lockdep_assert_held(&nd->conf_lock);
	while (t->count > (1U << bits) && bits < NOISE_TABLE_MAX_BITS)
		bits++;
	if (bits == t->bits)
		return;
	nb = kvmalloc_array(1U << bits, sizeof(*nb), GFP_KERNEL | __GFP_NOWARN);
	if (!nb)
		return;
	for (i = 0; i < (1U << bits); i++)
		INIT_HLIST_HEAD(&nb[i]);
	mutex_lock(&nd->hs_lock);
	noise_peer_table_move(nd, t, nb, bits, hash);
	t->buckets = nb;
	t->bits = bits;
	mutex_unlock(&nd->hs_lock);
	if (old != t->first)
		kvfree(old);
}
