// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation helpers of the device model; key material is wiped on free.
 */
#include <stdlib.h>
#include <string.h>

#include "containers.h"

/* Room in the array p (capacity *cap) for element n, which is zeroed. */
static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n >= *cap) {
		size_t c = *cap ? *cap * 2 : 8;
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
	for (i = 0; i < dev->n_peers; i++) {
		explicit_bzero(dev->peers[i].psks, sizeof(dev->peers[i].psks));
		free(dev->peers[i].ips);
	}
	if (dev->peers)
		explicit_bzero(dev->peers, dev->cap_peers * sizeof(*dev->peers));
	free(dev->peers);
	explicit_bzero(dev, sizeof(*dev));
	free(dev);
}

struct noise_peer *device_add_peer(struct noise_device *dev)
{
	dev->peers = grow(dev->peers, &dev->cap_peers, dev->n_peers,
			  sizeof(*dev->peers));
	return &dev->peers[dev->n_peers++];
}

struct noise_peer *device_find_peer(struct noise_device *dev, const u8 *key,
				    size_t len)
{
	size_t i;

	for (i = 0; i < dev->n_peers; i++)
		if (dev->peers[i].key_len == len &&
		    !memcmp(dev->peers[i].public_key, key, len))
			return &dev->peers[i];
	return NULL;
}

struct noise_allowedip *peer_add_ip(struct noise_peer *peer)
{
	peer->ips = grow(peer->ips, &peer->cap_ips, peer->n_ips,
			 sizeof(*peer->ips));
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
