// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation helpers of the device model; key material is wiped on free.
 */
#include <stdlib.h>
#include <string.h>

#include "containers.h"

/*
 * Room in the array p (capacity *cap, first @first) for element n, which
 * is zeroed. Only elements below n were ever written.
 */
static void *grow(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n >= *cap) {
		size_t c = *cap ? *cap * 2 : first;
		void *q = realloc(p, c * size);

		if (!q)
			die_oom();
		*cap = c;
		p = q;
	}
	memset((char *)p + n * size, 0, size);
	return p;
}

struct noise_device *device_new(void)
{
	struct noise_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		die_oom();
	return dev;
}

void device_free(struct noise_device *dev)
{
	size_t i;

	if (!dev)
		return;
	for (i = 0; i < dev->n_peers; i++)
		peer_release(&dev->peers[i]);
	/* Only the first n_peers were written: the rest may be untouched pages. */
	if (dev->peers)
		explicit_bzero(dev->peers, dev->n_peers * sizeof(*dev->peers));
	free(dev->peers);
	free(dev->index);
	explicit_bzero(dev, sizeof(*dev));
	free(dev);
}

struct noise_peer *device_add_peer(struct noise_device *dev)
{
	dev->peers = grow(dev->peers, &dev->cap_peers, dev->n_peers,
			  sizeof(*dev->peers), 8);
	return &dev->peers[dev->n_peers++];
}

static bool peer_is(const struct noise_peer *p, const u8 *key, size_t len)
{
	return p->key_len == len && !memcmp(p->public_key, key, len);
}

/* FNV-1a over the key, its high bits folded into the low ones. */
static size_t key_hash(const u8 *key, size_t len)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ key[i]) * 0x100000001b3ULL;
	return (size_t)(h ^ (h >> 32));
}

/* The index slot of the first indexed peer with key, or the empty one. */
static size_t *index_slot(const struct noise_device *dev, const u8 *key,
			  size_t len)
{
	size_t mask = dev->index_cap - 1, i = key_hash(key, len) & mask;

	while (dev->index[i] && !peer_is(&dev->peers[dev->index[i] - 1], key, len))
		i = (i + 1) & mask;
	return &dev->index[i];
}

/*
 * Index the peers added since the last lookup, at most half the slots
 * used. A peer without a key yet (one being built) and those after it
 * stay out, for device_find_peer() to scan.
 */
static void index_update(struct noise_device *dev)
{
	size_t cap = dev->index_cap ? dev->index_cap : 64;

	while (dev->n_peers * 2 > cap)
		cap *= 2;
	if (cap != dev->index_cap) {
		free(dev->index);
		dev->index = calloc(cap, sizeof(*dev->index));
		if (!dev->index)
			die_oom();
		dev->index_cap = cap;
		dev->n_indexed = 0;
	}
	for (; dev->n_indexed < dev->n_peers; dev->n_indexed++) {
		const struct noise_peer *p = &dev->peers[dev->n_indexed];
		size_t *slot;

		if (!p->key_len)
			break;
		slot = index_slot(dev, p->public_key, p->key_len);
		if (!*slot)	/* the first peer with a key keeps its slot */
			*slot = dev->n_indexed + 1;
	}
}

/* The first peer with that public key, or NULL: O(1) per lookup. */
struct noise_peer *device_find_peer(struct noise_device *dev, const u8 *key,
				    size_t len)
{
	size_t i, *slot;

	index_update(dev);
	slot = index_slot(dev, key, len);
	if (*slot)
		return &dev->peers[*slot - 1];
	for (i = dev->n_indexed; i < dev->n_peers; i++)
		if (peer_is(&dev->peers[i], key, len))
			return &dev->peers[i];
	return NULL;
}

struct noise_allowedip *peer_add_ip(struct noise_peer *peer)
{
	/* Most peers have one or two: a config of many peers stays small. */
	peer->ips = grow(peer->ips, &peer->cap_ips, peer->n_ips,
			 sizeof(*peer->ips), 2);
	return &peer->ips[peer->n_ips++];
}

/* Clear the host bits, as the kernel's trie stores a prefix. */
void allowedip_canonicalize(struct noise_allowedip *ip)
{
	u8 *b = ip->family == AF_INET ? (u8 *)&ip->ip4 : (u8 *)&ip->ip6;
	size_t len = ip->family == AF_INET ? 4 : 16;
	size_t i;

	for (i = 0; i < len; i++) {
		int bits = (int)ip->cidr - (int)i * 8;

		if (bits >= 8)
			continue;
		b[i] &= bits <= 0 ? 0 : (u8)(0xff << (8 - bits));
	}
}

int allowedip_cmp(const void *a, const void *b)
{
	const struct noise_allowedip *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	if (x->cidr != y->cidr)
		return x->cidr < y->cidr ? -1 : 1;
	return memcmp(&x->ip6, &y->ip6, x->family == AF_INET ? 4 : 16);
}

const struct noise_stats *peer_stats(const struct noise_peer *peer)
{
	static const struct noise_stats none;

	return peer->stats ? peer->stats : &none;
}

/* Counters live apart: a config's peers have none, and stay small. */
struct noise_stats *peer_stats_get(struct noise_peer *peer)
{
	if (!peer->stats) {
		peer->stats = calloc(1, sizeof(*peer->stats));
		if (!peer->stats)
			die_oom();
	}
	return peer->stats;
}

/* Keys live apart too: most peers of a config have none. */
u8 *peer_psk(struct noise_peer *peer, int i)
{
	if (!peer->psks) {
		peer->psks = calloc(NOISE_PEER_PSK_MAX, NOISE_PSK_KEY_LEN);
		if (!peer->psks)
			die_oom();
	}
	return peer->psks + (size_t)i * NOISE_PSK_KEY_LEN;
}

void peer_forget_psks(struct noise_peer *peer)
{
	if (peer->psks)
		explicit_bzero(peer->psks, NOISE_PEER_PSK_MAX * NOISE_PSK_KEY_LEN);
	free(peer->psks);
	peer->psks = NULL;
}

void peer_release(struct noise_peer *peer)
{
	peer_forget_psks(peer);
	free(peer->ips);
	free(peer->stats);
	peer->ips = NULL;
	peer->stats = NULL;
	peer->n_ips = 0;
	peer->cap_ips = 0;
}
