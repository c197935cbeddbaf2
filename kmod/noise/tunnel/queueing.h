/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: where packet crypto runs (queueing.c). With one CPU online
 * the crypto runs inline in the sending or receiving context (no queue, no
 * context switch); otherwise in per-CPU workers fed round robin, with
 * each peer's order kept by peer->tx_queue (send) and peer->rx_queue
 * (receive).
 */
#ifndef _NOISE_TUNNEL_QUEUEING_H
#define _NOISE_TUNNEL_QUEUEING_H

#include <linux/ptr_ring.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/completion.h>
#include "../noise.h"

struct noise_device;
struct noise_keypair;
struct noise_peer;

enum noise_cb_state { NOISE_CB_PENDING, NOISE_CB_DONE, NOISE_CB_DEAD };
enum noise_cb_dir { NOISE_CB_TX, NOISE_CB_RX };

/* skb->cb of a packet in the tunnel. */
struct noise_skb_cb {
	struct noise_keypair *kp;	/* holds a reference */
	u64 nonce;
	unsigned int mtu;		/* tx: pad at most to this */
	unsigned int inner_len;		/* tx: for the timers */
	unsigned int wire_len;		/* rx handshake: length on the wire */
	u8 state;			/* enum noise_cb_state (queued) */
	u8 dir;				/* enum noise_cb_dir */
	bool queued;			/* on peer->tx_queue or rx_queue */
	void *owner;			/* inline request slot in use */
	u32 proto_gen;			/* handshake: identity's proto_gen */
};

#define NOISE_CB(skb) ((struct noise_skb_cb *)(skb)->cb)
static_assert(sizeof(struct noise_skb_cb) <= sizeof_field(struct sk_buff, cb));

#define NOISE_MAX_SG	(MAX_SKB_FRAGS + 8)

/* A request and its scatterlist, used by one operation at a time. */
struct noise_crypt_slot {
	struct noise_crypt_req *req[NOISE_CIPHER_COUNT];
	struct scatterlist sg[NOISE_MAX_SG];
	bool busy;
};

struct noise_worker {
	struct ptr_ring ring;
	struct work_struct work;
	struct noise_device *nd;
	struct noise_crypt_slot slot;
	struct completion done;
	int err;
};

/*
 * What the queues run for one direction, handed to them by the path that
 * owns it (send.c: noise_tx_crypt, receive.c: noise_rx_crypt; the device
 * passes both to noise_queueing_init()): the operation, and what follows
 * it (@inline_ctx: in the sending or receiving context, not a worker).
 */
struct noise_crypt_ops {
	int (*crypt)(struct sk_buff *skb, struct noise_crypt_slot *s,
		     noise_crypt_done_t done, void *data);
	void (*finish)(struct sk_buff *skb, int err, bool inline_ctx);
};

int noise_queueing_init(struct noise_device *nd, const struct noise_crypt_ops *tx,
			const struct noise_crypt_ops *rx);
void noise_queueing_free(struct noise_device *nd);
void noise_queueing_flush(struct noise_device *nd);
void noise_crypt_dispatch(struct noise_device *nd, struct sk_buff *skb,
			  struct sk_buff_head *sent);
bool noise_crypt_use_inline(void);
bool noise_queue_peer_work(struct noise_peer *peer, struct work_struct *work);
struct sk_buff *noise_queue_take_done(struct sk_buff_head *queue, u8 *state);

#endif /* _NOISE_TUNNEL_QUEUEING_H */
