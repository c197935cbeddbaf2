// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the receive path. noise_receive() (the UDP sockets'
 * encap_rcv, softirq) checks type and length before any crypto; handshake
 * messages pass the defences (MAC1; under load MAC2 or a cookie reply, then
 * the rate limiter: Documentation/cookies.rst) and go to the device's
 * handshake work, cookie replies to the peer's cookie maker, transport
 * messages are looked up by receiver index, checked against the replay
 * window, decrypted (queueing.c), then delivered: the counter is marked
 * seen, the inner source checked against the peer's allowed IPs and the
 * packet handed to GRO. Inline (one CPU) delivery follows the decryption
 * at once; with the per-CPU workers each packet waits in its peer's
 * rx_queue, in arrival order, and noise_rx_work() delivers the head while
 * it is decrypted, so a peer's packets go up in the order they came.
 */

#include <linux/ip.h>
#include <linux/module.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip_tunnels.h>
#include <net/udp.h>
#include "device.h"
#include "stats.h"
#include "peer.h"
#include "queueing.h"
#include "socket.h"
#include "receive.h"
#include "send.h"
#include "hs_glue.h"
#include "timers.h"
#include "timing.h"
#include "wg.h"

/* Strip to the UDP payload; false if the datagram is malformed. */
static bool noise_rx_pull_udp(struct sk_buff *skb)
{
	struct udphdr *udp;
	unsigned int off, len;

	if (skb_transport_header(skb) < skb->head ||
	    skb_transport_header(skb) + sizeof(*udp) > skb_tail_pointer(skb))
		return false;
	udp = udp_hdr(skb);
	off = (u8 *)udp - skb->data;
	if (off > U16_MAX || off + sizeof(*udp) > skb->len)
		return false;
	len = ntohs(udp->len);
	if (len < sizeof(*udp) || len > skb->len - off)
		return false;
	len -= sizeof(*udp);
	off += sizeof(*udp);
	if (!pskb_may_pull(skb, off + sizeof(struct noise_msg_header)) ||
	    pskb_trim(skb, off + len))
		return false;
	skb_pull(skb, off);
	return skb->len == len;
}

/**
 * noise_msg_check() - accept or refuse a message by type and length alone.
 * @p: the device's protocol.
 * @msg: the UDP payload (at least min(@len, 12) bytes readable).
 * @len: its length.
 * @type: out: the message type when accepted.
 *
 * Context: any; no crypto.
 * Return: NOISE_MSG_OK, or the drop reason.
 */
enum noise_drop noise_msg_check(const struct noise_tunnel_proto *p, const u8 *msg,
				unsigned int len, u8 *type)
{
	const struct noise_msg_header *h = (const void *)msg;

	if (len < sizeof(*h))
		return NOISE_DROP_BAD_LENGTH;
	if (h->version != NOISE_WIRE_VERSION)
		return NOISE_DROP_BAD_TYPE;
	*type = h->type;
	switch (h->type) {
	case NOISE_MSG_HANDSHAKE:
		if (h->msgno < 1 || h->msgno > p->info.num_msgs)
			return NOISE_DROP_BAD_TYPE;
		return len == p->msg_len[h->msgno] ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_MSG_COOKIE_REPLY:
		return len == sizeof(struct noise_msg_cookie_reply) ? NOISE_MSG_OK :
		       NOISE_DROP_BAD_LENGTH;
	case NOISE_MSG_TRANSPORT:
		return len >= NOISE_TRANSPORT_MIN_LEN ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	default:
		return NOISE_DROP_BAD_TYPE;
	}
}
EXPORT_SYMBOL_NS_GPL(noise_msg_check, NOISE_INTERNAL);

#ifdef NOISE_TESTING
/*
 * Test build only (Documentation/cookies.rst): every device counts as
 * under load, so the cookie path can be exercised without a flood. Read
 * at runtime.
 */
static bool force_under_load;
module_param(force_under_load, bool, 0644);
MODULE_PARM_DESC(force_under_load,
		 "test only: treat every noise device as under handshake load");

static bool noise_rx_forced_load(void)
{
	return READ_ONCE(force_under_load);
}
#else
static bool noise_rx_forced_load(void)
{
	return false;
}
#endif

/**
 * noise_rx_under_load() - is the device's handshake work busy?
 * @nd: the device.
 *
 * Under load when the handshake queue holds NOISE_UNDER_LOAD_QUEUED
 * messages or more, and for one second after it last did (as WireGuard),
 * so the state does not flap with the queue.
 *
 * Context: any.
 * Return: true if handshake messages must prove their source (mac2).
 */
bool noise_rx_under_load(struct noise_device *nd)
{
	unsigned long last;

	if (skb_queue_len(&nd->hs_queue) >= NOISE_UNDER_LOAD_QUEUED) {
		WRITE_ONCE(nd->last_under_load, jiffies ? jiffies : 1);
		return true;
	}
	last = READ_ONCE(nd->last_under_load);
	return (last && time_before(jiffies, last + HZ)) || noise_rx_forced_load();
}

/* Under load and without a valid mac2: a cookie reply to its source. */
static void noise_rx_send_cookie(struct noise_device *nd, struct noise_identity *id,
				 const struct sk_buff *skb, const struct noise_endpoint *ep)
{
	struct noise_msg_cookie_reply r;
	size_t mac_off = skb->len - sizeof(struct noise_msg_macs);

	if (noise_cookie_reply_create(&id->cookie, skb->data, mac_off, &ep->addr,
				      r.nonce, r.encrypted_cookie))
		return;
	if (id->proto.framing) {
		id->proto.framing->cookie_header((u8 *)&r.h);
	} else {
		r.h.type = NOISE_MSG_COOKIE_REPLY;
		r.h.version = NOISE_WIRE_VERSION;
		r.h.msgno = 0;
		r.h.reserved = 0;
	}
	/* Both framings: the sender index is the message's second word. */
	memcpy(&r.receiver_index, skb->data + sizeof(__le32), sizeof(r.receiver_index));
	noise_socket_send_buffer_to(nd, ep, &r, sizeof(r));
}

/*
 * MAC1, and under load MAC2 and the rate limiter (noise_cookie_admit()),
 * before anything else is done with the message. Return: the drop reason,
 * or NOISE_MSG_OK to queue it for the handshake work.
 */
static enum noise_drop noise_rx_admit(struct noise_device *nd, struct noise_identity *id,
				      struct sk_buff *skb)
{
	size_t mac_off = skb->len - sizeof(struct noise_msg_macs);
	struct noise_endpoint ep;
	bool under_load;

	if (noise_endpoint_from_skb(&ep, skb))
		return NOISE_DROP_HANDSHAKE;
	under_load = noise_rx_under_load(nd);
	switch (noise_cookie_admit(&id->cookie, &nd->ratelimiter, skb->data, mac_off,
				   &ep.addr, nd->net, under_load)) {
	case NOISE_ADMIT_OK:
		return NOISE_MSG_OK;
	case NOISE_ADMIT_OK_MAC2:
		noise_count_cookie(nd, NULL, NOISE_CE_MAC2_OK);
		return NOISE_MSG_OK;
	case NOISE_ADMIT_BAD_MAC1:
		return NOISE_DROP_MAC1;
	case NOISE_ADMIT_SEND_COOKIE:
		noise_rx_send_cookie(nd, id, skb, &ep);
		return NOISE_DROP_COOKIE;
	case NOISE_ADMIT_RATELIMITED:
		return NOISE_DROP_RATELIMIT;
	}
	return NOISE_DROP_HANDSHAKE;
}

/*
 * One of our even messages (a responder's, to us as initiator): MAC1 is
 * keyed by its sender's static key, so the receiver index must name a
 * handshake (or, for a final message again, a session) of ours with a
 * known peer; then, under load, the source's rate. Before any queueing
 * or DH, as for the messages to a responder.
 * Context: softirq, RCU read side (BH).
 */
static enum noise_drop noise_rx_admit_even(struct noise_device *nd, struct sk_buff *skb)
{
	const struct noise_msg_handshake *h = (const void *)skb->data;
	size_t mac_off = skb->len - sizeof(struct noise_msg_macs);
	struct noise_endpoint ep;
	struct noise_index *e;

	e = noise_index_lookup(&nd->index, h->receiver_index, NOISE_INDEX_HANDSHAKE);
	if (!e)
		e = noise_index_lookup(&nd->index, h->receiver_index, NOISE_INDEX_KEYPAIR);
	if (!e || !e->peer)
		return NOISE_DROP_UNKNOWN_INDEX;
	if (!noise_cookie_maker_mac1_ok(&e->peer->cookie, skb->data, mac_off))
		return NOISE_DROP_MAC1;
	if (!noise_rx_under_load(nd))
		return NOISE_MSG_OK;
	if (noise_endpoint_from_skb(&ep, skb))
		return NOISE_DROP_HANDSHAKE;
	if (!noise_ratelimiter_allow(&nd->ratelimiter, &ep.addr, nd->net))
		return NOISE_DROP_RATELIMIT;
	return NOISE_MSG_OK;
}

/*
 * A handshake message (type and length checked): the defences, then the
 * work. Every message passes MAC1, and under load MAC2 (or a cookie
 * reply) and the rate limiter, here in softirq before it is queued:
 * messages to a responder (all of WireGuard's; our odd ones) against our
 * key (noise_rx_admit()), our even ones against their sender's
 * (noise_rx_admit_even()).
 * Context: softirq, RCU read side (BH).
 */
static void noise_rx_handshake(struct noise_device *nd, struct noise_identity *id,
			       struct sk_buff *skb)
{
	const struct noise_framing_ops *f = id->proto.framing;
	unsigned int msgno = ((const struct noise_msg_header *)skb->data)->msgno;
	enum noise_drop why = NOISE_DROP_HANDSHAKE;
	u64 t0 = noise_stage_start();

	if (skb_linearize(skb) || !id->has_key)
		goto drop;
	if (f || (msgno & 1))
		why = noise_rx_admit(nd, id, skb);
	else
		why = noise_rx_admit_even(nd, skb);
	if (why != NOISE_MSG_OK)
		goto drop;
	why = NOISE_DROP_HANDSHAKE;
	NOISE_CB(skb)->wire_len = skb->len;	/* before the framing's rewrite */
	if (f && f->rx_handshake(nd, id, skb))
		goto drop;
	why = NOISE_DROP_HS_QUEUE;
	if (skb_queue_len(&nd->hs_queue) >= NOISE_MAX_QUEUED_HANDSHAKES)
		goto drop;
	NOISE_CB(skb)->proto_gen = id->proto_gen;
	skb_queue_tail(&nd->hs_queue, skb);
	queue_work(nd->hs_wq, &nd->hs_work);
	noise_stage_end(NOISE_STAGE_HS_ADMIT, t0, 1);
	return;
drop:
	noise_count_drop(nd, NULL, why);
	kfree_skb(skb);
	noise_stage_end(NOISE_STAGE_HS_ADMIT, t0, 1);
}

/* The peer whose handshake (or fresh session) has index @index. */
static struct noise_peer *noise_rx_peer_by_index(struct noise_device *nd, __le32 index)
{
	struct noise_peer *peer = NULL;
	struct noise_index *e;

	rcu_read_lock_bh();
	e = noise_index_lookup(&nd->index, index, NOISE_INDEX_HANDSHAKE);
	if (!e)
		e = noise_index_lookup(&nd->index, index, NOISE_INDEX_KEYPAIR);
	if (e && e->peer)
		peer = noise_peer_get_maybe_zero(e->peer);
	rcu_read_unlock_bh();
	return peer;
}

/*
 * A cookie reply (either framing: same layout after the first word) to our
 * last message to the peer its index names: the peer's maker decrypts it
 * with the mac1 we sent as associated data and keeps the cookie; the next
 * retransmission (1 s) carries mac2, as WireGuard does.
 */
static void noise_rx_cookie_reply(struct noise_device *nd, struct sk_buff *skb)
{
	struct noise_msg_cookie_reply *r;
	struct noise_peer *peer;
	int err;

	if (skb_linearize(skb)) {
		noise_count_drop(nd, NULL, NOISE_DROP_BAD_LENGTH);
		kfree_skb(skb);
		return;
	}
	r = (void *)skb->data;
	peer = noise_rx_peer_by_index(nd, r->receiver_index);
	if (!peer) {
		noise_count_drop(nd, NULL, NOISE_DROP_UNKNOWN_INDEX);
		kfree_skb(skb);
		return;
	}
	err = noise_cookie_reply_consume(&peer->cookie, r->nonce, r->encrypted_cookie);
	if (err)
		noise_count_drop(nd, peer, err == -EBADMSG ? NOISE_DROP_AUTH :
				 NOISE_DROP_HANDSHAKE);
	else
		noise_count_cookie(nd, peer, NOISE_CE_REPLY);
	noise_peer_put(peer);
	consume_skb(skb);
}

/* A transport message: index, window, age; then decrypt. */
static void noise_rx_transport(struct noise_device *nd, struct sk_buff *skb, u64 t0)
{
	const struct noise_msg_transport *h;
	struct noise_keypair *kp = NULL;
	struct noise_index *e;
	enum noise_drop why;
	u64 n;

	if (!pskb_may_pull(skb, sizeof(*h))) {
		why = NOISE_DROP_BAD_LENGTH;
		goto drop;
	}
	h = (const void *)skb->data;
	rcu_read_lock_bh();
	e = noise_index_lookup(&nd->index, h->receiver_index, NOISE_INDEX_KEYPAIR);
	if (e)
		kp = noise_keypair_get(container_of(e, struct noise_keypair, entry));
	rcu_read_unlock_bh();
	why = NOISE_DROP_UNKNOWN_INDEX;
	if (!kp)
		goto drop;
	n = le64_to_cpu(h->counter);
	why = NOISE_DROP_REPLAY;
	if (n >= NOISE_REJECT_AFTER_MESSAGES || !noise_replay_check(&kp->replay, n))
		goto drop_kp;
	why = NOISE_DROP_NO_KEY;
	if (get_jiffies_64() - kp->birth >= noise_scaled(NOISE_REJECT_AFTER_TIME))
		goto drop_kp;
	NOISE_CB(skb)->kp = kp;
	NOISE_CB(skb)->nonce = n;
	NOISE_CB(skb)->dir = NOISE_CB_RX;
	NOISE_CB(skb)->queued = false;
	NOISE_CB(skb)->state = NOISE_CB_PENDING;
	noise_stage_end(NOISE_STAGE_RX_PARSE, t0, 1);
	noise_crypt_dispatch(nd, skb, NULL);
	return;
drop_kp:
	noise_count_drop(nd, kp->entry.peer, why);
	noise_keypair_put(kp);
	kfree_skb(skb);
	return;
drop:
	noise_count_drop(nd, NULL, why);
	kfree_skb(skb);
}

/* A datagram for @nd (data at the UDP header). Context: softirq. */
static int noise_receive_nd(struct noise_device *nd, struct sk_buff *skb)
{
	u64 t0 = noise_stage_start();
	struct noise_identity *id;
	enum noise_drop why;
	u8 type = 0;

	if (unlikely(!nd)) {
		kfree_skb(skb);
		return 0;
	}
	if (unlikely(!noise_rx_pull_udp(skb))) {
		noise_count_drop(nd, NULL, NOISE_DROP_BAD_LENGTH);
		kfree_skb(skb);
		return 0;
	}
	rcu_read_lock_bh();
	id = rcu_dereference_bh(nd->ident);
	if (!pskb_may_pull(skb, min_t(unsigned int, skb->len,
				      sizeof(struct noise_msg_handshake))))
		why = NOISE_DROP_BAD_LENGTH;
	else if (id->proto.framing)
		why = id->proto.framing->rx_check(skb->data, skb->len, &type);
	else
		why = noise_msg_check(&id->proto, skb->data, skb->len, &type);
	if (likely(why == NOISE_MSG_OK && type == NOISE_MSG_TRANSPORT)) {
		rcu_read_unlock_bh();
		noise_rx_transport(nd, skb, t0);
		return 0;
	}
	if (why == NOISE_MSG_OK && type == NOISE_MSG_HANDSHAKE) {
		noise_rx_handshake(nd, id, skb);
		rcu_read_unlock_bh();
		return 0;
	}
	rcu_read_unlock_bh();
	if (why == NOISE_MSG_OK && type == NOISE_MSG_COOKIE_REPLY) {
		noise_rx_cookie_reply(nd, skb);
		return 0;
	}
	noise_count_drop(nd, NULL, why == NOISE_MSG_OK ? NOISE_DROP_HANDSHAKE : why);
	kfree_skb(skb);
	return 0;
}

/**
 * noise_receive() - encap_rcv of the device's UDP sockets.
 * @sk: the socket (sk_user_data: the device).
 * @skb: the datagram, data at the UDP header.
 *
 * Context: softirq.
 * Return: 0 (consumed).
 */
int noise_receive(struct sock *sk, struct sk_buff *skb)
{
	return noise_receive_nd(rcu_dereference_sk_user_data(sk), skb);
}

#ifdef NOISE_TESTING
/**
 * noise_receive_test() - KUnit only (test build): a datagram into @nd's receive path.
 * @nd: the device.
 * @skb: as the UDP socket hands it over: network and transport headers
 *	set, data at the UDP header, skb->protocol the outer family.
 *
 * Runs what encap_rcv runs, in the same context (BH off, RCU read side).
 * Context: process.
 * Return: 0 (consumed).
 */
int noise_receive_test(struct noise_device *nd, struct sk_buff *skb)
{
	int ret;

	local_bh_disable();
	rcu_read_lock();
	ret = noise_receive_nd(nd, skb);
	rcu_read_unlock();
	local_bh_enable();
	return ret;
}
EXPORT_SYMBOL_NS_GPL(noise_receive_test, NOISE_INTERNAL);
#endif

/* Decrypt in place; the header is the associated data. Never sleeps. */
static int noise_decrypt_skb(struct sk_buff *skb, struct noise_crypt_slot *s,
			     noise_crypt_done_t done, void *data)
{
	struct noise_skb_cb *cb = NOISE_CB(skb);
	struct noise_keypair *kp = cb->kp;
	/* WireGuard: no associated data, the sg starts after the header. */
	unsigned int ad = !kp->framing || kp->framing->data_ad ?
			  sizeof(struct noise_msg_transport) : 0;
	unsigned int skip = sizeof(struct noise_msg_transport) - ad;
	u64 t0 = noise_stage_start();
	struct sk_buff *trailer;
	int nfrags, nsg, err;

	nfrags = skb_cow_data(skb, 0, &trailer);
	if (unlikely(nfrags < 0 || nfrags > NOISE_MAX_SG))
		return -ENOMEM;
	sg_init_table(s->sg, nfrags);
	nsg = skb_to_sgvec(skb, s->sg, skip, skb->len - skip);
	if (unlikely(nsg < 0))
		return nsg;
	t0 = noise_stage_next(NOISE_STAGE_RX_PREPARE, t0, 1);
	err = noise_cipher_decrypt_async_at(kp->recv, s->req[noise_kp_cipher(kp)],
					    cb->nonce, s->sg, ad,
					    skb->len - sizeof(struct noise_msg_transport),
					    done, data);
	noise_stage_end(NOISE_STAGE_RX_DECRYPT, t0, 1);
	return err;
}

/*
 * The inner packet: its length, family and source; false if not IP. Its
 * header is pulled into the linear part first: after skb_cow_data() it may
 * still be in a frag_list (a reassembled datagram), and the head past its
 * tail is not the packet.
 */
static bool noise_rx_inner(struct sk_buff *skb, int *family, const void **src)
{
	unsigned int len;

	if (!pskb_network_may_pull(skb, sizeof(struct iphdr)))
		return false;
	if (ip_hdr(skb)->version == 4) {
		len = ntohs(ip_hdr(skb)->tot_len);
		if (len < ip_hdr(skb)->ihl * 4 || len < sizeof(struct iphdr) ||
		    len > skb->len || pskb_trim(skb, len))
			return false;
		skb->protocol = htons(ETH_P_IP);
		*family = AF_INET;
		*src = &ip_hdr(skb)->saddr;
		return true;
	}
	if (ipv6_hdr(skb)->version == 6 &&
	    pskb_network_may_pull(skb, sizeof(struct ipv6hdr))) {
		len = ntohs(ipv6_hdr(skb)->payload_len) + sizeof(struct ipv6hdr);
		if (len > skb->len || pskb_trim(skb, len))
			return false;
		skb->protocol = htons(ETH_P_IPV6);
		*family = AF_INET6;
		*src = &ipv6_hdr(skb)->saddr;
		return true;
	}
	return false;
}

static void noise_rx_reset(struct sk_buff *skb, struct net_device *dev)
{
	skb_scrub_packet(skb, true);
	memset(&skb->headers, 0, sizeof(skb->headers));
	skb->dev = dev;
	skb->queue_mapping = 0;
	skb->nohdr = 0;
	skb->peeked = 0;
	skb->mac_len = 0;
	skb->hdr_len = skb_headroom(skb);
	skb_reset_mac_header(skb);
	skb_reset_network_header(skb);
	skb_reset_transport_header(skb);
	skb_reset_inner_headers(skb);
	skb->pkt_type = PACKET_HOST;
	skb->ip_summed = CHECKSUM_UNNECESSARY;
	skb->csum_level = ~0;
}

/* After authentication: window, session confirmation, roaming. */
static bool noise_rx_authenticated(struct sk_buff *skb, struct noise_keypair *kp,
				   struct noise_peer *peer)
{
	struct noise_endpoint ep;

	if (!noise_replay_update(&kp->replay, NOISE_CB(skb)->nonce)) {
		noise_count_drop(peer->nd, peer, NOISE_DROP_REPLAY);
		return false;
	}
	if (!noise_endpoint_from_skb(&ep, skb))
		noise_peer_update_endpoint(peer, &ep);
	if (unlikely(!READ_ONCE(kp->heard)))
		WRITE_ONCE(kp->heard, true);
	if (unlikely(!READ_ONCE(kp->confirmed)) && noise_keypair_confirm(peer, kp)) {
		if (kp->deferred)	/* the peer proved itself: hs_glue.c */
			noise_glue_session_confirmed(peer);
		noise_send_staged(peer);
	}
	noise_timers_any_packet_received(peer, kp);
	return true;
}

/* Why a decryption that failed is dropped: forgery, or no room/memory. */
static enum noise_drop noise_rx_err_reason(int err)
{
	return err == -EBADMSG ? NOISE_DROP_AUTH : NOISE_DROP_NO_KEY;
}

/* Deliver or drop a packet whose decryption ended with @err. */
static void noise_rx_deliver_one(struct sk_buff *skb, int err)
{
	struct noise_keypair *kp = NOISE_CB(skb)->kp;
	struct noise_peer *peer = kp->entry.peer;
	struct noise_device *nd = peer->nd;
	unsigned int wire = skb->len;
	const void *src;
	int family;

	if (unlikely(err)) {
		noise_count_drop(nd, peer, noise_rx_err_reason(err));
		goto free;
	}
	if (!noise_rx_authenticated(skb, kp, peer))
		goto free;
	skb_pull(skb, sizeof(struct noise_msg_transport));
	if (pskb_trim(skb, skb->len - NOISE_TAG_LEN))
		goto free;
	if (!skb->len) {	/* keepalive */
		noise_count_rx(nd, peer, 1, wire);
		goto free_quiet;
	}
	noise_rx_reset(skb, nd->dev);
	if (!noise_rx_inner(skb, &family, &src)) {
		noise_count_drop(nd, peer, NOISE_DROP_INNER);
		goto free;
	}
	rcu_read_lock_bh();
	if (noise_allowedips_lookup(&nd->aips, family, src) != peer) {
		rcu_read_unlock_bh();
		noise_count_drop(nd, peer, NOISE_DROP_SOURCE);
		goto free;
	}
	rcu_read_unlock_bh();
	noise_count_rx(nd, peer, 1, wire);
	noise_timers_data_received(peer);
	gro_cells_receive(&nd->gro, skb);
	noise_keypair_put(kp);
	return;
free:
	kfree_skb(skb);
	noise_keypair_put(kp);
	return;
free_quiet:
	consume_skb(skb);
	noise_keypair_put(kp);
}

static void noise_rx_deliver(struct sk_buff *skb, int err)
{
	u64 t0 = noise_stage_start();

	noise_rx_deliver_one(skb, err);
	noise_stage_end(NOISE_STAGE_RX_DELIVER, t0, 1);
}

/**
 * noise_rx_finish() - a decryption ended (noise_rx_crypt.finish).
 * @skb: the packet (data at our transport header).
 * @err: 0, -EBADMSG (forgery) or another error.
 * @inline_ctx: unused (the queued flag tells the two cases apart).
 *
 * Inline (not on the peer's rx_queue): deliver or drop it now. Queued: mark
 * it done (or dead, the drop counted here) and kick the peer's rx_work,
 * which delivers the queue's head while it is marked. @skb may be gone
 * when this returns.
 * Context: softirq or BH disabled.
 */
static void noise_rx_finish(struct sk_buff *skb, int err, bool inline_ctx)
{
	struct noise_peer *peer = NOISE_CB(skb)->kp->entry.peer;

	if (!NOISE_CB(skb)->queued) {
		noise_rx_deliver(skb, err);
		return;
	}
	if (unlikely(err))
		noise_count_drop(peer->nd, peer, noise_rx_err_reason(err));
	/* The queue holds the skb, and the skb its keypair; not the peer. */
	noise_peer_get(peer);
	/* Publish the plaintext before the state (noise_rx_work()). */
	smp_store_release(&NOISE_CB(skb)->state, err ? NOISE_CB_DEAD : NOISE_CB_DONE);
	if (!noise_queue_peer_work(peer, &peer->rx_work))
		noise_peer_put(peer);
}

static void noise_rx_free(struct sk_buff *skb)
{
	noise_keypair_put(NOISE_CB(skb)->kp);
	kfree_skb(skb);
}

/* Packets delivered by noise_rx_work() between two chances to reschedule. */
#define NOISE_RX_BATCH	64

/**
 * noise_rx_work() - a peer's rx_work: deliver its received packets in order.
 * @work: &noise_peer.rx_work (the work holds a reference to the peer).
 *
 * Delivers the head of peer->rx_queue while its decryption is over, so the
 * peer's packets go up (and its replay window moves) in the order they
 * arrived. One instance runs at a time (a work item does not run
 * concurrently with itself); noise_rx_finish() queues it again for any
 * packet marked after it looked.
 * Context: process (the crypt workqueue); takes BH off while it delivers.
 */
void noise_rx_work(struct work_struct *work)
{
	struct noise_peer *peer = container_of(work, struct noise_peer, rx_work);
	struct sk_buff *skb;
	unsigned int n = 0;
	u8 state;

	local_bh_disable();
	while ((skb = noise_queue_take_done(&peer->rx_queue, &state))) {
		if (state == NOISE_CB_DONE)
			noise_rx_deliver(skb, 0);
		else
			noise_rx_free(skb);
		if (++n % NOISE_RX_BATCH == 0) {
			local_bh_enable();	/* GRO cells run here */
			cond_resched();
			local_bh_disable();
		}
	}
	local_bh_enable();
	noise_peer_put(peer);
}

/**
 * noise_rx_queue_purge() - drop what waits in a peer's rx_queue.
 * @peer: the peer (being removed, or its device going down).
 *
 * Call once no worker holds any of its packets (the crypt workqueue
 * flushed) and none can come in (peer dead or sockets closed). rx_work,
 * pending or running, is cancelled or waited for first, so nothing of the
 * peer is delivered after this.
 * Context: process; may sleep.
 */
void noise_rx_queue_purge(struct noise_peer *peer)
{
	struct sk_buff *skb;

	if (cancel_work_sync(&peer->rx_work))
		noise_peer_put(peer);	/* the reference of the queued work */
	while ((skb = skb_dequeue(&peer->rx_queue)))
		noise_rx_free(skb);
}

/* The device's handshake work: everything queued by noise_rx_handshake(). */
void noise_receive_handshakes(struct work_struct *work)
{
	struct noise_device *nd = container_of(work, struct noise_device, hs_work);
	struct sk_buff *skb;
	u64 t0;

	while ((skb = skb_dequeue(&nd->hs_queue))) {
		mutex_lock(&nd->hs_lock);
		t0 = noise_stage_start();
		noise_glue_process(nd, skb);
		noise_stage_end(NOISE_STAGE_HS_PROCESS, t0, 1);
		mutex_unlock(&nd->hs_lock);
		kfree_skb(skb);
		cond_resched();
	}
}

/* What the crypto queues run for a packet we received (queueing.h). */
const struct noise_crypt_ops noise_rx_crypt = {
	.crypt = noise_decrypt_skb,
	.finish = noise_rx_finish,
};
