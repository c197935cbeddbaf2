// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the send path. ndo_start_xmit routes by destination to a
 * peer (allowed IPs), segments GSO once, stages the packets on the peer;
 * noise_send_staged() gives each a nonce from the current session and hands
 * it to the crypto (queueing.c); noise_tx_finish() sends it (inline) or
 * marks it done for the in-order flush of peer->tx_queue (workers).
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/dst_metadata.h>
#include "../compat.h"
#if NOISE_KERNEL_AT_LEAST(6, 4)
#include <net/gso.h>	/* skb_gso_segment() moved there in 6.4 */
#endif
#include <net/icmp.h>
#include <net/ip_tunnels.h>
#include "device.h"
#include "stats.h"
#include "peer.h"
#include "queueing.h"
#include "socket.h"
#include "send.h"
#include "timers.h"
#include "timing.h"
#include "wg.h"

static void noise_tx_send_list(struct noise_peer *peer, struct sk_buff_head *list);

/*
 * Is @kp still good for sending (younger than REJECT_AFTER_TIME, fewer than
 * REJECT_AFTER_MESSAGES sent)? Also asks for a rekey when it is old: after
 * REKEY_AFTER_TIME on the side that initiated it, REKEY_AFTER_MESSAGES or
 * REKEY_LAST_MINUTE on either side (Documentation/timers.rst).
 */
static bool noise_kp_send_ok(struct noise_peer *peer, struct noise_keypair *kp)
{
	u64 age = get_jiffies_64() - kp->birth;
	u64 sent = noise_cipher_messages_sent(kp->send);

	if (age >= noise_scaled(NOISE_REJECT_AFTER_TIME) ||
	    sent >= NOISE_REJECT_AFTER_MESSAGES)
		return false;
	if ((kp->initiator && age >= noise_scaled(NOISE_REKEY_AFTER_TIME)) ||
	    age >= noise_scaled(NOISE_REKEY_LAST_MINUTE) ||
	    sent >= NOISE_REKEY_AFTER_MESSAGES)
		noise_peer_want_handshake(peer);
	return true;
}

/*
 * Give every staged packet a nonce of the current session and start its
 * encryption. Nonces are taken and packets queued under tx_queue.lock, so
 * the worker path sends them in nonce order.
 * Context: softirq or BH disabled.
 */
void noise_send_staged(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	struct sk_buff_head batch, sent;
	struct noise_keypair *kp;
	struct sk_buff *skb;
	bool inl = noise_crypt_use_inline();

	rcu_read_lock_bh();
	kp = noise_keypair_get(rcu_dereference_bh(peer->keypairs.current_kp));
	rcu_read_unlock_bh();
	if (!kp || !noise_kp_send_ok(peer, kp)) {
		noise_keypair_put(kp);
		noise_peer_want_handshake(peer);
		return;
	}
	__skb_queue_head_init(&batch);
	__skb_queue_head_init(&sent);
	spin_lock_bh(&peer->staged.lock);
	skb_queue_splice_init(&peer->staged, &batch);
	spin_unlock_bh(&peer->staged.lock);

	spin_lock_bh(&peer->tx_queue.lock);
	while ((skb = __skb_dequeue(&batch))) {
		struct noise_skb_cb *cb = NOISE_CB(skb);

		/* Never a nonce at or past the limit the receiver enforces. */
		if (unlikely(noise_cipher_take_nonce(kp->send, &cb->nonce) ||
			     cb->nonce >= NOISE_REJECT_AFTER_MESSAGES)) {
			__skb_queue_head(&batch, skb);
			break;
		}
		cb->kp = noise_keypair_get(kp);
		cb->dir = NOISE_CB_TX;
		cb->state = NOISE_CB_PENDING;
		cb->queued = !inl;
		if (!inl)
			__skb_queue_tail(&peer->tx_queue, skb);
		spin_unlock_bh(&peer->tx_queue.lock);
		noise_crypt_dispatch(nd, skb, &sent);
		spin_lock_bh(&peer->tx_queue.lock);
	}
	spin_unlock_bh(&peer->tx_queue.lock);
	noise_tx_send_list(peer, &sent);
	if (!skb_queue_empty(&batch)) {	/* counter exhausted */
		spin_lock_bh(&peer->staged.lock);
		skb_queue_splice(&batch, &peer->staged);
		spin_unlock_bh(&peer->staged.lock);
		noise_peer_want_handshake(peer);
	}
	noise_keypair_put(kp);
}

/*
 * Pad, add the transport header, encrypt in place. The header is the AEAD's
 * associated data. Context: any (never sleeps).
 */
static int noise_encrypt_skb(struct sk_buff *skb, struct noise_crypt_slot *s,
			     noise_crypt_done_t done, void *data)
{
	struct noise_skb_cb *cb = NOISE_CB(skb);
	struct noise_keypair *kp = cb->kp;
	unsigned int plen = skb->len, padded, trailer_len;
	/* WireGuard: no associated data, the sg starts after the header. */
	unsigned int ad = !kp->framing || kp->framing->data_ad ?
			  sizeof(struct noise_msg_transport) : 0;
	unsigned int skip = sizeof(struct noise_msg_transport) - ad;
	struct noise_msg_transport *h;
	u64 t0 = noise_stage_start();
	struct sk_buff *trailer;
	int nfrags, nsg, err;

	padded = ALIGN(plen, NOISE_PADDING);
	if (padded > cb->mtu)
		padded = max(plen, cb->mtu);
	trailer_len = padded - plen + NOISE_TAG_LEN;
	nfrags = skb_cow_data(skb, trailer_len, &trailer);
	if (unlikely(nfrags < 0 || nfrags > NOISE_MAX_SG))
		return -ENOMEM;
	memset(pskb_put(skb, trailer, trailer_len), 0, trailer_len);
	h = skb_push(skb, sizeof(*h));
	h->h.type = NOISE_MSG_TRANSPORT;
	h->h.version = NOISE_WIRE_VERSION;
	h->h.msgno = 0;
	h->h.reserved = 0;
	if (kp->framing)
		kp->framing->data_header((u8 *)&h->h);
	h->receiver_index = kp->remote_index;
	h->counter = cpu_to_le64(cb->nonce);
	sg_init_table(s->sg, nfrags);
	nsg = skb_to_sgvec(skb, s->sg, skip, skb->len - skip);
	if (unlikely(nsg < 0))
		return nsg;
	t0 = noise_stage_next(NOISE_STAGE_TX_PREPARE, t0, 1);
	err = noise_cipher_encrypt_async_at(kp->send, s->req[noise_kp_cipher(kp)],
					    cb->nonce, s->sg, ad, padded, done, data);
	noise_stage_end(NOISE_STAGE_TX_ENCRYPT, t0, 1);
	return err;
}

/**
 * noise_tx_send_list() - send what noise_send_staged() encrypted inline.
 * @peer: the peer (held by the caller).
 * @list: encrypted messages in nonce order, each holding a keypair
 *	reference; emptied (messages and references consumed).
 *
 * Runs of equal size (the last of a run may be shorter) leave as one UDP
 * GSO skb each when noise_socket_gso_ok() (socket.c: module parameter
 * udp_gso), else one datagram per message; counters and timers as for one.
 * Context: softirq or BH disabled.
 */
static void noise_tx_send_list(struct noise_peer *peer, struct sk_buff_head *list)
{
	unsigned int n, inner, total, size;
	struct sk_buff_head run;
	struct sk_buff *skb;
	bool gso;
	int err;
	u64 t0;

	if (skb_queue_empty(list))
		return;
	gso = skb_queue_len(list) > 1 && noise_socket_gso_ok();
	__skb_queue_head_init(&run);
	while ((skb = skb_peek(list))) {
		n = 0;
		inner = 0;
		total = 0;
		size = skb->len;
		while ((skb = skb_peek(list))) {
			if (n && !noise_socket_gso_fits(skb, n, total, size))
				break;
			__skb_unlink(skb, list);
			__skb_queue_tail(&run, skb);
			inner += NOISE_CB(skb)->inner_len;
			total += skb->len;
			noise_keypair_put(NOISE_CB(skb)->kp);
			n++;
			/* A short one ends the run; so does one we cannot chain. */
			if (!gso || skb->len < size ||
			    !noise_socket_gso_fits(skb, 0, 0, size))
				break;
		}
		t0 = noise_stage_start();
		err = noise_socket_send_run(peer, &run);
		noise_stage_end(NOISE_STAGE_TX_UDP, t0, n);
		if (err)
			continue;
		noise_timers_any_packet_sent(peer);
		if (inner)
			noise_timers_data_sent(peer);
	}
}

static void noise_tx_send(struct sk_buff *skb)
{
	struct noise_keypair *kp = NOISE_CB(skb)->kp;
	struct noise_peer *peer = kp->entry.peer;
	unsigned int len = NOISE_CB(skb)->inner_len;
	u64 t0 = noise_stage_start();
	int err;

	skb->ip_summed = CHECKSUM_NONE;
	err = noise_socket_send_skb(peer, skb);
	noise_stage_end(NOISE_STAGE_TX_UDP, t0, 1);
	if (likely(!err)) {
		noise_timers_any_packet_sent(peer);
		if (len)
			noise_timers_data_sent(peer);
	}
	noise_keypair_put(kp);
}

/* Drop what waits in peer->tx_queue (peer removal, device down). */
void noise_tx_queue_purge(struct noise_peer *peer)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&peer->tx_queue))) {
		noise_keypair_put(NOISE_CB(skb)->kp);
		kfree_skb(skb);
	}
}

/* Send the head of peer->tx_queue while it is encrypted (in order). */
void noise_tx_work(struct work_struct *work)
{
	struct noise_peer *peer = container_of(work, struct noise_peer, tx_work);
	struct sk_buff *skb;
	u8 state;

	local_bh_disable();
	while ((skb = noise_queue_take_done(&peer->tx_queue, &state))) {
		if (state == NOISE_CB_DONE) {
			noise_tx_send(skb);
		} else {
			noise_keypair_put(NOISE_CB(skb)->kp);
			kfree_skb(skb);
		}
	}
	local_bh_enable();
	noise_peer_put(peer);
}

/**
 * noise_tx_finish() - an encryption ended.
 * @skb: the packet.
 * @err: 0 or the error.
 * @inline_ctx: it ran inline: send now; else mark it for the in-order flush.
 *
 * Context: softirq or BH disabled.
 */
static void noise_tx_finish(struct sk_buff *skb, int err, bool inline_ctx)
{
	struct noise_keypair *kp = NOISE_CB(skb)->kp;
	struct noise_peer *peer = kp->entry.peer;

	if (inline_ctx) {
		if (likely(!err)) {
			noise_tx_send(skb);
		} else {
			noise_count_drop(peer->nd, peer, NOISE_DROP_NO_KEY);
			noise_keypair_put(kp);
			kfree_skb(skb);
		}
		return;
	}
	/* Publish the ciphertext before the state (noise_tx_work()). */
	smp_store_release(&NOISE_CB(skb)->state, err ? NOISE_CB_DEAD : NOISE_CB_DONE);
	noise_peer_get(peer);
	if (!noise_queue_peer_work(peer, &peer->tx_work))
		noise_peer_put(peer);
}

/* Stage @skb on @peer (bounded: the oldest goes). Context: BH disabled. */
static void noise_stage(struct noise_peer *peer, struct sk_buff *skb)
{
	struct sk_buff *old = NULL;

	spin_lock_bh(&peer->staged.lock);
	if (skb_queue_len(&peer->staged) >= NOISE_MAX_STAGED)
		old = __skb_dequeue(&peer->staged);
	__skb_queue_tail(&peer->staged, skb);
	spin_unlock_bh(&peer->staged.lock);
	if (old) {
		noise_count_drop(peer->nd, peer, NOISE_DROP_NO_KEY);
		kfree_skb(old);
	}
}

/* An empty transport message (keepalive). Context: BH disabled. */
void noise_send_keepalive(struct noise_peer *peer)
{
	struct sk_buff *skb;

	if (!skb_queue_empty(&peer->staged))
		goto send;
	skb = alloc_skb(NOISE_SKB_HEADROOM + NOISE_TAG_LEN + NOISE_PADDING, GFP_ATOMIC);
	if (unlikely(!skb))
		return;
	skb_reserve(skb, NOISE_SKB_HEADROOM);
	skb->dev = peer->nd->dev;
	NOISE_CB(skb)->mtu = peer->nd->dev->mtu;
	NOISE_CB(skb)->inner_len = 0;
	noise_stage(peer, skb);
send:
	noise_send_staged(peer);
}
EXPORT_SYMBOL_NS_GPL(noise_send_keepalive, NOISE_INTERNAL);

static int noise_dst_of(struct sk_buff *skb, int *family, const void **addr)
{
	if (skb->protocol == htons(ETH_P_IP) && pskb_network_may_pull(skb, sizeof(struct iphdr))) {
		*family = AF_INET;
		*addr = &ip_hdr(skb)->daddr;
		return 0;
	}
	if (skb->protocol == htons(ETH_P_IPV6) &&
	    pskb_network_may_pull(skb, sizeof(struct ipv6hdr))) {
		*family = AF_INET6;
		*addr = &ipv6_hdr(skb)->daddr;
		return 0;
	}
	return -EPROTONOSUPPORT;
}

static void noise_unreachable(struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		icmp_ndo_send(skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH, 0);
	else if (skb->protocol == htons(ETH_P_IPV6))
		icmpv6_ndo_send(skb, ICMPV6_DEST_UNREACH, ICMPV6_ADDR_UNREACH, 0);
}

/* Segment once, resolve checksums, stage; how many were staged. */
static unsigned int noise_xmit_stage(struct noise_peer *peer, struct sk_buff *skb,
				     unsigned int mtu)
{
	struct sk_buff *segs, *next;
	unsigned int n = 0;

	if (skb_is_gso(skb)) {
		segs = skb_gso_segment(skb, 0);
		if (IS_ERR_OR_NULL(segs)) {
			kfree_skb(skb);
			return 0;
		}
		consume_skb(skb);
		skb = segs;
	}
	skb_list_walk_safe(skb, skb, next) {
		skb_mark_not_on_list(skb);
		if (unlikely((skb->ip_summed == CHECKSUM_PARTIAL &&
			      skb_checksum_help(skb)) ||
			     skb_cow_head(skb, NOISE_SKB_HEADROOM))) {
			kfree_skb(skb);
			continue;
		}
		skb_dst_drop(skb);
		NOISE_CB(skb)->mtu = mtu;
		NOISE_CB(skb)->inner_len = skb->len;
		noise_stage(peer, skb);
		n++;
	}
	return n;
}

/**
 * noise_xmit() - ndo_start_xmit of a noise device.
 * @skb: an IPv4 or IPv6 packet.
 * @dev: the device.
 *
 * Context: softirq / BH disabled (the core transmit path).
 * Return: NETDEV_TX_OK (the skb is always consumed).
 */
netdev_tx_t noise_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct noise_device *nd = netdev_priv(dev);
	u64 t0 = noise_stage_start();
	struct noise_peer *peer;
	unsigned int mtu, n;
	const void *addr;
	int family;

	if (unlikely(noise_dst_of(skb, &family, &addr))) {
		noise_count_drop(nd, NULL, NOISE_DROP_INNER);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	rcu_read_lock_bh();
	peer = noise_peer_get_maybe_zero(noise_allowedips_lookup(&nd->aips, family, addr));
	rcu_read_unlock_bh();
	if (unlikely(!peer || !READ_ONCE(peer->endpoint.addr.sa_family))) {
		noise_count_drop(nd, peer, peer ? NOISE_DROP_NO_KEY : NOISE_DROP_NO_PEER);
		noise_unreachable(skb);
		kfree_skb(skb);
		noise_peer_put(peer);
		return NETDEV_TX_OK;
	}
	mtu = skb_valid_dst(skb) ? dst_mtu(skb_dst(skb)) : dev->mtu;
	t0 = noise_stage_next(NOISE_STAGE_TX_ROUTE, t0, 1);
	n = noise_xmit_stage(peer, skb, mtu);
	noise_stage_end(NOISE_STAGE_TX_SEGMENT, t0, n);
	if (n)
		noise_send_staged(peer);
	noise_peer_put(peer);
	return NETDEV_TX_OK;
}

/* What the crypto queues run for a packet we send (queueing.h). */
const struct noise_crypt_ops noise_tx_crypt = {
	.crypt = noise_encrypt_skb,
	.finish = noise_tx_finish,
};
