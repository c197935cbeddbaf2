/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allowed IPs: cryptokey routing tables, one path-compressed binary trie per
 * address family, mapping IP prefixes to peers by longest-prefix match.
 *
 * Readers (noise_allowedips_lookup()) run under rcu_read_lock() or
 * rcu_read_lock_bh(), in any context, without a lock. Writers hold the
 * table's update mutex (given to noise_allowedips_init(), normally the
 * device's configuration mutex) and may sleep only in the calls that say
 * so. Each entry also sits on its peer's entry list (a struct list_head in
 * the peer, given at insertion), which the writers keep under the same
 * mutex: removing all of a peer's entries and walking them for a dump need
 * no search of the trie.
 */
#ifndef _NOISE_TUNNEL_ALLOWEDIPS_H
#define _NOISE_TUNNEL_ALLOWEDIPS_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct noise_peer;
struct noise_aip_node;

struct noise_allowedips {
	struct noise_aip_node __rcu *root4;
	struct noise_aip_node __rcu *root6;
	struct mutex *lock;	/* writers and walkers hold it */
	/* Bumped by every change; a dump compares it between messages. */
	u32 seq;
	/* Entries (prefixes with a peer) in both families. */
	unsigned int count;
};

/*
 * Nodes set aside before a change that must not fail: an insertion takes
 * at most two nodes (NOISE_ALLOWEDIPS_NODES_PER_INSERT), a removal none.
 */
struct noise_allowedips_pool {
	struct noise_aip_node *free;
	unsigned int count;
};

#define NOISE_ALLOWEDIPS_NODES_PER_INSERT 2

/* A table's tries taken out by noise_allowedips_detach(). */
struct noise_allowedips_roots {
	struct noise_aip_node __rcu *root4;
	struct noise_aip_node __rcu *root6;
};

void noise_allowedips_init(struct noise_allowedips *t, struct mutex *lock);
void noise_allowedips_free(struct noise_allowedips *t);
void noise_allowedips_detach(struct noise_allowedips *t,
			     struct noise_allowedips_roots *old);
void noise_allowedips_free_detached(struct noise_allowedips *t,
				    struct noise_allowedips_roots *old);

struct noise_peer *noise_allowedips_lookup(const struct noise_allowedips *t,
					   int family, const void *addr);

int noise_allowedips_insert(struct noise_allowedips *t, int family,
			    const void *addr, u8 cidr, struct noise_peer *peer,
			    struct list_head *peer_entries,
			    struct noise_allowedips_pool *pool);
struct noise_peer *noise_allowedips_remove(struct noise_allowedips *t,
					   int family, const void *addr,
					   u8 cidr);
void noise_allowedips_remove_peer(struct noise_allowedips *t,
				  struct list_head *peer_entries);

typedef int (*noise_allowedips_walk_fn)(void *ctx, int family,
					const u8 *addr, u8 cidr);
int noise_allowedips_walk_peer_from(const struct noise_allowedips *t,
				    const struct list_head *peer_entries,
				    const void **cursor, unsigned long *pos,
				    noise_allowedips_walk_fn fn, void *ctx);
int noise_allowedips_walk_peer(const struct noise_allowedips *t,
			       const struct list_head *peer_entries,
			       unsigned long *pos, noise_allowedips_walk_fn fn,
			       void *ctx);
unsigned long noise_allowedips_peer_count(const struct noise_allowedips *t,
					  const struct list_head *peer_entries);

int noise_allowedips_pool_fill(struct noise_allowedips_pool *pool,
			       unsigned int count, gfp_t gfp);
void noise_allowedips_pool_drain(struct noise_allowedips_pool *pool);

/* Bytes of one trie node (for the documentation of memory use). */
size_t noise_allowedips_node_size(void);

#endif /* _NOISE_TUNNEL_ALLOWEDIPS_H */
