/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: peers, their sessions (keypairs) and handshake state.
 *
 * Lifetime: a peer is reference counted (kref). The device's peer list and
 * hash hold one reference, dropped by noise_peer_remove(); the data path
 * takes none for a lookup under RCU, but takes one for anything that
 * outlives the RCU section (a queued skb, a scheduled work item). Memory is
 * freed after an RCU grace period.
 */
#ifndef _NOISE_TUNNEL_PEER_H
#define _NOISE_TUNNEL_PEER_H

#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/dst_cache.h>
#include "cookie.h"
#include "device.h"
#include "messages.h"

/*
 * Where a peer is reached: the outer address, and our source address (the
 * one its last packet was sent to; 0/any: the route's) with the interface
 * that packet came in on (@src_if, 0 none; either family): the source is
 * dropped when the route to the peer leaves by another (socket.c).
 */
struct noise_endpoint {
	union {
		struct sockaddr addr;
		struct sockaddr_in addr4;
		struct sockaddr_in6 addr6;
	};
	union {
		struct in_addr src4;
		struct in6_addr src6;
	};
	int src_if;
};

/*
 * struct noise_keypair - one session: the two transport cipher states of a
 * completed handshake. Immutable after creation except the counters inside
 * the engine states and @replay; freed after RCU, then in process context
 * (a work item), when the last reference goes. Keys are wiped by
 * noise_cipher_free().
 * @entry: our receiver index (the index table entry).
 * @remote_index: the peer's receiver index (sent in our transport headers).
 * @send, @recv: the engine's cipher states (explicit-nonce calls).
 * @replay: the receive window (noise_replay_update()).
 * @birth: when the handshake completed (jiffies-based ktime, boottime).
 * @initiator: we were the initiator of the handshake.
 * @confirmed: the peer has been seen to use it (a packet decrypted with
 *	@recv, or we completed by reading the final message); until then we
 *	keep it in the "next" slot and retransmit the final message.
 * @deferred: a responder's session that wrote the final message: its
 *	peer is not proven yet (a message 1 can be a replay), so the endpoint,
 *	the handshake counters, the latest-handshake time, the event and the
 *	zeroing timer move only when the first packet on it decrypts
 *	(noise_glue_session_confirmed()).
 * @provisional: made from a message 1 whose timestamp was not the newest
 *	(the timestamp rule's exception for a peer whose clock went back): it
 *	takes the "next" slot only when that holds no live session, and
 *	nothing else (no stored answer, no retransmission) is kept for it.
 * @heard: a packet on it decrypted (a final message that comes again
 *	after that is a replay: the peer has the session).
 */
struct noise_keypair {
	struct noise_index entry;
	struct kref ref;
	union {
		struct rcu_head rcu;
		struct llist_node free_node;	/* after RCU, to the free work */
	};
	__le32 remote_index;
	struct noise_cipher *send, *recv;
	struct noise_replay replay;
	u64 birth;
	u8 cipher;		/* enum noise_cipher_id */
	const struct noise_framing_ops *framing;	/* of its transport header */
	bool initiator;
	bool confirmed;
	bool deferred;
	bool provisional;
	bool heard;
};

static inline enum noise_cipher_id noise_kp_cipher(const struct noise_keypair *kp)
{
	return kp->cipher;
}

enum noise_peer_flags {
	NOISE_PEER_ENDPOINT_CHANGED,	/* notify from hs_work */
	NOISE_PEER_HANDSHAKE_DONE,	/* notify from hs_work */
	NOISE_PEER_WANT_HANDSHAKE,	/* start one from hs_work */
	NOISE_PEER_SEND_KEEPALIVE,	/* send one from hs_work */
	NOISE_PEER_ZERO_KEYS,		/* zero_keys fired: hs_work wipes hs */
};

/* The three slots of a peer (WireGuard's current/previous/next). */
struct noise_keypairs {
	struct noise_keypair __rcu *current_kp, *previous_kp, *next_kp;
	spinlock_t lock;	/* writers */
};

/*
 * struct noise_glue_hs - one handshake in progress (tunnel side of an engine
 * handshake). Under dev->hs_lock. At most one per peer (peer->hs) plus the
 * anonymous responder handshakes of the device (dev->anon).
 * @entry: our index for this handshake (receiver index of replies).
 * @hs: the engine handshake.
 * @remote_index: the peer's index (0 until its first message).
 * @role: NOISE_INITIATOR or NOISE_RESPONDER.
 * @next_msgno: the number of the next message (1-based) to read or write.
 * @last_read_mac1: MAC1 of the last message read (duplicate detection).
 * @last_sent: our last message, for retransmission; @last_sent_len; room
 *	for @last_sent_cap bytes (the protocol's longest message).
 * @endpoint: where the peer's messages came from (responder side).
 * @started: jiffies when it began; @retries: retransmissions so far.
 * @anon_node: in dev->anon while peer is NULL.
 * @provisional: its message 1 was taken under the timestamp rule's
 *	exception (noise_keypair.provisional).
 * @wire: messages read and sent (and their bytes) not yet counted for a
 *	peer: an anonymous responder's, until it learns who it talks to.
 */
struct noise_glue_hs {
	struct noise_index entry;
	struct noise_handshake *hs;
	__le32 remote_index;
	u8 role;
	u8 next_msgno;
	u8 retries;
	u8 last_read_mac1[NOISE_MAC_LEN];
	unsigned int last_sent_len;
	unsigned int last_sent_cap;
	unsigned long last_sent_at;
	struct noise_endpoint endpoint;
	unsigned long started;
	struct list_head anon_node;
	struct noise_device *nd;
	struct noise_peer *found;	/* set by remote_static_cb */
	u8 psks[NOISE_MAX_PSKS][NOISE_PSK_LEN];	/* scratch, wiped */
	u8 payload[64];
	bool provisional;
	struct {
		unsigned int rx_n, rx_bytes, tx_n, tx_bytes;
	} wire;
	struct rcu_head rcu;
	u8 last_sent[];
};

/*
 * struct noise_peer - a peer of a device.
 * @nd: the device.
 * @public_key: its static public key (dh_len bytes of the device protocol).
 * @psks: its PSKs (@num_psks of them; one per psk token or one for all).
 * @ss: DH(our static, its static), derived again when either key changes
 *	(noise_peer_derive_keys()): at once for a hinted protocol, else at
 *	the peer's first handshake (@ss_later until then;
 *	noise_peer_ss_ready()). @ss_ok false if there is no private key, the
 *	DH was degenerate or is still to be done.
 * @hint_id: our id for the peer and its for us, from @ss: what its
 *	message-1 hint carries (wire-format.rst; hinted protocols only, zero
 *	otherwise); wiped with @ss.
 * @id_hash: in dev->peer_id_hash under @hint_id while @ss_ok and the peer
 *	is on the device (conf_lock writers; hs_lock or RCU readers).
 * @endpoint: where to send (endpoint_lock; readers take it shared).
 * @keepalive_interval: persistent keepalive in seconds, 0 off.
 * @keypairs: the sessions.
 * @hs: our handshake with it in progress (dev->hs_lock), or NULL.
 * @last_sent_final: the final handshake message we wrote (allocated,
 *	@last_sent_final_len bytes, NULL when none), kept until the
 *	session it created is confirmed (retransmitted on timer/duplicate);
 *	@final_sent_at: when it was last sent (jiffies, dev->hs_lock).
 * @latest_timestamp: the newest TAI64N timestamp seen in its message 1
 *	(replayed initiations are refused; wire-format.rst, timestamp rule).
 * @rekey_mac1: MAC1 of the initiation we last answered, kept when our keys
 *	for the peer changed (@rekey_mac1_ok): its resend is answered again
 *	with the new keys, once (dev->hs_lock).
 * @last_auth_rx: when an authenticated transport message last came
 *	(jiffies64; 0 never).
 * @last_initiation: when a message 1 from it was last taken (ns,
 *	boottime): at most NOISE_INITIATIONS_PER_SECOND (dev->hs_lock).
 * @final_to: where our unconfirmed final message goes (a responder's:
 *	where the message it answers came from; dev->hs_lock).
 * @late_final_at: when a keepalive last answered a final message that
 *	came again for a live session (jiffies, dev->hs_lock).
 * @staged: packets waiting for a session (bounded, NOISE_MAX_STAGED).
 * @tx_queue: encrypted-in-order queue (queueing.c), @tx_work sends it.
 * @rx_queue: received transport packets in arrival order while the workers
 *	decrypt them (bounded, NOISE_MAX_QUEUED_PACKETS); @rx_work delivers
 *	its head while decrypted (receive.c).
 * @hs_work: starts a handshake (process context).
 * @hs_wanted: when something last asked for a handshake (noise_peer_want_handshake());
 *	retries stop REKEY_ATTEMPT_TIME after it (Documentation/timers.rst).
 * @timer_*: timers.c.
 * @allowedips: the entries of this peer in dev->aips (allowedips.h).
 * @stats: per-CPU wire counters; @drops by reason (rare: atomics);
 *	@handshakes; @cookie_events (enum
 *	noise_cookie_event); @last_handshake (ns realtime).
 * @internal_id: a number for log messages.
 * @serial_cpu: the CPU @tx_work and @rx_work run on (-1: not chosen yet;
 *	noise_queue_peer_work()).
 */
struct noise_peer {
	struct noise_device *nd;
	u8 public_key[NOISE_MAX_DHLEN];
	u8 psks[NOISE_PEER_PSK_MAX][NOISE_PSK_LEN];
	unsigned int num_psks;
	u8 ss[NOISE_MAX_DHLEN];
	bool ss_ok;
	bool ss_later;
	u8 hint_id[NOISE_HINT_LEN];
	struct hlist_node id_hash;		/* dev->peer_id_hash */
	bool linked;				/* on the device's lists */
	struct noise_cookie_maker cookie;	/* MACs, cookies (cookies.rst) */
	rwlock_t endpoint_lock;
	struct noise_endpoint endpoint;
	struct dst_cache endpoint_cache;
	unsigned long flags;			/* enum noise_peer_flags */
	u16 keepalive_interval;
	struct noise_keypairs keypairs;
	struct noise_glue_hs *hs;
	u8 *last_sent_final;
	unsigned int last_sent_final_len;
	u8 final_trigger_mac1[NOISE_MAC_LEN];	/* MAC1 of what it answered */
	unsigned int final_retries;
	unsigned long final_sent_at;
	u8 latest_timestamp[NOISE_TIMESTAMP_LEN];
	u8 rekey_mac1[NOISE_MAC_LEN];
	bool rekey_mac1_ok;
	atomic64_t last_auth_rx;
	u64 last_initiation;
	struct noise_endpoint final_to;
	unsigned long late_final_at;
	struct sk_buff_head staged;
	struct sk_buff_head tx_queue;
	struct work_struct tx_work;
	struct sk_buff_head rx_queue;
	struct work_struct rx_work;
	struct work_struct hs_work;
	/* the five timers together: noise_timers_prefetch() reads them as one */
	struct timer_list timer_retransmit;
	struct timer_list timer_keepalive;	/* passive keepalive */
	struct timer_list timer_persistent;	/* persistent keepalive */
	struct timer_list timer_new_handshake;	/* no reply to our data */
	struct timer_list timer_zero_keys;
	unsigned long last_sent_handshake;	/* jiffies, rate limit */
	u64 hs_wanted;				/* jiffies64: last noise_peer_want_handshake() */
	atomic64_t last_rx, last_tx;		/* jiffies of data */
	struct list_head allowedips;
	struct noise_pcpu_wire __percpu *stats;
	atomic64_t drops[NOISE_DROP_COUNT];
	atomic64_t handshakes;
	atomic64_t last_attempt;	/* ns, CLOCK_REALTIME: our latest message 1 */
	atomic64_t cookie_events[NOISE_CE_COUNT];
	atomic64_t last_handshake;
	struct list_head list;			/* dev->peer_list */
	struct list_head dead_list;		/* noise_peer_remove_all() */
	struct hlist_node hash;			/* dev->peer_hash */
	struct kref ref;
	struct rcu_head rcu;
	bool dead;
	int serial_cpu;
	u64 internal_id;
};

/* The peers' slab cache: made by the module's init, gone at its exit. */
int noise_peer_cache_init(void);
void noise_peer_cache_exit(void);
struct noise_peer *noise_peer_new(struct noise_device *nd, const u8 *public_key,
				  unsigned int key_len, gfp_t gfp);
void noise_peer_link(struct noise_peer *peer);
void noise_peer_tables_fit(struct noise_device *nd);
void noise_peer_unlink(struct noise_peer *peer);
void noise_peer_unhash(struct noise_peer *peer);
void noise_peer_free_unadded(struct noise_peer *peer);
struct noise_peer *noise_peer_lookup(struct noise_device *nd, const u8 *public_key);
struct noise_peer *noise_peer_hint_lookup(struct noise_device *nd,
					  const u8 *e_pub, const u8 *ct, u8 *k);
/* KUnit only, test build (NOISE_TESTING): counts the entries examined. */
struct noise_peer *noise_peer_hint_lookup_test(struct noise_device *nd,
					       const u8 *e_pub, const u8 *ct,
					       unsigned int *steps);
struct noise_peer *noise_peer_get_maybe_zero(struct noise_peer *peer);
struct noise_peer *noise_peer_get(struct noise_peer *peer);
void noise_peer_put(struct noise_peer *peer);
void noise_peer_put_unseen(struct noise_peer *peer);
int noise_peer_derive_keys(struct noise_peer *peer);
bool noise_peer_ss_ready(struct noise_peer *peer);

void noise_peer_psk_id(struct noise_peer *peer, u8 out[NOISE_PSK_ID_LEN]);
int noise_peer_set_endpoint(struct noise_peer *peer, const struct sockaddr *sa,
			    size_t len);
void noise_peer_get_endpoint(struct noise_peer *peer, struct sockaddr_storage *out);
u16 noise_peer_keepalive(struct noise_peer *peer);
u64 noise_peer_last_handshake_ns(struct noise_peer *peer);
bool noise_endpoint_eq(const struct noise_endpoint *a,
		       const struct noise_endpoint *b);
void noise_peer_update_endpoint(struct noise_peer *peer,
				const struct noise_endpoint *ep);
void noise_peer_queue_hs_work(struct noise_peer *peer);
void noise_peer_want_handshake(struct noise_peer *peer);
void noise_hint_id(u8 out[NOISE_HINT_LEN], const u8 *ss, unsigned int len);
void noise_hint_xor(u8 *out, const u8 *in, const u8 *k, const u8 *e_pub,
		    unsigned int len);

void noise_index_init(struct noise_index_table *t);
void noise_index_insert(struct noise_index_table *t, struct noise_index *e);
void noise_index_replace(struct noise_index_table *t, struct noise_index *old,
			 struct noise_index *new);
void noise_index_remove(struct noise_index_table *t, struct noise_index *e);
struct noise_index *noise_index_lookup(struct noise_index_table *t, __le32 index,
				       u8 type);

bool noise_keypair_install(struct noise_peer *peer, struct noise_keypair *kp);
bool noise_keypair_confirm(struct noise_peer *peer, struct noise_keypair *kp);
void noise_keypair_put(struct noise_keypair *kp);
struct noise_keypair *noise_keypair_get(struct noise_keypair *kp);
void noise_keypair_free_flush(void);
void noise_keypairs_clear(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_PEER_H */
