/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: peer_table.c: a device's peer tables (by static key, by
 * message-1 hint id), whose buckets grow with their peers.
 */
#ifndef _NOISE_TUNNEL_PEER_TABLE_H
#define _NOISE_TUNNEL_PEER_TABLE_H

#include <linux/list.h>
#include <linux/types.h>

struct noise_device;

/* 256 buckets in the device; at most one per peer filed beyond that. */
#define NOISE_TABLE_MIN_BITS	8
#define NOISE_TABLE_MAX_BITS	20	/* NOISE_MAX_PEERS */

/**
 * struct noise_peer_table - peers by a 32-bit hash. The buckets double
 *	once the peers filed outnumber them, so a lookup examines about one
 *	entry however many peers the device has; they are kept until the
 *	device goes.
 * @buckets: @first, or an array of 1 << @bits from kvmalloc. Readers hold
 *	hs_lock or conf_lock; a peer is filed or taken out under conf_lock,
 *	and the array is replaced under both.
 * @bits: log2 of the number of buckets.
 * @count: peers filed.
 * @first: the buckets of a device with few peers.
 */
struct noise_peer_table {
	struct hlist_head *buckets;
	unsigned int bits;
	unsigned int count;
	struct hlist_head first[1 << NOISE_TABLE_MIN_BITS];
};

/* The full hash of the peer filed at @node (noise_peer_table_grow()). */
typedef u32 (*noise_node_hash_t)(struct noise_device *nd,
				 const struct hlist_node *node);

void noise_peer_table_init(struct noise_peer_table *t);
void noise_peer_table_free(struct noise_peer_table *t);
void noise_peer_table_add(struct noise_peer_table *t, struct hlist_node *node,
			  u32 hash);
void noise_peer_table_del(struct noise_peer_table *t, struct hlist_node *node);
void noise_peer_table_grow(struct noise_device *nd, struct noise_peer_table *t,
			   noise_node_hash_t hash);

/* The bucket of @hash (its low @t->bits bits). */
static inline struct hlist_head *noise_peer_table_bucket(const struct noise_peer_table *t,
							 u32 hash)
{
	return &t->buckets[hash & ((1U << t->bits) - 1)];
}

#endif /* _NOISE_TUNNEL_PEER_TABLE_H */
