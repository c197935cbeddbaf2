// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the device's identity (its protocol and static key pair,
 * struct noise_identity) and its configuration: protocol, keys, listen
 * port, fwmark (Documentation/architecture.rst, "The configuration
 * interface"). A key change derives every peer's keys again and has each
 * handshake again; a protocol change removes the peers.
 */

#include <crypto/algapi.h>	/* crypto_memneq(), also on 6.1 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/dst_cache.h>
#include <net/sock.h>
#include "device.h"
#include "identity.h"
#include "peer.h"
#include "peer_conf.h"
#include "socket.h"
#include "proto.h"
#include "hs_glue.h"
#include "wg.h"

#define NOISE_DEFAULT_PROTOCOL	"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s"

static struct noise_identity *noise_ident(struct noise_device *nd)
{
	return rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
}

/*
 * The identity's MAC checker (a copy must not share the seqlock): a fresh
 * secret, keys from its public key and its framing's labels.
 */
static void noise_ident_cookie(struct noise_identity *id)
{
	const char *mac1, *cookie;

	noise_cookie_checker_init(&id->cookie);
	noise_framing_labels(&id->proto, &mac1, &cookie);
	if (id->has_key)
		noise_cookie_checker_set_key(&id->cookie, mac1, cookie, id->public_key,
					     id->proto.info.dh_len);
}

static struct noise_identity *noise_ident_new(const char *proto,
					      struct netlink_ext_ack *extack, int *err)
{
	struct noise_identity *id = kzalloc(sizeof(*id), GFP_KERNEL);

	*err = -ENOMEM;
	if (!id)
		return NULL;
	*err = noise_tunnel_protocol_parse(proto, &id->proto, extack);
	if (*err) {
		kfree(id);
		return NULL;
	}
	noise_ident_cookie(id);
	return id;
}

static void noise_ident_free_rcu(struct rcu_head *rcu)
{
	kfree_sensitive(container_of(rcu, struct noise_identity, rcu));
}

/*
 * Swap in @id. With a new private key of the same protocol the sessions
 * stay: they carry the traffic until the handshakes the caller starts
 * (noise_device_rehandshake(), which also drops the handshakes in
 * progress) replace them (Documentation/timers.rst, key changes).
 * Otherwise (no key any more, another protocol) every session and
 * handshake of the old identity goes.
 */
static void noise_ident_swap(struct noise_device *nd, struct noise_identity *id)
{
	struct noise_identity *old = noise_ident(nd);
	bool keep = old && id->has_key && !strcmp(old->proto.name, id->proto.name);
	struct noise_peer *peer;

	/* Queued handshake messages were checked against the old lengths. */
	id->proto_gen = old ? old->proto_gen + !keep : 0;
	mutex_lock(&nd->hs_lock);
	rcu_assign_pointer(nd->ident, id);
	noise_glue_clear_anon(nd);
	list_for_each_entry(peer, &nd->peer_list, list) {
		if (keep)
			continue;
		noise_glue_clear_peer(peer);
		noise_keypairs_clear(peer);
	}
	mutex_unlock(&nd->hs_lock);
	if (old)
		call_rcu(&old->rcu, noise_ident_free_rcu);
}

/*
 * The static key pair of @id from @key (its protocol's dh_len bytes; all
 * zero: no key). The old key is wiped first.
 */
static int noise_ident_load_key(struct noise_identity *id, const u8 *key)
{
	unsigned int len = id->proto.info.dh_len;

	memzero_explicit(id->private_key, sizeof(id->private_key));
	memset(id->public_key, 0, sizeof(id->public_key));
	id->has_key = memchr_inv(key, 0, len);
	if (!id->has_key)
		return 0;
	memcpy(id->private_key, key, len);
	return noise_dh_public(id->proto.info.dh, id->public_key, id->private_key);
}

/**
 * noise_device_ident_prepare() - the identity a set request asks for.
 * @nd: the device (conf_lock held).
 * @protocol: the new protocol, or NULL to keep the current one.
 * @private_key: the new private key (dh_len of the resulting protocol;
 *	all zero: none), or NULL: none with a new protocol, else unchanged.
 * @extack: the reason of a refusal.
 *
 * Allocates and computes everything; changes nothing. Hand the result to
 * noise_device_ident_commit() (cannot fail) or noise_device_ident_abort().
 * Context: process, conf_lock held.
 * Return: the identity or ERR_PTR(-errno).
 */
struct noise_identity *noise_device_ident_prepare(struct noise_device *nd,
						  const char *protocol,
						  const u8 *private_key,
						  struct netlink_ext_ack *extack)
{
	struct noise_identity *cur = noise_ident(nd), *id;
	int err;

	lockdep_assert_held(&nd->conf_lock);
	if (protocol) {
		id = noise_ident_new(protocol, extack, &err);
		if (!id)
			return ERR_PTR(err);
	} else {
		id = kmemdup(cur, sizeof(*cur), GFP_KERNEL);
		if (!id)
			return ERR_PTR(-ENOMEM);
	}
	err = private_key ? noise_ident_load_key(id, private_key) : 0;
	if (err) {
		kfree_sensitive(id);
		return ERR_PTR(err);
	}
	noise_ident_cookie(id);
	return id;
}

/*
 * The same protocol and private key (or none, both): a configuration that
 * names the key we have changes nothing (no session goes, no handshake).
 */
static bool noise_ident_same(const struct noise_identity *old,
			     const struct noise_identity *id)
{
	return old && old->has_key == id->has_key &&
	       !strcmp(old->proto.name, id->proto.name) &&
	       (!id->has_key || !crypto_memneq(old->private_key, id->private_key,
						 id->proto.info.dh_len));
}

/* Our keys changed: every peer handshakes again at once (timers.rst). */
static void noise_device_rehandshake(struct noise_device *nd)
{
	struct noise_peer *peer;

	mutex_lock(&nd->hs_lock);
	list_for_each_entry(peer, &nd->peer_list, list)
		noise_peer_rehandshake(peer);
	mutex_unlock(&nd->hs_lock);
}

/*
 * Our keys changed to @id's (already swapped in): a peer with our own new
 * public key goes, every other peer's keys (ss, hint id) are derived again
 * and each handshakes again at once.
 */
static void noise_device_rekey_peers(struct noise_device *nd,
				     const struct noise_identity *id)
{
	unsigned int len = id->proto.info.dh_len;
	struct noise_peer *peer, *tmp;

	lockdep_assert_held(&nd->conf_lock);
	list_for_each_entry_safe(peer, tmp, &nd->peer_list, list) {
		if (id->has_key && !memcmp(peer->public_key, id->public_key, len)) {
			noise_peer_remove(peer);
			continue;
		}
		/* The handshake work reads ss and the hint id under hs_lock. */
		mutex_lock(&nd->hs_lock);
		noise_peer_derive_keys(peer);
		mutex_unlock(&nd->hs_lock);
	}
	noise_peer_tables_fit(nd);	/* peers without ss before are filed now */
	noise_device_rehandshake(nd);
}

/**
 * noise_device_ident_commit() - install a prepared identity; cannot fail.
 * @nd: the device (conf_lock held).
 * @id: from noise_device_ident_prepare().
 *
 * A new protocol removes every peer first; a peer with our own new public
 * key is removed, the others' keys are derived again and each handshakes
 * again at once: the sessions stay until the new ones replace them
 * (noise_ident_swap(); without a private key they go).
 * Context: process, conf_lock held.
 */
void noise_device_ident_commit(struct noise_device *nd, struct noise_identity *id)
{
	lockdep_assert_held(&nd->conf_lock);
	if (noise_ident_same(noise_ident(nd), id)) {
		kfree_sensitive(id);
		return;
	}
	if (strcmp(noise_ident(nd)->proto.name, id->proto.name))
		noise_peer_remove_all(nd);
	noise_ident_swap(nd, id);
	noise_device_rekey_peers(nd, id);
}

/** noise_device_ident_abort() - drop a prepared identity. */
void noise_device_ident_abort(struct noise_identity *id)
{
	kfree_sensitive(id);
}

/**
 * noise_device_set_protocol() - change the protocol.
 * @nd: the device (conf_lock held).
 * @name: the protocol name.
 * @extack: the reason of a refusal.
 *
 * All peers and the private key go (their keys belong to the old DH).
 * Context: process, conf_lock held.
 * Return: 0 or -errno; on error nothing changed.
 */
int noise_device_set_protocol(struct noise_device *nd, const char *name,
			      struct netlink_ext_ack *extack)
{
	struct noise_identity *id;
	int err;

	lockdep_assert_held(&nd->conf_lock);
	if (!strcmp(noise_ident(nd)->proto.name, name))
		return 0;
	id = noise_ident_new(name, extack, &err);
	if (!id)
		return err;
	noise_peer_remove_all(nd);
	noise_ident_swap(nd, id);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_device_set_protocol, NOISE_INTERNAL);

/**
 * noise_device_set_private_key() - set or remove the static key.
 * @nd: the device (conf_lock held).
 * @key: dh_len bytes; all zero removes it.
 *
 * Context: process, conf_lock held.
 * Return: 0 or -errno (nothing changed).
 */
int noise_device_set_private_key(struct noise_device *nd, const u8 *key)
{
	struct noise_identity *cur = noise_ident(nd), *id;
	int err;

	lockdep_assert_held(&nd->conf_lock);
	id = kmemdup(cur, sizeof(*cur), GFP_KERNEL);
	if (!id)
		return -ENOMEM;
	err = noise_ident_load_key(id, key);
	if (err) {
		kfree_sensitive(id);
		return err;
	}
	noise_ident_cookie(id);
	noise_ident_swap(nd, id);
	noise_device_rekey_peers(nd, id);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_device_set_private_key, NOISE_INTERNAL);

/**
 * noise_device_set_listen_port() - change the port.
 * @nd: the device (RTNL and conf_lock held).
 * @port: the port; 0 any.
 *
 * RTNL keeps the device from coming up or going down meanwhile: ndo_open
 * runs with the device already marked running, so without it a port set
 * between the two would be bound twice (Documentation/architecture.rst,
 * locking).
 * Context: process, RTNL and conf_lock held.
 * Return: 0 or -errno (-ENONET: the namespace the device was created in
 * is gone), the old sockets kept.
 */
int noise_device_set_listen_port(struct noise_device *nd, u16 port)
{
	int err;

	ASSERT_RTNL();
	lockdep_assert_held(&nd->conf_lock);
	if (!netif_running(nd->dev)) {
		nd->listen_port_req = port;
		nd->listen_port = port;
		return 0;
	}
	if (port && port == nd->listen_port)
		return 0;
	err = noise_socket_open(nd, port);
	if (!err)
		nd->listen_port_req = port;
	return err;
}

void noise_device_set_fwmark(struct noise_device *nd, u32 mark)
{
	struct noise_peer *peer;
	struct sock *sk;

	lockdep_assert_held(&nd->conf_lock);
	WRITE_ONCE(nd->fwmark, mark);
	sk = rcu_dereference_protected(nd->sock4, lockdep_is_held(&nd->conf_lock));
	if (sk)
		WRITE_ONCE(sk->sk_mark, mark);
	sk = rcu_dereference_protected(nd->sock6, lockdep_is_held(&nd->conf_lock));
	if (sk)
		WRITE_ONCE(sk->sk_mark, mark);
	list_for_each_entry(peer, &nd->peer_list, list)
		dst_cache_reset(&peer->endpoint_cache);
}

/**
 * noise_device_ident_init() - a new device's identity (default protocol, no key).
 * @nd: the device, not registered yet.
 *
 * Context: process.
 * Return: 0 or -errno.
 */
int noise_device_ident_init(struct noise_device *nd)
{
	int err;

	RCU_INIT_POINTER(nd->ident, noise_ident_new(NOISE_DEFAULT_PROTOCOL, NULL, &err));
	return rcu_access_pointer(nd->ident) ? 0 : err;
}

/* noise_device_ident_free() - a device's identity, when no reader is left. */
void noise_device_ident_free(struct noise_device *nd)
{
	kfree_sensitive(rcu_dereference_protected(nd->ident, true));
}
