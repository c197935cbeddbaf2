/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-memory model of a noise device and its peers: what a config file
 * or a `set` command line asks for, and what a dump returns. The has_*
 * fields say which attributes are present (a request leaves absent ones
 * unchanged; a dump leaves out what the kernel did not send).
 */
#ifndef NOISECTL_CONTAINERS_H
#define NOISECTL_CONTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/noise.h>

#include "encoding.h"
#include "util.h"

#define NOISE_DEFAULT_PROTOCOL "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s"

struct noise_allowedip {
	u16 family;
	u8 cidr;
	union {
		struct in_addr ip4;
		struct in6_addr ip6;
	};
};

union noise_endpoint {
	struct sockaddr addr;
	struct sockaddr_in addr4;
	struct sockaddr_in6 addr6;
};

struct noise_stats {
	u64 v[NOISE_A_STATS_MAX + 1];
	u32 present;			/* bit i: v[i] was in the dump */
};

struct noise_peer {
	u32 flags;			/* NOISE_PEER_FLAG_* */
	size_t key_len;
	u8 public_key[NOISE_MAX_KEY_LEN];
	int line;			/* config line of PublicKey, or 0 */

	bool has_psks;			/* psks[] is to be set (maybe none) */
	int n_psks;
	u8 *psks;			/* n_psks keys of 32 bytes; NULL until the first */
	int psk_line;

	bool has_psk_id;
	u8 psk_id[NOISE_PSK_ID_LEN];

	bool has_endpoint;
	union noise_endpoint endpoint;

	bool has_keepalive;
	u16 keepalive;

	u64 last_handshake_ns;
	u64 last_attempt_ns;	/* our latest message 1 */
	struct noise_stats *stats;	/* NULL: none given (a config's peer) */

	size_t n_ips, cap_ips;
	struct noise_allowedip *ips;
};

struct noise_device {
	char ifname[IFNAMSIZ];
	u32 ifindex;
	u32 flags;			/* NOISE_DEVICE_FLAG_* */

	bool has_protocol;
	char protocol[NOISE_PROTOCOL_NAME_MAX + 1];
	int protocol_line;

	bool has_private_key;
	size_t private_key_len;
	u8 private_key[NOISE_MAX_KEY_LEN];
	int private_key_line;

	size_t public_key_len;		/* 0: none */
	u8 public_key[NOISE_MAX_KEY_LEN];

	bool has_listen_port;
	u16 listen_port;

	bool has_fwmark;
	u32 fwmark;

	struct noise_stats stats;

	size_t n_peers, cap_peers;
	struct noise_peer *peers;

	/*
	 * device_find_peer()'s hash index of peers[0..n_indexed) by public
	 * key: open addressing, each slot a peer's number + 1 (0: empty),
	 * index_cap a power of two; updated on lookup, as peers are only
	 * ever appended.
	 */
	size_t *index, index_cap, n_indexed;

	/*
	 * A streaming read (noise_get_device_stream()): each peer goes to
	 * peer_done once complete and only the last one is kept, so a dump
	 * of any size takes the memory of one peer.
	 */
	void (*peer_done)(const struct noise_device *dev,
			  const struct noise_peer *peer, void *arg);
	void *peer_arg;
};

struct noise_device *device_new(void);
void device_free(struct noise_device *dev);
struct noise_peer *device_add_peer(struct noise_device *dev);
struct noise_peer *device_find_peer(struct noise_device *dev, const u8 *key,
				    size_t len);
struct noise_allowedip *peer_add_ip(struct noise_peer *peer);
/* A peer's counters (all zero when it has none), and room for them. */
const struct noise_stats *peer_stats(const struct noise_peer *peer);
struct noise_stats *peer_stats_get(struct noise_peer *peer);
/*
 * Preshared key i (below NOISE_PEER_PSK_MAX) of a peer: room for all of
 * them is made on the first. peer_forget_psks() wipes and frees them.
 */
u8 *peer_psk(struct noise_peer *peer, int i);
void peer_forget_psks(struct noise_peer *peer);
/* Free what a peer owns (its allowed IPs, counters, preshared keys). */
void peer_release(struct noise_peer *peer);
void allowedip_canonicalize(struct noise_allowedip *ip);
int allowedip_cmp(const void *a, const void *b);

#endif
