// SPDX-License-Identifier: GPL-2.0
/*
 * Allowed IPs: one path-compressed binary trie per family.
 *
 * A node holds a prefix (key, cidr) and, when it is an entry, the peer the
 * prefix routes to; a node without a peer is a branch point ("glue") and
 * always has two children. The children of a node extend its prefix, and
 * which one a key descends to is the key's bit at position cidr. Keys are
 * kept as two host-order u64 (the address's first and last 64 bits; IPv4
 * in the top 32 bits of the first), masked to their cidr, so matching a
 * node is a mask and a compare and the common prefix of two keys is one
 * fls64().
 *
 * A node is 64 bytes (one kmalloc-64 object, no parent pointer): the
 * entry's place on its peer's list shares its storage with the rcu_head,
 * since a node leaves the list (under the update mutex) before it is
 * queued for freeing, and readers never walk the lists. Removal finds the
 * node's parent again by a search from the root (at most 129 steps).
 *
 * A lookup walks from the root while the node's prefix matches the
 * address, remembering the last peer seen: the longest matching prefix.
 * Writers publish a node only once it is complete (rcu_assign_pointer()),
 * never change a published key, and free with kfree_rcu(), so a reader
 * sees either the old or the new trie at every step.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include "../compat.h"
#include "allowedips.h"

struct noise_aip_node {
	struct noise_aip_node __rcu *child[2];
	struct noise_peer __rcu *peer;
	u64 key[2];
	union {
		struct list_head entry;	/* on the peer's list; update mutex */
		struct rcu_head rcu;	/* once off the list and the trie */
	};
	u8 cidr;
	u8 family;
};

#define aip_deref(t, p) rcu_dereference_protected(p, lockdep_is_held((t)->lock))
#define aip_deref_rcu(p) rcu_dereference_check(p, rcu_read_lock_bh_held())

static inline u64 aip_mask64(unsigned int bits)
{
	return bits ? ~0ULL << (64 - bits) : 0;
}

static inline void aip_key(u64 key[2], int family, const void *addr)
{
	if (family == AF_INET) {
		key[0] = (u64)get_unaligned_be32(addr) << 32;
		key[1] = 0;
	} else {
		key[0] = get_unaligned_be64(addr);
		key[1] = get_unaligned_be64((const u8 *)addr + 8);
	}
}

static inline void aip_mask_key(u64 key[2], unsigned int cidr)
{
	if (cidr <= 64) {
		key[0] &= aip_mask64(cidr);
		key[1] = 0;
	} else {
		key[1] &= aip_mask64(cidr - 64);
	}
}

/* Does @key lie in the prefix of @n? */
static inline bool aip_match(const u64 key[2], const struct noise_aip_node *n)
{
	unsigned int c = n->cidr;

	if (c <= 64)
		return !((key[0] ^ n->key[0]) & aip_mask64(c));
	return key[0] == n->key[0] && !((key[1] ^ n->key[1]) & aip_mask64(c - 64));
}

/* Bit @i (0: the most significant) of @key; @i < 128. */
static inline unsigned int aip_bit(const u64 key[2], unsigned int i)
{
	return (key[i >> 6] >> (63 - (i & 63))) & 1;
}

/* Length of the common prefix of @a and @b, at most @limit. */
static inline unsigned int aip_common(const u64 a[2], const u64 b[2],
				      unsigned int limit)
{
	u64 x = a[0] ^ b[0];
	unsigned int n;

	if (x) {
		n = 64 - fls64(x);
	} else {
		x = a[1] ^ b[1];
		n = x ? 128 - fls64(x) : 128;
	}
	return min(n, limit);
}

static struct noise_aip_node __rcu **aip_root(struct noise_allowedips *t,
					      int family, unsigned int *maxbits)
{
	if (family == AF_INET) {
		*maxbits = 32;
		return &t->root4;
	}
	if (family == AF_INET6) {
		*maxbits = 128;
		return &t->root6;
	}
	return NULL;
}

/**
 * noise_allowedips_init() - an empty table
 * @t: the table
 * @lock: the mutex every change and walk of @t holds (lockdep checks it)
 */
void noise_allowedips_init(struct noise_allowedips *t, struct mutex *lock)
{
	RCU_INIT_POINTER(t->root4, NULL);
	RCU_INIT_POINTER(t->root6, NULL);
	t->lock = lock;
	t->seq = 1;
	t->count = 0;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_init, NOISE_INTERNAL);

/**
 * noise_allowedips_lookup() - the peer whose longest prefix holds @addr
 * @t: the table
 * @family: AF_INET or AF_INET6
 * @addr: the address, network byte order (4 or 16 bytes; any alignment)
 *
 * Context: under rcu_read_lock() or rcu_read_lock_bh(); any context.
 * Return: the peer, valid until the read-side section ends (take a
 * reference to keep it), or NULL when no prefix holds @addr.
 */
struct noise_peer *noise_allowedips_lookup(const struct noise_allowedips *t,
					   int family, const void *addr)
{
	const struct noise_aip_node *n;
	struct noise_peer *best = NULL, *p;
	unsigned int maxbits;
	u64 key[2];

	if (family == AF_INET) {
		n = aip_deref_rcu(t->root4);
		maxbits = 32;
	} else if (family == AF_INET6) {
		n = aip_deref_rcu(t->root6);
		maxbits = 128;
	} else {
		return NULL;
	}
	aip_key(key, family, addr);
	while (n && aip_match(key, n)) {
		p = aip_deref_rcu(n->peer);
		if (p)
			best = p;
		if (n->cidr >= maxbits)
			break;
		n = aip_deref_rcu(n->child[aip_bit(key, n->cidr)]);
	}
	return best;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_lookup, NOISE_INTERNAL);

static struct noise_aip_node *aip_take(struct noise_allowedips_pool *pool)
{
	struct noise_aip_node *n;

	if (!pool)
		return kzalloc(sizeof(*n), GFP_KERNEL);
	n = pool->free;
	if (!n)
		return NULL;
	pool->free = rcu_dereference_raw(n->child[0]);
	pool->count--;
	memset(n, 0, sizeof(*n));
	return n;
}

static void aip_give_back(struct noise_allowedips_pool *pool,
			  struct noise_aip_node *n)
{
	if (!pool) {
		kfree(n);
		return;
	}
	RCU_INIT_POINTER(n->child[0], pool->free);
	pool->free = n;
	pool->count++;
}

/**
 * noise_allowedips_pool_fill() - set nodes aside for changes that cannot fail
 * @pool: the pool (zero-initialised before its first use)
 * @count: nodes it must hold
 * @gfp: allocation flags
 *
 * Return: 0, or -ENOMEM (the pool keeps what it got; drain it).
 */
int noise_allowedips_pool_fill(struct noise_allowedips_pool *pool,
			       unsigned int count, gfp_t gfp)
{
	struct noise_aip_node *n;

	while (pool->count < count) {
		n = kmalloc(sizeof(*n), gfp);
		if (!n)
			return -ENOMEM;
		aip_give_back(pool, n);
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_pool_fill, NOISE_INTERNAL);

/** noise_allowedips_pool_drain() - free the nodes a pool still holds */
void noise_allowedips_pool_drain(struct noise_allowedips_pool *pool)
{
	struct noise_aip_node *n;

	while ((n = pool->free)) {
		pool->free = rcu_dereference_raw(n->child[0]);
		kfree(n);
	}
	pool->count = 0;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_pool_drain, NOISE_INTERNAL);

static void aip_set_peer(struct noise_allowedips *t, struct noise_aip_node *n,
			 struct noise_peer *peer, struct list_head *entries)
{
	struct noise_peer *old = aip_deref(t, n->peer);

	if (old == peer)
		return;
	if (old) {
		list_move_tail(&n->entry, entries);
	} else {
		list_add_tail(&n->entry, entries);
		t->count++;
	}
	rcu_assign_pointer(n->peer, peer);
}

/**
 * noise_allowedips_insert() - route a prefix to a peer
 * @t: the table
 * @family: AF_INET or AF_INET6
 * @addr: the prefix's address, network byte order; bits past @cidr are
 *	ignored
 * @cidr: the prefix length, at most 32 or 128
 * @peer: the peer it routes to (a prefix routed elsewhere moves to it)
 * @peer_entries: @peer's list of entries
 * @pool: nodes to take (then the call cannot fail for want of memory),
 *	or NULL to allocate with GFP_KERNEL
 *
 * Context: holds @t's mutex; sleeps only when @pool is NULL.
 * Return: 0, -EAFNOSUPPORT, -EINVAL (@cidr too long) or -ENOMEM (nothing
 * changed).
 */
int noise_allowedips_insert(struct noise_allowedips *t, int family,
			    const void *addr, u8 cidr, struct noise_peer *peer,
			    struct list_head *peer_entries,
			    struct noise_allowedips_pool *pool)
{
	struct noise_aip_node __rcu **slot;
	struct noise_aip_node *n, *new, *glue = NULL;
	unsigned int maxbits, common = 0;
	u64 key[2];

	slot = aip_root(t, family, &maxbits);
	if (!slot)
		return -EAFNOSUPPORT;
	if (cidr > maxbits)
		return -EINVAL;
	aip_key(key, family, addr);
	aip_mask_key(key, cidr);

	while ((n = aip_deref(t, *slot))) {
		common = aip_common(key, n->key, min_t(unsigned int, cidr, n->cidr));
		if (common < n->cidr)
			break;
		if (n->cidr == cidr) {
			aip_set_peer(t, n, peer, peer_entries);
			t->seq++;
			return 0;
		}
		slot = &n->child[aip_bit(key, n->cidr)];
	}

	new = aip_take(pool);
	if (!new)
		return -ENOMEM;
	if (n && common < cidr) {
		glue = aip_take(pool);
		if (!glue) {
			aip_give_back(pool, new);
			return -ENOMEM;
		}
	}
	memcpy(new->key, key, sizeof(key));
	new->cidr = cidr;
	new->family = family;
	RCU_INIT_POINTER(new->peer, peer);
	list_add_tail(&new->entry, peer_entries);
	t->count++;
	t->seq++;

	if (!n) {
		rcu_assign_pointer(*slot, new);
	} else if (!glue) {
		/* The new prefix contains n's: it goes in above n. */
		RCU_INIT_POINTER(new->child[aip_bit(n->key, cidr)], n);
		rcu_assign_pointer(*slot, new);
	} else {
		/* They part at bit common: a branch point above both. */
		memcpy(glue->key, key, sizeof(key));
		aip_mask_key(glue->key, common);
		glue->cidr = common;
		glue->family = family;
		RCU_INIT_POINTER(glue->child[aip_bit(key, common)], new);
		RCU_INIT_POINTER(glue->child[aip_bit(n->key, common)], n);
		rcu_assign_pointer(*slot, glue);
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_insert, NOISE_INTERNAL);

/*
 * The node of exactly (@key, @cidr), with the slot that points to it and
 * the slot that points to its parent (NULL at the root).
 */
static struct noise_aip_node *
aip_find(struct noise_allowedips *t, struct noise_aip_node __rcu **slot,
	 const u64 key[2], unsigned int cidr,
	 struct noise_aip_node __rcu ***slotp,
	 struct noise_aip_node __rcu ***pslotp)
{
	struct noise_aip_node __rcu **pslot = NULL;
	struct noise_aip_node *n;

	while ((n = aip_deref(t, *slot))) {
		if (n->cidr > cidr || !aip_match(key, n))
			return NULL;
		if (n->cidr == cidr) {
			*slotp = slot;
			*pslotp = pslot;
			return n;
		}
		pslot = slot;
		slot = &n->child[aip_bit(key, n->cidr)];
	}
	return NULL;
}

/* Take entry @n (at *@slot, its parent at *@pslot) out of the trie. */
static void aip_unlink(struct noise_allowedips *t, struct noise_aip_node *n,
		       struct noise_aip_node __rcu **slot,
		       struct noise_aip_node __rcu **pslot)
{
	struct noise_aip_node *c0, *c1, *child, *parent;

	list_del(&n->entry);
	RCU_INIT_POINTER(n->peer, NULL);
	t->count--;
	t->seq++;

	c0 = aip_deref(t, n->child[0]);
	c1 = aip_deref(t, n->child[1]);
	if (c0 && c1)
		return;	/* stays, as a branch point */
	child = c0 ? c0 : c1;
	rcu_assign_pointer(*slot, child);
	kfree_rcu(n, rcu);
	if (child || !pslot)
		return;

	/* n was a leaf: a branch point above it has one child left. */
	parent = aip_deref(t, *pslot);
	if (aip_deref(t, parent->peer))
		return;
	child = aip_deref(t, parent->child[0]);
	if (!child)
		child = aip_deref(t, parent->child[1]);
	rcu_assign_pointer(*pslot, child);
	kfree_rcu(parent, rcu);
}

/**
 * noise_allowedips_remove() - remove one prefix
 * @t: the table
 * @family: AF_INET or AF_INET6
 * @addr: the prefix's address (bits past @cidr ignored)
 * @cidr: the prefix length
 *
 * Context: holds @t's mutex; does not sleep.
 * Return: the peer it routed to, or NULL when @t did not hold it.
 */
struct noise_peer *noise_allowedips_remove(struct noise_allowedips *t,
					   int family, const void *addr,
					   u8 cidr)
{
	struct noise_aip_node __rcu **root, **slot, **pslot;
	struct noise_aip_node *n;
	struct noise_peer *peer;
	unsigned int maxbits;
	u64 key[2];

	root = aip_root(t, family, &maxbits);
	if (!root || cidr > maxbits)
		return NULL;
	aip_key(key, family, addr);
	aip_mask_key(key, cidr);
	n = aip_find(t, root, key, cidr, &slot, &pslot);
	if (!n)
		return NULL;
	peer = aip_deref(t, n->peer);
	if (peer)
		aip_unlink(t, n, slot, pslot);
	return peer;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_remove, NOISE_INTERNAL);

/**
 * noise_allowedips_remove_peer() - remove every entry of one peer
 * @t: the table
 * @peer_entries: the peer's list of entries (empty afterwards)
 *
 * Context: holds @t's mutex; does not sleep.
 */
void noise_allowedips_remove_peer(struct noise_allowedips *t,
				  struct list_head *peer_entries)
{
	struct noise_aip_node __rcu **root, **slot, **pslot;
	struct noise_aip_node *n, *tmp;
	unsigned int maxbits;

	list_for_each_entry_safe(n, tmp, peer_entries, entry) {
		root = aip_root(t, n->family, &maxbits);
		if (WARN_ON(aip_find(t, root, n->key, n->cidr, &slot, &pslot) != n)) {
			list_del_init(&n->entry);
			continue;
		}
		aip_unlink(t, n, slot, pslot);
	}
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_remove_peer, NOISE_INTERNAL);

/* A child of @n (the first one), or NULL for a leaf. */
static struct noise_aip_node __rcu **aip_any_child(struct noise_allowedips *t,
						   struct noise_aip_node *n)
{
	if (aip_deref(t, n->child[0]))
		return &n->child[0];
	if (aip_deref(t, n->child[1]))
		return &n->child[1];
	return NULL;
}

/*
 * Leaf by leaf, bottom up: every step leaves a trie readers can still
 * walk. A depth-first walk that keeps the slots from the root down in
 * @path (room for @room) visits each node a bounded number of times; with
 * no @path, each leaf is found from the root again (depth times as much).
 */
static void aip_free_family(struct noise_allowedips *t,
			    struct noise_aip_node __rcu **root,
			    struct noise_aip_node __rcu ***path, unsigned int room,
			    bool unseen)
{
	struct noise_aip_node __rcu **slot = root, **child;
	struct noise_aip_node *n;
	unsigned int depth = 0;

	for (;;) {
		n = aip_deref(t, *slot);
		if (!n) {
			if (slot == root)
				return;
			slot = path && depth ? path[--depth] : root;
			continue;
		}
		child = aip_any_child(t, n);
		if (child) {
			if (path && !WARN_ON_ONCE(depth >= room))
				path[depth++] = slot;
			else
				path = NULL;
			slot = child;
			continue;
		}
		if (aip_deref(t, n->peer)) {
			list_del(&n->entry);
			t->count--;
		}
		RCU_INIT_POINTER(*slot, NULL);
		if (unseen)
			kfree(n);
		else
			kfree_rcu(n, rcu);
	}
}

/*
 * Every node under @roots: off its peer's list, then freed after a grace
 * period, or at once when no reader can reach them any more (@unseen).
 */
static void aip_free_roots(struct noise_allowedips *t,
			   struct noise_allowedips_roots *roots, bool unseen)
{
	/*
	 * A node's prefix is longer than its parent's, so a path holds at
	 * most 129 nodes, and the slots above its leaf are 128.
	 */
	const unsigned int room = 128;
	struct noise_aip_node __rcu ***path;

	might_sleep();
	path = kmalloc_array(room, sizeof(*path), GFP_KERNEL | __GFP_NOWARN);
	aip_free_family(t, &roots->root4, path, room, unseen);
	aip_free_family(t, &roots->root6, path, room, unseen);
	kfree(path);
}

/**
 * noise_allowedips_free() - remove every entry of every peer
 * @t: the table (empty afterwards; every peer's list is empty too)
 *
 * Each node is freed after a grace period (kfree_rcu()).
 * Context: holds @t's mutex; may sleep.
 */
void noise_allowedips_free(struct noise_allowedips *t)
{
	struct noise_allowedips_roots live;

	noise_allowedips_detach(t, &live);
	aip_free_roots(t, &live, false);
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_free, NOISE_INTERNAL);

/**
 * noise_allowedips_detach() - empty the table for readers, keep its nodes
 * @t: the table (lookups find nothing from now on)
 * @old: out: the tries, until noise_allowedips_free_detached()
 *
 * The entries stay on their peers' lists. A caller that waits for a
 * grace period anyway (a device's teardown) then frees every node at
 * once, each while it is in the cache, rather than one RCU callback per
 * node run after the whole walk.
 * Context: holds @t's mutex.
 */
void noise_allowedips_detach(struct noise_allowedips *t,
			     struct noise_allowedips_roots *old)
{
	RCU_INIT_POINTER(old->root4, aip_deref(t, t->root4));
	RCU_INIT_POINTER(old->root6, aip_deref(t, t->root6));
	RCU_INIT_POINTER(t->root4, NULL);
	RCU_INIT_POINTER(t->root6, NULL);
	t->seq++;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_detach, NOISE_INTERNAL);

/**
 * noise_allowedips_free_detached() - free what noise_allowedips_detach()
 *	took out, after a grace period
 * @t: the table it came from (its count drops to 0 when nothing else was
 *	inserted since; every peer's list loses these entries)
 * @old: the tries; empty afterwards
 *
 * Context: holds @t's mutex; an RCU grace period has passed since the
 * detach; may sleep.
 */
void noise_allowedips_free_detached(struct noise_allowedips *t,
				    struct noise_allowedips_roots *old)
{
	aip_free_roots(t, old, true);
	t->seq++;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_free_detached, NOISE_INTERNAL);

/**
 * noise_allowedips_walk_peer_from() - call @fn for a peer's entries, resumably
 * @t: the table
 * @peer_entries: the peer's list of entries
 * @cursor: in: the entry to start at, or NULL: skip *@pos entries from the
 *	first; out: the entry @fn stopped at (NULL when all were done). Only
 *	valid while t->seq has not changed (an entry may be freed after).
 * @pos: in: the entries done before; out: the entries done
 * @fn: called with the family, the address (network byte order, 4 or 16
 *	bytes) and the prefix length; a non-zero return stops the walk at
 *	that entry, to be tried again in the next call
 * @ctx: passed to @fn
 *
 * The entries come in insertion order. Between two calls the mutex may be
 * dropped; t->seq tells whether anything changed meanwhile.
 *
 * Context: holds @t's mutex.
 * Return: 0 when every entry was done, else @fn's return value.
 */
int noise_allowedips_walk_peer_from(const struct noise_allowedips *t,
				    const struct list_head *peer_entries,
				    const void **cursor, unsigned long *pos,
				    noise_allowedips_walk_fn fn, void *ctx)
{
	const struct noise_aip_node *n = *cursor;
	unsigned long i;
	u8 addr[16];
	int err;

	lockdep_assert_held(t->lock);
	if (!n) {
		n = list_first_entry(peer_entries, struct noise_aip_node, entry);
		for (i = 0; i < *pos && !list_entry_is_head(n, peer_entries, entry); i++)
			n = list_next_entry(n, entry);
	}
	list_for_each_entry_from(n, peer_entries, entry) {
		if (n->family == AF_INET) {
			put_unaligned_be32(n->key[0] >> 32, addr);
		} else {
			put_unaligned_be64(n->key[0], addr);
			put_unaligned_be64(n->key[1], addr + 8);
		}
		err = fn(ctx, n->family, addr, n->cidr);
		if (err) {
			*cursor = n;
			return err;
		}
		(*pos)++;
	}
	*cursor = NULL;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_walk_peer_from, NOISE_INTERNAL);

/*
 * noise_allowedips_walk_peer() - noise_allowedips_walk_peer_from() without
 * a cursor: @pos (in: entries to skip; out: entries done) alone.
 */
int noise_allowedips_walk_peer(const struct noise_allowedips *t,
			       const struct list_head *peer_entries,
			       unsigned long *pos, noise_allowedips_walk_fn fn,
			       void *ctx)
{
	const void *cursor = NULL;

	return noise_allowedips_walk_peer_from(t, peer_entries, &cursor, pos, fn, ctx);
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_walk_peer, NOISE_INTERNAL);

/** noise_allowedips_peer_count() - how many entries a peer has */
unsigned long noise_allowedips_peer_count(const struct noise_allowedips *t,
					  const struct list_head *peer_entries)
{
	const struct noise_aip_node *n;
	unsigned long count = 0;

	lockdep_assert_held(t->lock);
	list_for_each_entry(n, peer_entries, entry)
		count++;
	return count;
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_peer_count, NOISE_INTERNAL);

size_t noise_allowedips_node_size(void)
{
	return sizeof(struct noise_aip_node);
}
EXPORT_SYMBOL_NS_GPL(noise_allowedips_node_size, NOISE_INTERNAL);
