// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the handshake glue (noise_glue_*), the tunnel's side of the
 * engine's handshakes (handshake.c). Builds and parses our handshake
 * framing around the engine's Noise messages, finds the peer (by static
 * key through the engine's remote_static_cb, or by the message-1 hint),
 * resolves simultaneous initiation, retransmits, and turns a finished
 * handshake into a keypair.
 *
 * Everything here runs in process context under nd->hs_lock, from the
 * device's handshake work (received messages) or a peer's hs_work
 * (initiation, retransmission, notifications).
 */

#include <crypto/algapi.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include "device.h"
#include "stats.h"
#include "peer.h"
#include "socket.h"
#include "send.h"
#include "hs_glue.h"
#include "timers.h"
#include "timing.h"
#include "wg.h"

static struct noise_identity *noise_glue_ident(struct noise_device *nd)
{
	return rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->hs_lock));
}

/*
 * The MACs of a message we send (Documentation/cookies.rst). Ours are
 * keyed by the responder's static key in both directions: the initiator's
 * messages with the peer's maker (mac2 with the peer's cookie, if it gave
 * us one), the responder's with our own checker's key (mac2 zero: nobody
 * asks for it). A profile's (WireGuard) are keyed by the receiver's key:
 * always the peer's maker, keyed with the profile's labels.
 */
static void noise_glue_macs(struct noise_device *nd, struct noise_peer *peer,
			    bool initiator, u8 *msg, unsigned int len)
{
	struct noise_identity *id = noise_glue_ident(nd);
	const struct noise_framing_ops *f = id->proto.framing;
	size_t mac_off = len - sizeof(struct noise_msg_macs);

	if (f || initiator) {
		if (peer && noise_cookie_add_macs(&peer->cookie, msg, mac_off))
			noise_count_cookie(nd, peer, NOISE_CE_MAC2_SENT);
	} else {
		noise_cookie_checker_add_mac1(&id->cookie, msg, mac_off);
	}
}

/* TAI64N of now: seconds + 2^62 big endian, then nanoseconds big endian. */
static void noise_tai64n(u8 out[NOISE_TIMESTAMP_LEN])
{
	struct timespec64 now;

	ktime_get_real_ts64(&now);
	/* Whole milliseconds only: a timestamp must not reveal fine timing. */
	now.tv_nsec = rounddown(now.tv_nsec, NSEC_PER_MSEC);
	put_unaligned_be64(0x400000000000000aULL + now.tv_sec, out);
	put_unaligned_be32(now.tv_nsec, out + 8);
}

static void noise_glue_free(struct noise_glue_hs *nhs)
{
	if (!nhs)
		return;
	noise_index_remove(&nhs->nd->index, &nhs->entry);
	if (!list_empty(&nhs->anon_node)) {
		list_del_init(&nhs->anon_node);
		nhs->nd->num_anon--;
	}
	noise_handshake_free(nhs->hs);
	/* Readers of the index table may still see the entry. */
	kfree_rcu(nhs, rcu);
}

/* The psks of @peer in token order (missing ones all zero, as WireGuard). */
static void noise_glue_psks(const struct noise_peer *peer, unsigned int n,
			    u8 (*out)[NOISE_PSK_LEN])
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!peer || !peer->num_psks)
			memset(out[i], 0, NOISE_PSK_LEN);
		else
			memcpy(out[i], peer->psks[peer->num_psks == 1 ? 0 : i],
			       NOISE_PSK_LEN);
	}
}

static int noise_glue_remote_static(void *ctx, struct noise_handshake *hs,
				    const u8 *remote_static);

static struct noise_glue_hs *noise_glue_new(struct noise_device *nd, struct noise_peer *peer,
					    enum noise_role role)
{
	struct noise_identity *id = noise_glue_ident(nd);
	struct noise_keys keys = {
		.local_static = id->private_key,
		.local_static_public = id->public_key,
		.remote_static_cb = noise_glue_remote_static,
	};
	u64 t0 = noise_stage_start();
	struct noise_glue_hs *nhs;

	if (peer && !noise_peer_ss_ready(peer))
		return NULL;
	nhs = kzalloc(struct_size(nhs, last_sent, id->proto.max_msg_len), GFP_KERNEL);
	if (!nhs)
		return NULL;
	nhs->last_sent_cap = id->proto.max_msg_len;
	nhs->nd = nd;
	nhs->role = role;
	nhs->next_msgno = 1;
	nhs->started = jiffies;
	INIT_LIST_HEAD(&nhs->anon_node);
	INIT_HLIST_NODE(&nhs->entry.node);
	nhs->entry.type = NOISE_INDEX_HANDSHAKE;
	nhs->entry.peer = peer;
	keys.cb_ctx = nhs;
	if (peer) {
		keys.remote_static = peer->public_key;
		keys.precomputed_ss = peer->ss;
		noise_glue_psks(peer, id->proto.info.num_psks, nhs->psks);
		keys.psks = (const u8 (*)[NOISE_PSK_LEN])nhs->psks;
		keys.num_psks = id->proto.info.num_psks;
	}
	nhs->hs = noise_handshake_new_from(&id->proto.hs_tmpl, role, &keys, GFP_KERNEL);
	memzero_explicit(nhs->psks, sizeof(nhs->psks));
	if (IS_ERR(nhs->hs)) {
		kfree_sensitive(nhs);
		return NULL;
	}
	noise_index_insert(&nd->index, &nhs->entry);
	noise_stage_end(NOISE_STAGE_HS_NEW, t0, 1);
	return nhs;
}

/*
 * Count for the peer what @nhs read and sent so far (stats.c,
 * noise_count_rx()); an anonymous responder keeps it until it is bound.
 */
static void noise_glue_count(struct noise_glue_hs *nhs)
{
	struct noise_peer *peer = nhs->entry.peer;

	if (!peer)
		return;
	if (nhs->wire.rx_n)
		noise_count_rx(nhs->nd, peer, nhs->wire.rx_n, nhs->wire.rx_bytes);
	if (nhs->wire.tx_n)
		noise_count_tx(nhs->nd, peer, nhs->wire.tx_n, nhs->wire.tx_bytes);
	memset(&nhs->wire, 0, sizeof(nhs->wire));
}

/* Send @nhs's last message: the initiator to the peer's endpoint, the
 * responder back to where the message it answers came from.
 */
static void noise_glue_send_last(struct noise_glue_hs *nhs)
{
	struct noise_peer *peer = nhs->entry.peer;
	u64 t0 = noise_stage_start();

	if (nhs->last_sent_at)	/* a resend: a cookie may have come since */
		noise_glue_macs(nhs->nd, peer, nhs->role == NOISE_INITIATOR,
				nhs->last_sent, nhs->last_sent_len);

	if (nhs->role == NOISE_INITIATOR && peer) {
		noise_socket_send_buffer(peer, nhs->last_sent, nhs->last_sent_len);
	} else if (!noise_socket_send_buffer_to(nhs->nd, &nhs->endpoint, nhs->last_sent,
						nhs->last_sent_len)) {
		nhs->wire.tx_n++;
		nhs->wire.tx_bytes += nhs->last_sent_len;
		noise_glue_count(nhs);
	}
	nhs->last_sent_at = jiffies;
	if (peer && !nhs->provisional) {
		peer->last_sent_handshake = jiffies;
		noise_timers_hs_sent(peer);
	}
	noise_stage_end(NOISE_STAGE_HS_SEND, t0, 1);
}

/*
 * A copy of a message we sent may go again because a duplicate of what
 * it answered came: at most twice per retransmission interval, however
 * often a replayer sends the duplicate.
 */
static bool noise_glue_resend_due(unsigned long last)
{
	return !last || time_after_eq(jiffies, last + NOISE_HS_RETRANSMIT / 2);
}

/*
 * The hint of message 1 (wire-format.rst, hinted protocols): our id for
 * @peer encrypted with a key from DH(e, its static key), e being the
 * ephemeral the Noise message at @noise (just written) begins with.
 */
static int noise_glue_hint(struct noise_glue_hs *nhs, struct noise_peer *peer, const u8 *noise)
{
	struct noise_msg_hint *hint = (void *)(noise - sizeof(*hint));
	unsigned int len = noise_glue_ident(nhs->nd)->proto.info.dh_len;
	u8 k[NOISE_MAX_DHLEN];
	int err;

	err = noise_handshake_dh_ephemeral(nhs->hs, peer->public_key, k, sizeof(k));
	if (err >= 0) {
		noise_hint_xor(hint->ct, peer->hint_id, k, noise, len);
		err = 0;
	}
	memzero_explicit(k, sizeof(k));
	return err;
}

/* Write message nhs->next_msgno into nhs->last_sent (the caller sends it). */
static int noise_glue_write_msg(struct noise_glue_hs *nhs)
{
	struct noise_identity *id = noise_glue_ident(nhs->nd);
	struct noise_msg_handshake *h = (void *)nhs->last_sent;
	struct noise_peer *peer = nhs->entry.peer;
	unsigned int msgno = nhs->next_msgno, off = sizeof(*h);
	size_t len, plen = 0, cap;
	int err;

	memset(h, 0, sizeof(*h));
	h->h.type = NOISE_MSG_HANDSHAKE;
	h->h.version = NOISE_WIRE_VERSION;
	h->h.msgno = msgno;
	h->sender_index = nhs->entry.index;
	h->receiver_index = msgno == 1 ? 0 : nhs->remote_index;
	if (msgno == 1 && id->proto.hinted) {
		if (!peer || !noise_peer_ss_ready(peer))
			return -ENOKEY;
		off += sizeof(struct noise_msg_hint);	/* after the write */
	}
	if (msgno == 1) {
		noise_tai64n(nhs->payload);
		plen = NOISE_TIMESTAMP_LEN;
	}
	if (off + sizeof(struct noise_msg_macs) > nhs->last_sent_cap)
		return -EMSGSIZE;
	cap = nhs->last_sent_cap - off - sizeof(struct noise_msg_macs);
	err = noise_handshake_write(nhs->hs, nhs->payload, plen,
				    nhs->last_sent + off, cap, &len);
	if (err)
		return err;
	if (len != id->proto.noise_len[msgno])
		return -EPROTO;
	if (msgno == 1 && id->proto.hinted) {
		err = noise_glue_hint(nhs, peer, nhs->last_sent + off);
		if (err)
			return err;
	}
	len += off + sizeof(struct noise_msg_macs);
	if (id->proto.framing) {	/* its layout (peer known: IK) */
		if (!peer)
			return -ENOKEY;
		len = id->proto.framing->hs_layout(nhs->last_sent, len);
	} else if (nhs->role == NOISE_INITIATOR && !peer) {
		return -ENOKEY;
	}
	noise_glue_macs(nhs->nd, peer, nhs->role == NOISE_INITIATOR, nhs->last_sent, len);
	nhs->last_sent_len = len;
	nhs->next_msgno++;
	nhs->retries = 0;
	return 0;
}

static int noise_glue_write(struct noise_glue_hs *nhs)
{
	u64 t0 = noise_stage_start();
	int err = noise_glue_write_msg(nhs);

	noise_stage_end(NOISE_STAGE_HS_WRITE, t0, 1);
	return err;
}

/*
 * The engine learned the peer's static key (token s): find the peer, give
 * the engine its PSKs and precomputed ss. Called inside noise_handshake_read().
 */
static int noise_glue_remote_static(void *ctx, struct noise_handshake *hs,
				    const u8 *remote_static)
{
	struct noise_glue_hs *nhs = ctx;
	struct noise_device *nd = nhs->nd;
	struct noise_identity *id = noise_glue_ident(nd);
	struct noise_peer *peer = noise_peer_lookup(nd, remote_static);
	u8 (*psks)[NOISE_PSK_LEN] = nhs->psks;
	unsigned int i;
	int err = 0;

	if (!peer || READ_ONCE(peer->dead) || !noise_peer_ss_ready(peer))
		return -ENOKEY;
	if (nhs->entry.peer)	/* known already: it must be the same one */
		return nhs->entry.peer == peer ? 0 : -EKEYREJECTED;
	noise_glue_psks(peer, id->proto.info.num_psks, psks);
	for (i = 0; !err && i < id->proto.info.num_psks; i++)
		err = noise_handshake_set_psk(hs, i, psks[i]);
	memzero_explicit(nhs->psks, sizeof(nhs->psks));
	if (err)
		return err;
	/* Only a saving; -EINVAL when the pattern has no ss token. */
	noise_handshake_set_precomputed_ss(hs, peer->ss);
	nhs->found = peer;
	return 0;
}

/*
 * Simultaneous initiation: both sides started a handshake with each other.
 * The side with the greater static public key stays initiator; the other
 * drops its own handshake and answers. Return: true to keep @incoming.
 */
static bool noise_glue_tie_break(struct noise_peer *peer)
{
	struct noise_identity *id = noise_glue_ident(peer->nd);
	struct noise_glue_hs *mine = peer->hs;
	struct noise_keypair *next;
	bool pending;

	rcu_read_lock_bh();
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	pending = (mine && mine->role == NOISE_INITIATOR) ||
		  (next && next->initiator && !READ_ONCE(next->confirmed) &&
		   get_jiffies_64() - next->birth < NOISE_REKEY_TIMEOUT);
	rcu_read_unlock_bh();
	if (!pending)
		return true;
	return memcmp(id->public_key, peer->public_key, id->proto.info.dh_len) < 0;
}

/* @nhs (a responder) now knows its peer: make it the peer's handshake. */
static int noise_glue_bind(struct noise_glue_hs *nhs, struct noise_peer *peer)
{
	if (!noise_glue_tie_break(peer))
		return -EALREADY;
	if (peer->hs && peer->hs != nhs)
		noise_glue_free(peer->hs);
	if (!list_empty(&nhs->anon_node)) {
		list_del_init(&nhs->anon_node);
		nhs->nd->num_anon--;
	}
	nhs->entry.peer = peer;
	peer->hs = nhs;
	return 0;
}

static void noise_glue_anon_add(struct noise_device *nd, struct noise_glue_hs *nhs)
{
	struct noise_glue_hs *old;

	while (nd->num_anon >= NOISE_MAX_ANON_HANDSHAKES) {
		old = list_first_entry(&nd->anon, struct noise_glue_hs, anon_node);
		noise_glue_free(old);
	}
	list_add_tail(&nhs->anon_node, &nd->anon);
	nd->num_anon++;
}

/* The session of a finished handshake, not yet in the index or a slot. */
static struct noise_keypair *noise_glue_keypair(struct noise_glue_hs *nhs,
						struct noise_peer *peer, bool confirmed)
{
	struct noise_identity *id = noise_glue_ident(nhs->nd);
	struct noise_keypair *kp = kzalloc(sizeof(*kp), GFP_KERNEL);

	if (!kp)
		return NULL;
	if (noise_handshake_split(nhs->hs, &kp->send, &kp->recv)) {
		kfree(kp);
		return NULL;
	}
	kref_init(&kp->ref);
	noise_replay_init(&kp->replay);
	kp->entry.type = NOISE_INDEX_KEYPAIR;
	kp->entry.peer = noise_peer_get(peer);
	kp->remote_index = nhs->remote_index;
	kp->birth = get_jiffies_64();
	kp->initiator = nhs->role == NOISE_INITIATOR;
	kp->cipher = id->proto.info.cipher;
	kp->framing = id->proto.framing;
	kp->confirmed = confirmed;
	/* A responder that wrote the final message: the peer proves itself later. */
	kp->deferred = !confirmed && nhs->role == NOISE_RESPONDER;
	kp->provisional = nhs->provisional;
	return kp;
}

/* A session with @peer is proven: count it, arm the zeroing timer. */
static void noise_glue_count_session(struct noise_peer *peer)
{
	atomic64_inc(&peer->handshakes);
	atomic64_inc(&peer->nd->handshakes);
	atomic64_set(&peer->last_handshake, ktime_get_real_ns());
	noise_timers_session_made(peer);
}

/**
 * noise_glue_session_confirmed() - the first packet on a deferred session
 *	(noise_keypair.deferred) decrypted: the peer is proven.
 * @peer: the peer.
 *
 * Counts the session, moves the latest-handshake time and the zeroing
 * timer, and has hs_work send the handshake event.
 * Context: softirq or BH disabled.
 */
void noise_glue_session_confirmed(struct noise_peer *peer)
{
	noise_dbg_session(peer, "confirmed by the peer's first packet");
	noise_glue_count_session(peer);
	set_bit(NOISE_PEER_HANDSHAKE_DONE, &peer->flags);
	noise_peer_queue_hs_work(peer);
}

/* The kept final message goes (its session is gone or replaced). */
static void noise_glue_forget_final(struct noise_peer *peer)
{
	kfree_sensitive(peer->last_sent_final);
	peer->last_sent_final = NULL;
	peer->last_sent_final_len = 0;
}

/*
 * Keep our unconfirmed final message for its retransmissions, in a buffer
 * of its own length (a peer at rest holds none). Without memory it is not
 * kept: the peer's retransmission then starts a handshake anew.
 */
static void noise_glue_keep_final(struct noise_glue_hs *nhs, struct noise_peer *peer)
{
	noise_glue_forget_final(peer);
	peer->last_sent_final = kmemdup(nhs->last_sent, nhs->last_sent_len, GFP_KERNEL);
	if (!peer->last_sent_final)
		return;
	peer->last_sent_final_len = nhs->last_sent_len;
	memcpy(peer->final_trigger_mac1, nhs->last_read_mac1, NOISE_MAC_LEN);
	peer->final_to = nhs->endpoint;
	peer->final_retries = 0;
	peer->final_sent_at = jiffies;
}

/* After the final message is sent on a confirmed session: what waited. */
static void noise_glue_flush(struct noise_peer *peer)
{
	local_bh_disable();
	if (skb_queue_empty(&peer->staged))
		noise_send_keepalive(peer);
	else
		noise_send_staged(peer);
	local_bh_enable();
}

/*
 * Turn a finished handshake into a keypair. A responder's session that
 * waits for the peer's first packet (deferred) changes nothing a replayed
 * message 1 could want: the endpoint, the counters, the event and the
 * timers move when that packet comes (noise_glue_session_confirmed()).
 */
static void noise_glue_complete(struct noise_glue_hs *nhs, bool confirmed)
{
	struct noise_device *nd = nhs->nd;
	struct noise_peer *peer = nhs->entry.peer;
	u64 t0 = noise_stage_start();
	struct noise_keypair *kp;

	kp = peer ? noise_glue_keypair(nhs, peer, confirmed) : NULL;
	if (!kp)
		goto out;
	noise_index_replace(&nd->index, &nhs->entry, &kp->entry);
	if (!noise_keypair_install(peer, kp)) {
		noise_index_remove(&nd->index, &kp->entry);
		noise_keypair_put(kp);
		noise_count_drop(nd, peer, NOISE_DROP_HANDSHAKE);
		goto out;
	}
	if (nhs->provisional)	/* kept for the session it replaced */
		noise_glue_forget_final(peer);
	else if (!confirmed)
		noise_glue_keep_final(nhs, peer);
	if (nhs->role == NOISE_RESPONDER && confirmed)
		noise_peer_update_endpoint(peer, &nhs->endpoint);
	noise_dbg_session(peer, kp->deferred ? "made, waits for the peer's first packet" :
			  nhs->role == NOISE_INITIATOR ? "made as initiator" : "made as responder");
	if (!kp->deferred) {
		noise_glue_count_session(peer);
		peer->nd->peer_event(peer, NOISE_EV_HANDSHAKE);
	}
	noise_stage_end(NOISE_STAGE_HS_SESSION, t0, 1);
	if (!confirmed)
		noise_glue_send_last(nhs);
	peer->hs = NULL;
	noise_glue_free(nhs);
	if (confirmed)
		noise_glue_flush(peer);
	return;
out:
	if (peer && peer->hs == nhs)
		peer->hs = NULL;
	noise_glue_free(nhs);
}

/* Write what the pattern wants next; complete when it is done. */
static void noise_glue_advance(struct noise_glue_hs *nhs, bool just_read)
{
	noise_glue_count(nhs);
	switch (noise_handshake_next(nhs->hs)) {
	case NOISE_ACTION_WRITE:
		if (noise_glue_write(nhs))
			break;
		/* A final message goes out once its session can receive. */
		if (noise_handshake_next(nhs->hs) == NOISE_ACTION_SPLIT)
			noise_glue_complete(nhs, false);
		else
			noise_glue_send_last(nhs);
		return;
	case NOISE_ACTION_READ:
		return;
	case NOISE_ACTION_SPLIT:
		noise_glue_complete(nhs, just_read);
		return;
	default:
		break;
	}
	if (nhs->entry.peer && nhs->entry.peer->hs == nhs)
		nhs->entry.peer->hs = NULL;
	noise_glue_free(nhs);
}

/* Read one message into @nhs. Return: 0, or -errno (nhs unchanged). */
static int noise_glue_read(struct noise_glue_hs *nhs, struct sk_buff *skb)
{
	struct noise_identity *id = noise_glue_ident(nhs->nd);
	const struct noise_msg_handshake *h = (const void *)skb->data;
	unsigned int msgno = h->h.msgno, off = sizeof(*h);
	size_t plen;
	int err;
	u64 t0;

	if (msgno == 1 && id->proto.hinted)
		off += sizeof(struct noise_msg_hint);
	nhs->found = NULL;
	t0 = noise_stage_start();
	err = noise_handshake_read(nhs->hs, skb->data + off, id->proto.noise_len[msgno],
				   nhs->payload, sizeof(nhs->payload), &plen);
	noise_stage_end(NOISE_STAGE_HS_READ, t0, 1);
	if (err)
		return err;
	memcpy(nhs->last_read_mac1, skb->data + skb->len - 2 * NOISE_MAC_LEN,
	       NOISE_MAC_LEN);
	nhs->wire.rx_n++;
	nhs->wire.rx_bytes += NOISE_CB(skb)->wire_len;
	nhs->remote_index = h->sender_index;
	nhs->next_msgno++;
	noise_endpoint_from_skb(&nhs->endpoint, skb);
	return 0;
}

/* Was the initiation with this MAC1 answered by us (answer kept)? */
static bool noise_glue_answered(struct noise_peer *peer, const u8 *mac1)
{
	struct noise_glue_hs *nhs = peer->hs;

	return (nhs && nhs->role == NOISE_RESPONDER &&
		!crypto_memneq(nhs->last_read_mac1, mac1, NOISE_MAC_LEN)) ||
	       (peer->last_sent_final_len &&
		!crypto_memneq(peer->final_trigger_mac1, mac1, NOISE_MAC_LEN));
}

/*
 * No working session with @peer that a replay could disturb: nothing
 * authenticated came from it for REKEY_TIMEOUT and no session with it is
 * that young (a peer that rebooted and lost its sessions), or the current
 * session is older than REKEY_AFTER_TIME (a renewal is due anyway).
 */
static bool noise_glue_peer_renewable(struct noise_peer *peer)
{
	u64 now = get_jiffies_64(), last = atomic64_read(&peer->last_auth_rx);
	struct noise_keypair *cur, *next;
	bool ok;

	rcu_read_lock_bh();
	cur = rcu_dereference_bh(peer->keypairs.current_kp);
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	if (cur && now - cur->birth >= noise_scaled(NOISE_REKEY_AFTER_TIME))
		ok = true;
	else
		ok = (!last || now - last >= NOISE_REKEY_TIMEOUT) &&
		     (!cur || now - cur->birth >= NOISE_REKEY_TIMEOUT) &&
		     (!next || next->provisional ||
		      now - next->birth >= NOISE_REKEY_TIMEOUT);
	rcu_read_unlock_bh();
	return ok;
}

/* What the timestamp rule says of a message 1 from a known peer. */
enum noise_glue_ts {
	NOISE_TS_NEWER,		/* newer than any seen: taken */
	NOISE_TS_REKEYED,	/* the one we answered, our keys changed: once */
	NOISE_TS_RENEW,		/* not newer, nothing to disturb: provisional */
	NOISE_TS_ANSWERED,	/* a resend of what we answered */
	NOISE_TS_STALE,		/* refused */
};

/*
 * Replayed or stale initiation (Documentation/wire-format.rst, timestamp
 * rule). A message 1 is taken when its timestamp is newer than the newest
 * seen from @peer (it becomes the newest). One not newer is taken only
 * when it is the initiation we answered with keys changed since (once:
 * answered again with the new keys), or, in our own framing, when no
 * working session could be disturbed (noise_glue_peer_renewable()): so a
 * peer whose clock went back (a reboot without RTC) gets in after
 * REKEY_TIMEOUT of silence and renews its sessions when they are due.
 * Such a session is provisional (peer.h): a replay costs one DH and one
 * answer and changes nothing. The WireGuard profile keeps WireGuard's
 * strict rule. The newest timestamp never goes back.
 */
static enum noise_glue_ts noise_glue_timestamp(struct noise_glue_hs *nhs, struct noise_peer *peer)
{
	lockdep_assert_held(&nhs->nd->hs_lock);
	if (memcmp(nhs->payload, peer->latest_timestamp, NOISE_TIMESTAMP_LEN) > 0)
		return NOISE_TS_NEWER;
	if (peer->rekey_mac1_ok &&
	    !crypto_memneq(peer->rekey_mac1, nhs->last_read_mac1, NOISE_MAC_LEN))
		return NOISE_TS_REKEYED;
	if (noise_glue_answered(peer, nhs->last_read_mac1))
		return NOISE_TS_ANSWERED;
	if (!noise_glue_ident(nhs->nd)->proto.framing && noise_glue_peer_renewable(peer))
		return NOISE_TS_RENEW;
	return NOISE_TS_STALE;
}

/*
 * Room for a provisional session: none taken from @peer in the last
 * second (a peer whose clock went back retries about once a second), no
 * handshake with it running and no live session waiting in its next slot
 * (a replay must not evict one).
 */
static bool noise_glue_provisional_room(struct noise_peer *peer, u64 now)
{
	struct noise_keypair *next;
	bool ok;

	if (peer->last_initiation && now - peer->last_initiation < NSEC_PER_SEC)
		return false;
	if (peer->hs && time_before(jiffies, peer->hs->started + NOISE_REKEY_TIMEOUT))
		return false;
	rcu_read_lock_bh();
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	ok = !next || next->provisional ||
	     get_jiffies_64() - next->birth >= NOISE_REKEY_TIMEOUT;
	rcu_read_unlock_bh();
	return ok;
}

/* More than NOISE_INITIATIONS_PER_SECOND message 1s from @peer? */
static bool noise_glue_flood(const struct noise_peer *peer, u64 now)
{
	return peer->last_initiation &&
	       now - peer->last_initiation < NSEC_PER_SEC / NOISE_INITIATIONS_PER_SECOND;
}

/* The unconfirmed final message again (its MACs again: a cookie may have come). */
static void noise_glue_send_final(struct noise_peer *peer, bool initiator)
{
	noise_glue_macs(peer->nd, peer, initiator, peer->last_sent_final,
			peer->last_sent_final_len);
	if (initiator)
		noise_socket_send_buffer(peer, peer->last_sent_final,
					 peer->last_sent_final_len);
	else if (!noise_socket_send_buffer_to(peer->nd, &peer->final_to,
					      peer->last_sent_final,
					      peer->last_sent_final_len))
		/* the endpoint waits for the peer's first packet */
		noise_count_tx(peer->nd, peer, 1, peer->last_sent_final_len);
	peer->final_sent_at = jiffies;
}

/* The session our kept final message made is still waiting for the peer. */
static bool noise_glue_final_unconfirmed(struct noise_peer *peer)
{
	struct noise_keypair *next;
	bool waiting;

	rcu_read_lock_bh();
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	waiting = next && !READ_ONCE(next->confirmed);
	rcu_read_unlock_bh();
	return waiting;
}

/*
 * An initiation we answered already came again (our answer was lost):
 * send the answer again instead of starting over.
 */
static void noise_glue_resend_for(struct noise_peer *peer, const u8 *mac1)
{
	struct noise_glue_hs *nhs = peer->hs;

	if (nhs && nhs->role == NOISE_RESPONDER &&
	    !crypto_memneq(nhs->last_read_mac1, mac1, NOISE_MAC_LEN)) {
		if (noise_glue_resend_due(nhs->last_sent_at))
			noise_glue_send_last(nhs);
	} else if (peer->last_sent_final_len &&
		   !crypto_memneq(peer->final_trigger_mac1, mac1, NOISE_MAC_LEN)) {
		if (noise_glue_final_unconfirmed(peer) &&
		    noise_glue_resend_due(peer->final_sent_at))
			noise_glue_send_final(peer, false);
	}
}

/*
 * The peer initiated while our own initiation stays (tie-break): it did
 * not answer ours, maybe because it could not yet (its keys changed after
 * ours went out: Documentation/timers.rst, key changes). Send ours again
 * now rather than at its next retransmission, unless it went out just now
 * (the two crossed).
 */
static void noise_glue_resend_mine(struct noise_peer *peer)
{
	struct noise_glue_hs *mine = peer->hs;

	if (mine && mine->role == NOISE_INITIATOR && mine->next_msgno == 2 &&
	    time_after(jiffies, mine->last_sent_at + NOISE_HS_RETRANSMIT / 4))
		noise_glue_send_last(mine);
}

/* A duplicate of a message 1 an anonymous responder handshake answered. */
static bool noise_glue_anon_dup(struct noise_device *nd, const u8 *mac1)
{
	struct noise_glue_hs *nhs;

	list_for_each_entry(nhs, &nd->anon, anon_node) {
		if (nhs->next_msgno == 3 &&
		    !crypto_memneq(nhs->last_read_mac1, mac1, NOISE_MAC_LEN)) {
			if (noise_glue_resend_due(nhs->last_sent_at))
				noise_glue_send_last(nhs);
			else	/* answered just now: the copy is dropped */
				noise_count_drop(nd, NULL, NOISE_DROP_HANDSHAKE);
			return true;
		}
	}
	return false;
}

/*
 * Message 1 from a known @peer: the timestamp rule, then the flood limit
 * (both before anything is changed). Return: 0 to go on, or -errno.
 */
static int noise_glue_take_initiation(struct noise_glue_hs *nhs, struct noise_peer *peer)
{
	u64 now = ktime_get_coarse_boottime_ns();
	enum noise_glue_ts ts = noise_glue_timestamp(nhs, peer);

	if (ts == NOISE_TS_ANSWERED)
		noise_glue_resend_for(peer, nhs->last_read_mac1);
	if (ts == NOISE_TS_ANSWERED || ts == NOISE_TS_STALE ||
	    (ts == NOISE_TS_RENEW && !noise_glue_provisional_room(peer, now)))
		return -EALREADY;
	if (noise_glue_flood(peer, now)) {
		noise_count_drop(nhs->nd, peer, NOISE_DROP_RATELIMIT);
		return -EBUSY;
	}
	if (ts == NOISE_TS_NEWER)
		memcpy(peer->latest_timestamp, nhs->payload, NOISE_TIMESTAMP_LEN);
	if (ts != NOISE_TS_RENEW)
		peer->rekey_mac1_ok = false;
	nhs->provisional = ts == NOISE_TS_RENEW;
	peer->last_initiation = now;
	return 0;
}

/*
 * The responder handshake of a hinted message 1, for the peer its hint
 * names (*@peer, NULL for nobody). The DH that unmasked the hint is the
 * responder's DH(s, re) of the message's e: the engine gets it, so that
 * its es (KK, IK, ...) or se does not compute it again.
 */
static struct noise_glue_hs *noise_glue_new_hinted(struct noise_device *nd,
						   struct sk_buff *skb,
						   struct noise_peer **peer)
{
	const struct noise_msg_hint *hint = (const void *)(skb->data +
					sizeof(struct noise_msg_handshake));
	const u8 *e_pub = (const u8 *)(hint + 1);	/* every message 1 begins with e */
	struct noise_glue_hs *nhs = NULL;
	u8 k[NOISE_MAX_DHLEN];

	*peer = noise_peer_hint_lookup(nd, e_pub, hint->ct, k);
	if (*peer) {
		nhs = noise_glue_new(nd, *peer, NOISE_RESPONDER);
		/* Only a saving; -EINVAL when the pattern has no DH(s, re) here. */
		if (nhs)
			noise_handshake_set_precomputed_sre(nhs->hs, e_pub, k);
	}
	memzero_explicit(k, sizeof(k));
	return nhs;
}

/* Message 1 received: a new responder handshake. */
static void noise_glue_begin(struct noise_device *nd, struct sk_buff *skb)
{
	struct noise_identity *id = noise_glue_ident(nd);
	struct noise_peer *peer = NULL;
	struct noise_glue_hs *nhs;
	int err;

	if (id->proto.hinted) {
		nhs = noise_glue_new_hinted(nd, skb, &peer);
	} else {
		if (noise_glue_anon_dup(nd, skb->data + skb->len - 2 * NOISE_MAC_LEN))
			return;
		nhs = noise_glue_new(nd, NULL, NOISE_RESPONDER);
	}
	if (!nhs)
		goto drop;
	if (noise_glue_read(nhs, skb))
		goto drop_hs;
	if (!peer)
		peer = nhs->found;
	if (peer) {
		err = noise_glue_take_initiation(nhs, peer);
		if (err == -EBUSY) {
			noise_glue_free(nhs);
			return;
		}
		if (err)
			goto drop_hs;
		if (noise_glue_bind(nhs, peer)) {
			noise_glue_resend_mine(peer);
			goto drop_hs;
		}
	} else {
		noise_glue_anon_add(nd, nhs);
	}
	noise_glue_advance(nhs, true);
	return;
drop_hs:
	noise_glue_free(nhs);
drop:
	noise_count_drop(nd, peer, NOISE_DROP_HANDSHAKE);
}

/*
 * A final message again, for a session we already have: our confirmation
 * was lost; send a keepalive on it. Only while nothing came on the
 * session yet (else the peer has it: the message is a replay) and it is
 * young (the peer resends its final message for REKEY_TIMEOUT), at most
 * twice per retransmission interval; its MAC1 was checked in softirq.
 * Return: false if there is no such session.
 */
static bool noise_glue_late_final(struct noise_device *nd, __le32 index)
{
	struct noise_peer *peer = NULL;
	struct noise_index *e;
	struct noise_keypair *kp;
	bool due = false;

	rcu_read_lock_bh();
	e = noise_index_lookup(&nd->index, index, NOISE_INDEX_KEYPAIR);
	if (e) {
		kp = container_of(e, struct noise_keypair, entry);
		peer = noise_peer_get_maybe_zero(e->peer);
		due = !READ_ONCE(kp->heard) &&
		      get_jiffies_64() - kp->birth < NOISE_REKEY_TIMEOUT;
	}
	rcu_read_unlock_bh();
	if (!peer)
		return false;
	if (due && noise_glue_resend_due(peer->late_final_at)) {
		peer->late_final_at = jiffies;
		local_bh_disable();
		noise_send_keepalive(peer);
		local_bh_enable();
	} else {
		noise_count_drop(nd, peer, NOISE_DROP_HANDSHAKE);
	}
	noise_peer_put(peer);
	return true;
}

/* Message 2 or later: continue the handshake it names. */
static void noise_glue_continue(struct noise_device *nd, struct sk_buff *skb)
{
	const struct noise_msg_handshake *h = (const void *)skb->data;
	const u8 *mac1 = skb->data + skb->len - 2 * NOISE_MAC_LEN;
	struct noise_peer *peer;
	struct noise_index *e;
	struct noise_glue_hs *nhs;

	rcu_read_lock_bh();
	e = noise_index_lookup(&nd->index, h->receiver_index, NOISE_INDEX_HANDSHAKE);
	rcu_read_unlock_bh();
	if (!e) {
		/* hs_lock keeps handshakes alive; a keypair may have it now. */
		if (h->h.msgno != noise_glue_ident(nd)->proto.info.num_msgs ||
		    !noise_glue_late_final(nd, h->receiver_index))
			noise_count_drop(nd, NULL, NOISE_DROP_UNKNOWN_INDEX);
		return;
	}
	nhs = container_of(e, struct noise_glue_hs, entry);
	peer = nhs->entry.peer;
	if (h->h.msgno + 1 == nhs->next_msgno &&
	    !crypto_memneq(mac1, nhs->last_read_mac1, NOISE_MAC_LEN)) {
		/* a duplicate: our reply was lost, or it crossed the copy */
		if (noise_glue_resend_due(nhs->last_sent_at))
			noise_glue_send_last(nhs);
		else
			noise_count_drop(nd, peer, NOISE_DROP_HANDSHAKE);
		return;
	}
	if (h->h.msgno != nhs->next_msgno ||
	    noise_handshake_next(nhs->hs) != NOISE_ACTION_READ ||
	    (!(h->h.msgno & 1) && !peer))
		goto drop;
	/* Ours: a responder's message, MAC1 keyed by its key; before any DH. */
	if (!(h->h.msgno & 1) && !noise_glue_ident(nd)->proto.framing &&
	    !noise_cookie_maker_mac1_ok(&peer->cookie, skb->data,
					skb->len - sizeof(struct noise_msg_macs))) {
		noise_count_drop(nd, peer, NOISE_DROP_MAC1);
		return;
	}
	if (noise_glue_read(nhs, skb))
		goto drop;
	if (!peer && nhs->found && noise_glue_bind(nhs, nhs->found)) {
		noise_glue_free(nhs);
		goto drop;
	}
	noise_glue_advance(nhs, true);
	return;
drop:
	noise_count_drop(nd, peer, NOISE_DROP_HANDSHAKE);
}

/**
 * noise_glue_process() - handle one received handshake message.
 * @nd: the device.
 * @skb: the message, linear, type and length checked; MAC1 (and under
 *	load MAC2 and the rate limiter) checked (receive.c); dropped when
 *	the protocol changed since (NOISE_CB(skb)->proto_gen).
 *
 * Context: process, hs_lock held.
 */
void noise_glue_process(struct noise_device *nd, struct sk_buff *skb)
{
	const struct noise_msg_handshake *h = (const void *)skb->data;

	struct noise_identity *id = noise_glue_ident(nd);

	lockdep_assert_held(&nd->hs_lock);
	/* Its type and length were checked for the protocol of that time. */
	if (NOISE_CB(skb)->proto_gen != id->proto_gen)
		noise_count_drop(nd, NULL, NOISE_DROP_HS_QUEUE);
	else if (!id->has_key)
		noise_count_drop(nd, NULL, NOISE_DROP_HANDSHAKE);
	else if (h->h.msgno == 1)
		noise_glue_begin(nd, skb);
	else
		noise_glue_continue(nd, skb);
}

/*
 * A session was made after the last noise_peer_want_handshake(): the want is answered
 * (packets sent on the old session while the handshake ran asked again).
 */
static bool noise_glue_want_answered(struct noise_peer *peer)
{
	u64 wanted = READ_ONCE(peer->hs_wanted);
	struct noise_keypair *cur, *next;
	bool answered;

	rcu_read_lock_bh();
	cur = rcu_dereference_bh(peer->keypairs.current_kp);
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	answered = (cur && time_after64(cur->birth, wanted)) ||
		   (next && !next->provisional && time_after64(next->birth, wanted));
	rcu_read_unlock_bh();
	return answered;
}

/*
 * We sent the final message of a handshake and the peer has not used the
 * session yet: the final message is being resent (noise_glue_retransmit()),
 * so the handshake is still in progress. A new one now would race it (and
 * replace the session the peer is about to confirm).
 */
static bool noise_glue_final_pending(struct noise_peer *peer)
{
	struct noise_keypair *next;
	bool pending;

	if (!peer->last_sent_final_len ||
	    peer->final_retries >= NOISE_HS_MAX_RETRANSMITS)
		return false;
	rcu_read_lock_bh();
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	pending = next && !READ_ONCE(next->confirmed) &&
		  time_before64(get_jiffies_64(), next->birth + NOISE_REKEY_TIMEOUT);
	rcu_read_unlock_bh();
	return pending;
}

/* Start a handshake with @peer as initiator. */
static void noise_glue_initiate(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	struct noise_glue_hs *nhs;

	if (!noise_glue_ident(nd)->has_key || READ_ONCE(peer->dead) ||
	    !READ_ONCE(peer->endpoint.addr.sa_family) || noise_glue_want_answered(peer))
		return;
	if (peer->hs && !time_after(jiffies, peer->hs->started + NOISE_REKEY_TIMEOUT))
		return;
	if (noise_glue_final_pending(peer))
		return;
	if (peer->last_sent_handshake &&
	    !time_after(jiffies, peer->last_sent_handshake + NOISE_MIN_HS_INTERVAL))
		return;
	nhs = noise_glue_new(nd, peer, NOISE_INITIATOR);
	if (!nhs)
		return;
	if (peer->hs)
		noise_glue_free(peer->hs);
	peer->hs = nhs;
	if (noise_glue_write(nhs)) {
		peer->hs = NULL;
		noise_glue_free(nhs);
		return;
	}
	noise_glue_send_last(nhs);
	noise_count_cookie(nd, peer, NOISE_CE_INITIATION);
	atomic64_set(&peer->last_attempt, ktime_get_real_ns());
}

/*
 * Nothing asked for a handshake for REKEY_ATTEMPT_TIME and none succeeded:
 * stop trying, drop what waited for it; the next packet starts over.
 */
static void noise_glue_give_up(struct noise_peer *peer)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&peer->staged))) {
		noise_count_drop(peer->nd, peer, NOISE_DROP_NO_KEY);
		kfree_skb(skb);
	}
	noise_timers_hs_given_up(peer);
	noise_count_cookie(peer->nd, peer, NOISE_CE_HS_GIVEN_UP);
	peer->nd->peer_event(peer, NOISE_EV_HS_FAILED);
}

/*
 * Our message 1 again for a framing whose responders refuse a timestamp
 * they saw (framing->fresh_retry): a new initiation (new index, ephemeral
 * key and timestamp) that keeps the old one's start and retry count, so
 * the retry limits and REKEY_TIMEOUT run on as for a resend.
 */
static bool noise_glue_initiate_again(struct noise_peer *peer, struct noise_glue_hs *old)
{
	const struct noise_framing_ops *f = noise_glue_ident(peer->nd)->proto.framing;
	struct noise_glue_hs *nhs;

	if (!f || !f->fresh_retry || old->role != NOISE_INITIATOR || old->next_msgno != 2)
		return false;
	nhs = noise_glue_new(peer->nd, peer, NOISE_INITIATOR);
	if (!nhs)
		return false;
	if (noise_glue_write(nhs)) {
		noise_glue_free(nhs);
		return false;
	}
	nhs->started = old->started;
	nhs->retries = old->retries;
	peer->hs = nhs;
	noise_glue_free(old);
	noise_glue_send_last(nhs);
	atomic64_set(&peer->last_attempt, ktime_get_real_ns());
	return true;
}

/* Retransmission of the last message, or of an unconfirmed final one. */
static void noise_glue_retransmit(struct noise_peer *peer)
{
	struct noise_glue_hs *nhs = peer->hs;
	struct noise_keypair *next;
	bool final, initiator = false;
	u64 birth = 0;

	if (nhs) {
		if (!time_after_eq(jiffies, nhs->last_sent_at + NOISE_HS_RETRANSMIT))
			return;
		if (nhs->retries++ < NOISE_HS_MAX_RETRANSMITS) {
			noise_count_cookie(peer->nd, peer, NOISE_CE_HS_RESENT);
			if (noise_glue_initiate_again(peer, nhs))
				return;		/* nhs is gone */
			noise_glue_send_last(nhs);
			if (nhs->role == NOISE_INITIATOR && nhs->next_msgno == 2)
				atomic64_set(&peer->last_attempt, ktime_get_real_ns());
			return;
		}
		peer->hs = NULL;
		if (nhs->role == NOISE_INITIATOR) {
			if (time_before64(get_jiffies_64(), READ_ONCE(peer->hs_wanted) +
					  noise_scaled(NOISE_REKEY_ATTEMPT_TIME)))
				set_bit(NOISE_PEER_WANT_HANDSHAKE, &peer->flags);
			else
				noise_glue_give_up(peer);
		}
		noise_glue_free(nhs);
		return;
	}
	rcu_read_lock_bh();
	next = rcu_dereference_bh(peer->keypairs.next_kp);
	final = next && !READ_ONCE(next->confirmed);
	if (final) {
		initiator = next->initiator;
		birth = next->birth;
	}
	rcu_read_unlock_bh();
	/*
	 * Only when the resend timer is due: the work also runs for other
	 * reasons (the endpoint changed, a handshake is wanted), and then
	 * the final message just sent would go out twice at once.
	 */
	if (!final || !peer->last_sent_final_len ||
	    !time_after_eq(jiffies, peer->final_sent_at + NOISE_HS_RETRANSMIT) ||
	    peer->final_retries > NOISE_HS_MAX_RETRANSMITS)
		return;
	if (peer->final_retries++ < NOISE_HS_MAX_RETRANSMITS) {
		noise_glue_send_final(peer, initiator);
		noise_count_cookie(peer->nd, peer, NOISE_CE_HS_RESENT);
		noise_timers_hs_sent(peer);
	} else if (time_after64(READ_ONCE(peer->hs_wanted), birth)) {
		/* No answer to any copy: the wants that waited for it start anew. */
		set_bit(NOISE_PEER_WANT_HANDSHAKE, &peer->flags);
	}
}

/*
 * zero_keys fired (the sessions are gone already): the rest of the key
 * material goes too, unless a session was made since (the timer runs
 * again) or a handshake began less than REKEY_TIMEOUT ago (it is live).
 */
static void noise_glue_zero(struct noise_peer *peer)
{
	if (timer_pending(&peer->timer_zero_keys))
		return;
	if (peer->hs && time_after(jiffies, peer->hs->started + NOISE_REKEY_TIMEOUT)) {
		noise_glue_free(peer->hs);
		peer->hs = NULL;
	}
	noise_glue_forget_final(peer);
}

/**
 * noise_glue_peer_work() - a peer's handshake chores (hs_work).
 * @work: peer->hs_work.
 *
 * Starts a handshake when one is wanted, retransmits, and sends the
 * netlink notifications that cannot be sent from softirq.
 * Context: process (the device's handshake workqueue).
 */
void noise_glue_peer_work(struct work_struct *work)
{
	struct noise_peer *peer = container_of(work, struct noise_peer, hs_work);
	struct noise_device *nd = peer->nd;

	mutex_lock(&nd->hs_lock);
	if (test_and_clear_bit(NOISE_PEER_ZERO_KEYS, &peer->flags))
		noise_glue_zero(peer);
	noise_glue_retransmit(peer);
	if (test_and_clear_bit(NOISE_PEER_WANT_HANDSHAKE, &peer->flags))
		noise_glue_initiate(peer);
	mutex_unlock(&nd->hs_lock);
	if (test_and_clear_bit(NOISE_PEER_HANDSHAKE_DONE, &peer->flags))
		peer->nd->peer_event(peer, NOISE_EV_HANDSHAKE);
	if (test_and_clear_bit(NOISE_PEER_ENDPOINT_CHANGED, &peer->flags))
		peer->nd->peer_event(peer, NOISE_EV_ENDPOINT);
	noise_peer_put(peer);
}

/* Context: process, hs_lock held. */
void noise_glue_clear_peer(struct noise_peer *peer)
{
	lockdep_assert_held(&peer->nd->hs_lock);
	noise_glue_free(peer->hs);
	peer->hs = NULL;
	noise_glue_forget_final(peer);
}

/* Context: process, hs_lock held. */
void noise_glue_clear_anon(struct noise_device *nd)
{
	struct noise_glue_hs *nhs, *tmp;

	lockdep_assert_held(&nd->hs_lock);
	list_for_each_entry_safe(nhs, tmp, &nd->anon, anon_node)
		noise_glue_free(nhs);
}
