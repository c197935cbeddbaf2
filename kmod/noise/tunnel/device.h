/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: the device (struct noise_device in netdev_priv()).
 *
 * Locking (Documentation/architecture.rst, "The configuration interface"):
 *  - dev->conf_lock (mutex): every configuration change (protocol, keys,
 *    port, fwmark, peers, allowed IPs) and every walk of dev->peer_list by
 *    netlink. Nests inside RTNL (ndo_open/ndo_stop, the netns pre_exit,
 *    and a SET_DEVICE that changes the listen port take RTNL first);
 *    never take RTNL while holding it.
 *  - dev->hs_lock (mutex): all handshake state of the device and its peers
 *    (peer->hs, dev->anon, the last sent handshake message). Process context
 *    only; nests inside conf_lock.
 *  - Data path: RCU (softirq). dev->sock4/sock6, dev->ident, peer->keypairs
 *    slots, the index table and the allowed-IPs tries are RCU pointers.
 */
#ifndef _NOISE_TUNNEL_DEVICE_H
#define _NOISE_TUNNEL_DEVICE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/gro_cells.h>
#include <uapi/linux/noise.h>
#include "../noise.h"
#include "allowedips.h"
#include "cookie.h"
#include "queueing.h"
#include "peer_table.h"
#include "ratelimiter.h"

struct noise_peer;
struct noise_framing_ops;

/* One drop reason per NOISE_A_STATS_DROP_* attribute, in the same order. */
enum noise_drop {
	NOISE_DROP_BAD_TYPE,
	NOISE_DROP_BAD_LENGTH,
	NOISE_DROP_UNKNOWN_INDEX,
	NOISE_DROP_AUTH,
	NOISE_DROP_REPLAY,
	NOISE_DROP_SOURCE,
	NOISE_DROP_NO_PEER,
	NOISE_DROP_HANDSHAKE,
	NOISE_DROP_NO_KEY,
	NOISE_DROP_INNER,
	NOISE_DROP_MAC1,
	NOISE_DROP_COOKIE,
	NOISE_DROP_RATELIMIT,
	NOISE_DROP_HS_QUEUE,
	NOISE_DROP_LOOP,
	NOISE_DROP_COUNT
};

/*
 * Rare events (atomics), one per NOISE_A_STATS_COOKIE_REPLIES... in that
 * order: the cookie's, then our handshakes' as initiator.
 */
enum noise_cookie_event {
	NOISE_CE_REPLY,		/* a cookie reply taken */
	NOISE_CE_MAC2_SENT,	/* a handshake message sent with MAC2 */
	NOISE_CE_MAC2_OK,	/* under load, a valid MAC2 received */
	NOISE_CE_INITIATION,	/* a handshake begun (first message 1) */
	NOISE_CE_HS_RESENT,	/* a handshake message of ours sent again */
	NOISE_CE_HS_GIVEN_UP,	/* a handshake given up */
	NOISE_CE_COUNT
};

/* noise_msg_check(): the message may go on. */
#define NOISE_MSG_OK	NOISE_DROP_COUNT

/*
 * Per-CPU counters (u64_stats_sync for 32-bit): what crossed the wire, of
 * a device or a peer; a device's drops by reason are per-CPU too, a
 * peer's are atomics (struct noise_peer.drops): 32 bytes per CPU per peer
 * on 64-bit, not 152, which matters at 100,000 peers on a many-CPU host.
 */
struct noise_pcpu_wire {
	u64_stats_t rx_bytes, rx_packets, tx_bytes, tx_packets;
	struct u64_stats_sync syncp;
};

struct noise_pcpu_stats {
	struct noise_pcpu_wire w;
	u64_stats_t drops[NOISE_DROP_COUNT];
};

/* A snapshot, summed over CPUs (noise_stats_read()). */
struct noise_stats {
	u64 rx_bytes, rx_packets, tx_bytes, tx_packets, handshakes;
	u64 drops[NOISE_DROP_COUNT];
	u64 cookie[NOISE_CE_COUNT];
};

/*
 * What the configured protocol means for the tunnel; computed once when the
 * protocol is set (noise_tunnel_protocol_parse()) and then read-only.
 * @name: the protocol name.
 * @info: the engine's view (DH, cipher, lengths, pre-messages).
 * @msg_len: exact wire length of handshake message i (1-based), with our
 *	header, hint and MACs (messages.h).
 * @noise_len: length of the Noise part of message i.
 * @max_msg_len: the longest msg_len[]: what a handshake in progress keeps
 *	for its retransmission (hfs messages run to 1.8 KiB, others to 200 B).
 * @hinted: message 1 carries a peer hint (the responder must know the
 *	initiator before reading it: Documentation/wire-format.rst).
 * @overhead: outer bytes added to an inner packet over IPv6, without the
 *	padding: IPv6 + UDP + transport header + tag.
 * @prologue: NOISE_PROLOGUE_PREFIX, the wire version, the protocol name;
 *	a profile's own (the WireGuard profile: its identifier).
 * @framing: NULL: our wire format; else a profile's (wg.h: WireGuard).
 * @hs_tmpl: the engine's parse of the handshake's name with @prologue
 *	hashed in: every handshake starts from it (noise_handshake_new_from()).
 */
struct noise_tunnel_proto {
	char name[NOISE_PROTOCOL_NAME_MAX + 1];
	struct noise_protocol_info info;
	unsigned int msg_len[NOISE_MAX_MESSAGES + 1];
	unsigned int noise_len[NOISE_MAX_MESSAGES + 1];
	unsigned int max_msg_len;
	bool hinted;
	unsigned int overhead;
	unsigned int prologue_len;
	u8 prologue[NOISE_PROTOCOL_NAME_MAX + 32];
	const struct noise_framing_ops *framing;
	struct noise_handshake_template hs_tmpl;
};

/* Events of a peer that the paths raise (noise_device.peer_event). */
enum noise_peer_event {
	NOISE_EV_HANDSHAKE,	/* a session was made (or confirmed) */
	NOISE_EV_ENDPOINT,	/* its endpoint moved (roaming) */
	NOISE_EV_HS_FAILED,	/* handshake attempts given up */
};

/*
 * The device's identity: its protocol and static key pair. Replaced as a
 * whole under conf_lock (RCU for readers), freed with kfree_sensitive.
 * @has_key: false until a private key is set (no handshakes, no traffic).
 * @cookie: MAC1/MAC2 checker keyed by our public key with the framing's
 *	labels (cookie.h): checks handshake messages sent to us, makes cookie
 *	replies, MACs the messages a native responder sends. Initialised
 *	again whenever an identity is made or copied (noise_ident_cookie(),
 *	identity.c).
 */
struct noise_identity {
	struct rcu_head rcu;
	struct noise_tunnel_proto proto;
	u32 proto_gen;		/* changes with the protocol (hs_queue check) */
	bool has_key;
	u8 private_key[NOISE_MAX_DHLEN];
	u8 public_key[NOISE_MAX_DHLEN];
	struct noise_cookie_checker cookie;
};

/* Index table: receiver indexes of keypairs and pending handshakes. */
#define NOISE_INDEX_HASH_BITS	13
enum noise_index_type { NOISE_INDEX_KEYPAIR, NOISE_INDEX_HANDSHAKE };

struct noise_index {
	struct hlist_node node;
	struct noise_peer *peer;	/* NULL: anonymous responder hs */
	__le32 index;
	u8 type;			/* enum noise_index_type */
};

struct noise_index_table {
	spinlock_t lock;		/* writers; readers use RCU */
	struct hlist_head buckets[1 << NOISE_INDEX_HASH_BITS];
};

/*
 * struct noise_device - netdev_priv() of a noise device.
 * @dev: the net_device.
 * @net: the network namespace of the UDP sockets (the one the device was
 *	created in; held only as long as the device).
 * @ident: protocol and key pair (RCU; conf_lock for writers).
 * @sock4, @sock6: the UDP sockets (RCU; conf_lock for writers).
 * @listen_port: the bound port (0 before the first open).
 * @fwmark: the mark of outgoing UDP packets.
 * @peer_list: all peers (conf_lock; RCU for the data path walk).
 * @peer_hash: peers by static public key (peer_table.h: hs_lock or
 *	conf_lock readers, conf_lock writers).
 * @peer_id_hash: peers by message-1 hint id (noise_peer.hint_id; the
 *	same locks; a peer moves, its ss changed, under both).
 * @num_peers: length of @peer_list.
 * @index: the index table.
 * @aips: the allowed-IPs tries (one per family; allowedips.h).
 * @hs_queue: received handshake messages waiting for @hs_work (bounded by
 *	NOISE_MAX_QUEUED_HANDSHAKES).
 * @hs_work: handshake receive processing (process context).
 * @anon: responder handshakes that do not know their peer yet (XX before
 *	message 3), under hs_lock, bounded by NOISE_MAX_ANON_HANDSHAKES.
 * @workers: per-CPU crypto workers (queueing.c); @wq their workqueue;
 *	@inline_tx/@inline_rx: per-CPU slots of the inline path;
 *	@crypt_ops: what they run, per direction (the paths'); @last_cpu:
 *	round robin; @crypt_inflight: inline operations an asynchronous AEAD
 *	has not completed yet (noise_queueing_flush() waits for them).
 * @hs_wq: the handshake workqueue (ordered per device).
 * @gro: GRO cells for decrypted packets.
 * @stats: per-CPU device counters; @handshakes, handshakes completed;
 *	@cookie_events, enum noise_cookie_event (rare: atomics).
 * @ratelimiter: handshakes per source under load (Documentation/cookies.rst).
 * @last_under_load: jiffies when the handshake queue was last found busy
 *	(under load for one second after, as WireGuard).
 * @dev_list: the per-netns list of devices (noise_net).
 * @encap_rcv: the receive path's entry (noise_receive()), handed to the
 *	sockets the device opens: the I/O floor calls up only through it.
 * @peer_event: what the paths tell the control floor about a peer
 *	(netlink.c sends it to the "peers" multicast group); called in
 *	process context. Set when the device is made, as @encap_rcv.
 */
struct noise_device {
	struct net_device *dev;
	struct net *net;
	struct noise_identity __rcu *ident;
	struct sock __rcu *sock4, *sock6;
	int (*encap_rcv)(struct sock *sk, struct sk_buff *skb);
	void (*peer_event)(struct noise_peer *peer, enum noise_peer_event ev);
	u16 listen_port;
	u32 fwmark;
	struct mutex conf_lock;		/* configuration, peer list */
	struct mutex hs_lock;		/* handshake state */
	struct list_head peer_list;
	struct noise_peer_table peer_hash, peer_id_hash;
	unsigned int num_peers;
	u64 peer_gen;
	u16 listen_port_req;	/* configured; 0: any */
	struct noise_index_table index;
	struct noise_allowedips aips;
	struct sk_buff_head hs_queue;
	struct work_struct hs_work;
	struct list_head anon;
	unsigned int num_anon;
	struct noise_worker __percpu *workers;
	struct noise_crypt_slot __percpu *inline_tx, *inline_rx;
	const struct noise_crypt_ops *crypt_ops[2];	/* enum noise_cb_dir */
	int last_cpu;
	atomic_t crypt_inflight;
	struct workqueue_struct *wq, *hs_wq;
	struct gro_cells gro;
	struct noise_pcpu_stats __percpu *stats;
	atomic64_t handshakes;
	atomic64_t cookie_events[NOISE_CE_COUNT];
	struct noise_ratelimiter ratelimiter;
	unsigned long last_under_load;
	struct list_head dev_list;
};

static inline struct noise_device *noise_netdev_priv(const struct net_device *dev)
{
	return netdev_priv(dev);
}

/* KUnit only (NOISE_INTERNAL), in the test build alone (NOISE_TESTING=1). */
struct noise_device *noise_device_create_test(const char *name);
void noise_device_destroy_test(struct noise_device *nd);
int noise_receive_test(struct noise_device *nd, struct sk_buff *skb);
void noise_socket_set_test_tap(void (*tap)(struct noise_device *nd, struct sk_buff *skb));
int noise_nl_set_test(struct sk_buff *skb, struct netlink_ext_ack *extack);
void *noise_nl_dump_test(struct noise_device *nd, size_t *len);
void *noise_nl_dump_test_step(struct noise_device *nd, size_t *len,
			      void (*between)(void *arg, const void *msg, size_t len),
			      void *arg);

enum noise_drop noise_msg_check(const struct noise_tunnel_proto *p, const u8 *msg,
				unsigned int len, u8 *type);
/* Under load from this many queued handshake messages (WireGuard: 1/8). */
#define NOISE_UNDER_LOAD_QUEUED	(NOISE_MAX_QUEUED_HANDSHAKES / 8)
bool noise_rx_under_load(struct noise_device *nd);

/* device.c: the module's tunnel, the link type. */
int noise_tunnel_init(void);
void noise_tunnel_exit(void);
extern struct rtnl_link_ops noise_link_ops;

#endif /* _NOISE_TUNNEL_DEVICE_H */
