// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: a peer's life, on the control floor: made whole (its work
 * items and timers), added (keys derived, filed, the event sent), its keys
 * changed (a new handshake), removed (unfiled, its works, timers, queues
 * and handshake stopped after a grace period, its secrets wiped). The data
 * and tables it works on are peer.c's (state floor); this file calls every
 * floor below it, and none of them calls it.
 */

#include <crypto/algapi.h>
#include <linux/netdevice.h>
#include "cookie.h"
#include "device.h"
#include "peer.h"
#include "peer_conf.h"
#include "queueing.h"
#include "receive.h"
#include "send.h"
#include "hs_glue.h"
#include "timers.h"
#include "netlink.h"
#include "wg.h"

/**
 * noise_peer_create() - add a peer to a device.
 * @nd: the device (conf_lock held).
 * @public_key: its static public key, dh_len bytes.
 *
 * Context: process, conf_lock held.
 * Return: the peer or ERR_PTR(-ENOMEM, -E2BIG, -EEXIST, -EINVAL).
 */
struct noise_peer *noise_peer_create(struct noise_device *nd, const u8 *public_key)
{
	struct noise_identity *id;
	struct noise_peer *peer;
	unsigned int len;

	lockdep_assert_held(&nd->conf_lock);
	id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
	len = id->proto.info.dh_len;
	if (nd->num_peers >= NOISE_MAX_PEERS)
		return ERR_PTR(-E2BIG);
	if (noise_peer_lookup(nd, public_key))
		return ERR_PTR(-EEXIST);
	if (id->has_key && !memcmp(public_key, id->public_key, len))
		return ERR_PTR(-EINVAL);
	peer = noise_peer_alloc(nd, public_key, len, GFP_KERNEL);
	if (!IS_ERR(peer))
		noise_peer_add(peer);
	return peer;
}
EXPORT_SYMBOL_NS_GPL(noise_peer_create, NOISE_INTERNAL);

/**
 * noise_peer_alloc() - a peer, allocated and initialised but not added.
 * @nd: the device.
 * @public_key: its static public key.
 * @key_len: its length: the DH length of the protocol it will be added
 *	under (a request may change the protocol after allocating).
 * @gfp: allocation flags.
 *
 * Its work items run the paths' peer work (handshake, send, receive), its
 * timers are the timers floor's. No event, no keys derived
 * (noise_peer_add() does both). Free an unadded peer with
 * noise_peer_free_unadded().
 * Context: process, conf_lock held.
 * Return: the peer or ERR_PTR(-ENOMEM).
 */
struct noise_peer *noise_peer_alloc(struct noise_device *nd, const u8 *public_key,
				    unsigned int key_len, gfp_t gfp)
{
	struct noise_peer *peer = noise_peer_new(nd, public_key, key_len, gfp);

	if (IS_ERR(peer))
		return peer;
	INIT_WORK(&peer->hs_work, noise_glue_peer_work);
	INIT_WORK(&peer->tx_work, noise_tx_work);
	INIT_WORK(&peer->rx_work, noise_rx_work);
	peer->serial_cpu = -1;
	noise_timers_init(peer);
	return peer;
}

/**
 * noise_peer_cookie_keys() - (re)key a peer's cookie maker.
 * @p: the device's protocol (its framing chooses the labels).
 * @peer: the peer (its public key is set).
 *
 * The maker MACs what we send the peer (as initiator; in a profile, every
 * message) and checks what the peer sends us as native responder (its
 * mac1 is keyed by its own key).
 * Context: process, conf_lock held.
 */
void noise_peer_cookie_keys(const struct noise_tunnel_proto *p, struct noise_peer *peer)
{
	const char *mac1, *cookie;

	noise_framing_labels(p, &mac1, &cookie);
	noise_cookie_maker_init(&peer->cookie, mac1, cookie, peer->public_key,
				p->info.dh_len);
}
EXPORT_SYMBOL_NS_GPL(noise_peer_cookie_keys, NOISE_INTERNAL);

/**
 * noise_peer_add() - add an allocated peer to its device; cannot fail.
 * @peer: from noise_peer_alloc(); the caller has checked that no peer has
 *	its key, that it is not ours and that NOISE_MAX_PEERS is not reached.
 *
 * Derives its keys from the device's identity now, links it and sends the
 * peer-added event.
 * Context: process, conf_lock held.
 */
void noise_peer_add(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	struct noise_identity *id;

	lockdep_assert_held(&nd->conf_lock);
	id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
	noise_peer_derive_keys(peer);
	noise_peer_cookie_keys(&id->proto, peer);
	noise_peer_link(peer);
	noise_netlink_notify_peer_add(peer);
}

/* After the grace period: stop what it has running, then its sessions. */
static void noise_peer_stop(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;

	noise_timers_shutdown(peer);
	if (cancel_work_sync(&peer->hs_work))
		noise_peer_put(peer);	/* the reference of the queued work */
	mutex_lock(&nd->hs_lock);
	noise_glue_clear_peer(peer);
	mutex_unlock(&nd->hs_lock);
	noise_keypairs_clear(peer);
}

/* Once no packet of it is in the crypto: its queues, wipe. */
static void noise_peer_release(struct noise_peer *peer)
{
	skb_queue_purge(&peer->staged);
	noise_tx_queue_purge(peer);
	noise_rx_queue_purge(peer);
	memzero_explicit(peer->psks, sizeof(peer->psks));
	memzero_explicit(peer->ss, sizeof(peer->ss));
	memzero_explicit(peer->hint_id, sizeof(peer->hint_id));
}

/**
 * noise_peer_remove() - take a peer out of its device and free it.
 * @peer: the peer (conf_lock held).
 *
 * Context: process, conf_lock held; may sleep (waits for its work items
 * and for RCU readers of the data path).
 */
void noise_peer_remove(struct noise_peer *peer)
{
	lockdep_assert_held(&peer->nd->conf_lock);
	noise_netlink_notify_peer_del(peer);
	noise_peer_unlink(peer);
	synchronize_net();
	noise_peer_stop(peer);
	noise_queueing_flush(peer->nd);
	noise_peer_release(peer);
	noise_peer_put(peer);
}
EXPORT_SYMBOL_NS_GPL(noise_peer_remove, NOISE_INTERNAL);

/*
 * All peers, with one walk of the allowed IPs, two grace periods and one
 * wait for the crypto: a device of many peers goes in a few passes over
 * them, not a trie lookup per prefix and a flush of the workqueue per
 * peer. The first grace period also covers the allowed IPs, taken out of
 * the readers' sight before it, and the second the sessions and
 * handshakes the stop took out of the index: each walk then frees what
 * it reads while it is in the cache, where one RCU callback per node or
 * per peer, run after the whole walk, would read each from memory again.
 * Context: process, conf_lock held.
 */
void noise_peer_remove_all(struct noise_device *nd)
{
	struct noise_allowedips_roots aips;
	struct noise_peer *peer, *tmp;
	LIST_HEAD(dead);

	lockdep_assert_held(&nd->conf_lock);
	noise_allowedips_detach(&nd->aips, &aips);
	list_for_each_entry_safe(peer, tmp, &nd->peer_list, list) {
		noise_netlink_notify_peer_del(peer);
		noise_peer_unhash(peer);	/* its allowed IPs are in aips */
		list_add_tail(&peer->dead_list, &dead);
	}
	synchronize_net();
	noise_allowedips_free_detached(&nd->aips, &aips); /* every list empty */
	list_for_each_entry(peer, &dead, dead_list) {
		if (!list_is_last(&peer->dead_list, &dead))
			noise_timers_prefetch(list_next_entry(peer, dead_list));
		noise_peer_stop(peer);
	}
	noise_queueing_flush(nd);
	synchronize_net();
	list_for_each_entry_safe(peer, tmp, &dead, dead_list) {
		noise_peer_release(peer);
		noise_peer_put_unseen(peer);
	}
}

/* -------- keys changed (conf_lock held) -------- */

int noise_peer_set_psks(struct noise_peer *peer, const u8 *psks, unsigned int n)
{
	struct noise_device *nd = peer->nd;
	struct noise_identity *id;
	bool changed;

	lockdep_assert_held(&nd->conf_lock);
	id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
	if (n > NOISE_PEER_PSK_MAX || (n > 1 && n != id->proto.info.num_psks))
		return -EINVAL;
	mutex_lock(&nd->hs_lock);
	changed = n != peer->num_psks ||
		  crypto_memneq(peer->psks, psks, n * NOISE_PSK_LEN);
	memzero_explicit(peer->psks, sizeof(peer->psks));
	if (n)
		memcpy(peer->psks, psks, n * NOISE_PSK_LEN);
	peer->num_psks = n;
	if (changed)
		noise_peer_rehandshake(peer);
	mutex_unlock(&nd->hs_lock);
	return 0;
}

/**
 * noise_peer_rehandshake() - the keys of a handshake with @peer changed
 *	(its PSKs, or our static key): a new handshake now, if there was
 *	anything made with the old keys.
 * @peer: the peer.
 *
 * A handshake in progress used the old keys: it goes. The sessions stay
 * (they carry the traffic until the new session replaces them; a caller
 * that must not use them clears them first). An initiation we answered
 * with the old keys is answered again with the new ones when the peer
 * resends it. A peer with neither a
 * session nor a handshake gets none now (configuring a device sends
 * nothing): its next packet starts one. Documentation/timers.rst.
 * Context: process, hs_lock held.
 */
void noise_peer_rehandshake(struct noise_peer *peer)
{
	bool live;

	lockdep_assert_held(&peer->nd->hs_lock);
	live = peer->hs || rcu_access_pointer(peer->keypairs.current_kp) ||
	       rcu_access_pointer(peer->keypairs.next_kp);
	/*
	 * The initiation we answered with the old keys: the peer resends it
	 * while it waits, and it is answered again with the new ones (its
	 * timestamp is not newer, hs_glue.c lets this one through once).
	 */
	peer->rekey_mac1_ok = true;
	if (peer->hs && peer->hs->role == NOISE_RESPONDER)
		memcpy(peer->rekey_mac1, peer->hs->last_read_mac1, NOISE_MAC_LEN);
	else if (peer->last_sent_final_len)
		memcpy(peer->rekey_mac1, peer->final_trigger_mac1, NOISE_MAC_LEN);
	else
		peer->rekey_mac1_ok = false;
	noise_glue_clear_peer(peer);
	if (live && netif_running(peer->nd->dev) &&
	    READ_ONCE(peer->endpoint.addr.sa_family))
		noise_peer_want_handshake(peer);
}

/* A persistent keepalive set on a running device sends one at once. */
void noise_peer_set_keepalive(struct noise_peer *peer, u16 seconds)
{
	WRITE_ONCE(peer->keepalive_interval, seconds);
	if (seconds && netif_running(peer->nd->dev)) {
		local_bh_disable();
		noise_send_keepalive(peer);
		local_bh_enable();
	}
}
