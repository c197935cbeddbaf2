// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the state floor's peers: their data, the lookups in the
 * device's peer tables (by key, by message-1 hint; the buckets are
 * peer_table.c's), the endpoint, the index table, keypairs. Making a
 * peer whole and taking it apart (work items, timers, queues, events)
 * is peer_conf.c's, on the control floor.
 */

#include <crypto/algapi.h>
#include <crypto/blake2s.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "allowedips.h"
#include "device.h"
#include "peer.h"

static atomic64_t noise_peer_counter = ATOMIC64_INIT(0);

static u32 noise_key_hash(const u8 *key, unsigned int len)
{
	return jhash(key, len, 0);
}

/* The DH length of the device's protocol (conf_lock or RCU). */
static unsigned int noise_peer_dh_len(struct noise_device *nd)
{
	struct noise_identity *id = rcu_dereference_check(nd->ident,
				lockdep_is_held(&nd->conf_lock) ||
				lockdep_is_held(&nd->hs_lock));

	return id->proto.info.dh_len;
}

/*
 * The hash of a hint id: its first bytes. An id is a BLAKE2s output of
 * ss, which no one but the two ends of a pair knows or chooses.
 */
static u32 noise_id_hash(const u8 *id)
{
	return get_unaligned_le32(id);
}

/* noise_peer_table_grow()'s hashes of the two tables' entries. */
static u32 noise_key_node_hash(struct noise_device *nd, const struct hlist_node *node)
{
	const struct noise_peer *peer = hlist_entry(node, struct noise_peer, hash);

	return noise_key_hash(peer->public_key, noise_peer_dh_len(nd));
}

static u32 noise_id_node_hash(struct noise_device *nd, const struct hlist_node *node)
{
	return noise_id_hash(hlist_entry(node, struct noise_peer, id_hash)->hint_id);
}

/**
 * noise_peer_tables_fit() - a bucket per peer in both peer tables, after
 *	peers were filed (a peer linked, every ss derived again).
 * @nd: the device.
 *
 * Context: process, conf_lock held, hs_lock not held.
 */
void noise_peer_tables_fit(struct noise_device *nd)
{
	noise_peer_table_grow(nd, &nd->peer_hash, noise_key_node_hash);
	noise_peer_table_grow(nd, &nd->peer_id_hash, noise_id_node_hash);
}

/*
 * File @peer in the id table under its hint id, or take it out (no ss, or
 * not on the device). Moving a filed peer needs hs_lock too: a reader
 * walking its old bucket could follow it into the new one.
 * Context: conf_lock held.
 */
static void noise_peer_id_rehash(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	struct noise_identity *id;

	lockdep_assert_held(&nd->conf_lock);
	if (!hlist_unhashed(&peer->id_hash)) {
		lockdep_assert_held(&nd->hs_lock);
		noise_peer_table_del(&nd->peer_id_hash, &peer->id_hash);
	}
	id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
	if (peer->linked && peer->ss_ok && id->proto.hinted)
		noise_peer_table_add(&nd->peer_id_hash, &peer->id_hash,
				     noise_id_hash(peer->hint_id));
}

/* ss = DH(our static, its static); @ss_ok unless it was degenerate. */
static void noise_peer_compute_ss(struct noise_peer *peer, const struct noise_identity *id)
{
	peer->ss_ok = !noise_dh_shared(id->proto.info.dh, peer->ss, id->private_key,
				       peer->public_key);
	if (!peer->ss_ok)
		memzero_explicit(peer->ss, sizeof(peer->ss));
}

/**
 * noise_peer_derive_keys() - new keys for a peer: its ss and hint id now
 *	(hinted protocols, which file the peer under the id), or at its
 *	first handshake (noise_peer_ss_ready()).
 * @peer: the peer (conf_lock held; hs_lock too once the peer is on the
 *	device's list: the handshake work reads them under it).
 *
 * Only a hinted message 1 finds its peer by an id derived from ss, so only
 * a hinted protocol needs ss before the peer's first handshake. Others
 * leave the DH, a scalar multiplication per peer, to that handshake: a
 * device of 100,000 peers is configured, or takes a new private key,
 * without 100,000 of them, and a peer that never handshakes costs none.
 * Context: process, conf_lock held.
 * Return: 0, or -EINVAL when there is no private key or ss is degenerate
 * (the peer then cannot handshake; ss_ok false).
 */
int noise_peer_derive_keys(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	struct noise_identity *id;
	int err = -EINVAL;

	id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
	peer->ss_ok = false;
	peer->ss_later = false;
	memzero_explicit(peer->ss, sizeof(peer->ss));
	memzero_explicit(peer->hint_id, sizeof(peer->hint_id));
	if (id->has_key && id->proto.hinted) {
		noise_peer_compute_ss(peer, id);
		if (peer->ss_ok) {
			noise_hint_id(peer->hint_id, peer->ss, id->proto.info.dh_len);
			err = 0;
		}
	} else if (id->has_key) {
		peer->ss_later = true;
		err = 0;
	}
	noise_peer_id_rehash(peer);
	return err;
}

/**
 * noise_peer_ss_ready() - whether the peer's ss is there (computed now if
 *	its derivation was left to its first handshake).
 * @peer: a peer on the device.
 *
 * The DH is done once per key change: a degenerate one is remembered too.
 * Context: process, hs_lock held (the handshake work).
 * Return: true when ss (and so a handshake with the peer) is possible.
 */
bool noise_peer_ss_ready(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	struct noise_identity *id;

	lockdep_assert_held(&nd->hs_lock);
	if (peer->ss_later) {
		id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->hs_lock));
		peer->ss_later = false;
		noise_peer_compute_ss(peer, id);
	}
	return peer->ss_ok;
}
EXPORT_SYMBOL_NS_GPL(noise_peer_ss_ready, NOISE_INTERNAL);

/*
 * Peers come from a cache of their own: 1,424 bytes on x86_64, which
 * kmalloc would round up to 2,048 (a device may hold 100,000 of them).
 */
static struct kmem_cache *noise_peer_cache;

int noise_peer_cache_init(void)
{
	noise_peer_cache = KMEM_CACHE(noise_peer, 0);
	return noise_peer_cache ? 0 : -ENOMEM;
}

/*
 * Context: process, after the last device is gone. A keypair's free
 * (after RCU, then work) drops its peer's reference and the peer's own
 * RCU callback frees it: both waited for before the cache goes.
 */
void noise_peer_cache_exit(void)
{
	noise_keypair_free_flush();
	rcu_barrier();
	kmem_cache_destroy(noise_peer_cache);
}

static void noise_peer_kfree(struct noise_peer *peer)
{
	memzero_explicit(peer, sizeof(*peer));
	kmem_cache_free(noise_peer_cache, peer);
}

/**
 * noise_peer_new() - a peer's memory and data, initialised; no work items,
 *	no timers, not on the device (noise_peer_alloc() makes it whole).
 * @nd: the device.
 * @public_key: its static public key, @key_len bytes.
 * @key_len: its length.
 * @gfp: allocation flags.
 *
 * Context: process.
 * Return: the peer or ERR_PTR(-ENOMEM).
 */
struct noise_peer *noise_peer_new(struct noise_device *nd, const u8 *public_key,
				  unsigned int key_len, gfp_t gfp)
{
	struct noise_peer *peer;

	peer = kmem_cache_zalloc(noise_peer_cache, gfp);
	if (!peer)
		return ERR_PTR(-ENOMEM);
	peer->stats = netdev_alloc_pcpu_stats(struct noise_pcpu_wire);
	if (!peer->stats)
		goto err_peer;
	if (dst_cache_init(&peer->endpoint_cache, gfp))
		goto err_stats;
	peer->nd = nd;
	if (WARN_ON(key_len > NOISE_MAX_DHLEN))
		goto err_cache;
	memcpy(peer->public_key, public_key, key_len);
	rwlock_init(&peer->endpoint_lock);
	spin_lock_init(&peer->keypairs.lock);
	skb_queue_head_init(&peer->staged);
	skb_queue_head_init(&peer->tx_queue);
	skb_queue_head_init(&peer->rx_queue);
	INIT_LIST_HEAD(&peer->allowedips);
	kref_init(&peer->ref);
	peer->internal_id = atomic64_inc_return(&noise_peer_counter);
	return peer;
err_cache:
	dst_cache_destroy(&peer->endpoint_cache);
err_stats:
	free_percpu(peer->stats);
err_peer:
	kmem_cache_free(noise_peer_cache, peer);
	return ERR_PTR(-ENOMEM);
}

/**
 * noise_peer_link() - file @peer in its device's list and key tables.
 * @peer: keys derived (noise_peer_derive_keys()).
 *
 * Context: process, conf_lock held.
 */
void noise_peer_link(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;
	unsigned int len = noise_peer_dh_len(nd);

	lockdep_assert_held(&nd->conf_lock);
	list_add_tail_rcu(&peer->list, &nd->peer_list);
	noise_peer_table_add(&nd->peer_hash, &peer->hash,
			     noise_key_hash(peer->public_key, len));
	peer->linked = true;
	noise_peer_id_rehash(peer);
	noise_peer_tables_fit(nd);
	nd->num_peers++;
	nd->peer_gen++;
}

/**
 * noise_peer_unhash() - unpublish @peer but for its allowed IPs: no lookup
 *	by key or hint finds it after the next grace period, and it is marked
 *	dead (no work is queued for it).
 * @peer: the peer; its allowed IPs are the caller's to remove (a device's
 *	teardown has taken them all out of the table at once).
 *
 * Context: process, conf_lock held.
 */
void noise_peer_unhash(struct noise_peer *peer)
{
	struct noise_device *nd = peer->nd;

	lockdep_assert_held(&nd->conf_lock);
	list_del_rcu(&peer->list);
	noise_peer_table_del(&nd->peer_hash, &peer->hash);
	peer->linked = false;
	if (!hlist_unhashed(&peer->id_hash))
		noise_peer_table_del(&nd->peer_id_hash, &peer->id_hash);
	nd->num_peers--;
	nd->peer_gen++;
	WRITE_ONCE(peer->dead, true);
}

/**
 * noise_peer_unlink() - unpublish @peer: no lookup finds it after the next
 *	grace period, and it is marked dead (no work is queued for it).
 * @peer: the peer.
 *
 * Context: process, conf_lock held.
 */
void noise_peer_unlink(struct noise_peer *peer)
{
	lockdep_assert_held(&peer->nd->conf_lock);
	noise_allowedips_remove_peer(&peer->nd->aips, &peer->allowedips);
	noise_peer_unhash(peer);
}

/** noise_peer_free_unadded() - free a peer noise_peer_add() never saw. */
void noise_peer_free_unadded(struct noise_peer *peer)
{
	dst_cache_destroy(&peer->endpoint_cache);
	free_percpu(peer->stats);
	noise_peer_kfree(peer);
}

/**
 * noise_peer_lookup() - the peer with this static public key.
 * @nd: the device.
 * @public_key: dh_len bytes.
 *
 * Context: conf_lock or hs_lock held (no reference taken).
 * Return: the peer or NULL.
 */
struct noise_peer *noise_peer_lookup(struct noise_device *nd, const u8 *public_key)
{
	unsigned int len = noise_peer_dh_len(nd);
	struct noise_peer *peer;

	hlist_for_each_entry_rcu(peer, noise_peer_table_bucket(&nd->peer_hash,
							       noise_key_hash(public_key, len)),
				 hash, lockdep_is_held(&nd->conf_lock) ||
				 lockdep_is_held(&nd->hs_lock)) {
		if (!memcmp(peer->public_key, public_key, len))
			return peer;
	}
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(noise_peer_lookup, NOISE_INTERNAL);

/* The peer filed under @id; @steps (NULL: not counted) counts the entries seen. */
static struct noise_peer *noise_peer_id_find(struct noise_device *nd, const u8 *id,
					     unsigned int *steps)
{
	struct noise_peer *peer;

	/* Peers are filed under conf_lock alone; the array changes under hs_lock. */
	hlist_for_each_entry_rcu(peer, noise_peer_table_bucket(&nd->peer_id_hash,
							       noise_id_hash(id)),
				 id_hash, lockdep_is_held(&nd->hs_lock) ||
				 lockdep_is_held(&nd->conf_lock)) {
		if (steps)
			(*steps)++;
		if (!crypto_memneq(peer->hint_id, id, NOISE_HINT_LEN))
			return peer;
	}
	return NULL;
}

static struct noise_peer *noise_peer_hint_find(struct noise_device *nd,
					       const u8 *e_pub, const u8 *ct,
					       u8 *k_out, unsigned int *steps)
{
	struct noise_identity *id = rcu_dereference_check(nd->ident,
				lockdep_is_held(&nd->hs_lock) ||
				lockdep_is_held(&nd->conf_lock));
	unsigned int len = id->proto.info.dh_len;
	u8 k[NOISE_MAX_DHLEN], pid[NOISE_HINT_LEN];
	struct noise_peer *peer = NULL;

	if (id->has_key &&
	    !noise_dh_shared(id->proto.info.dh, k, id->private_key, e_pub)) {
		noise_hint_xor(pid, ct, k, e_pub, len);
		peer = noise_peer_id_find(nd, pid, steps);
	}
	if (peer && k_out)
		memcpy(k_out, k, len);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(pid, sizeof(pid));
	return peer;
}

/**
 * noise_peer_hint_lookup() - the peer a message-1 hint names.
 * @nd: the device.
 * @e_pub: the initiator's ephemeral public key (dh_len bytes: the first
 *	of the message's Noise part).
 * @ct: the message's hint (NOISE_HINT_LEN bytes).
 * @k: NULL, or NOISE_MAX_DHLEN bytes out: when a peer is returned,
 *	DH(our static private key, @e_pub), dh_len bytes (a secret: the
 *	caller wipes it). The responder's es (or se) of the same message
 *	is this DH: noise_handshake_set_precomputed_sre() saves doing it
 *	again.
 *
 * One DH with our static key and one hash lookup, whatever the number of
 * peers (Documentation/wire-format.rst, hinted protocols).
 * Context: hs_lock (or conf_lock) held: the id table changes under both.
 * Return: the peer or NULL (then @k is untouched).
 */
struct noise_peer *noise_peer_hint_lookup(struct noise_device *nd,
					  const u8 *e_pub, const u8 *ct, u8 *k)
{
	return noise_peer_hint_find(nd, e_pub, ct, k, NULL);
}
EXPORT_SYMBOL_NS_GPL(noise_peer_hint_lookup, NOISE_INTERNAL);

#ifdef NOISE_TESTING
/* KUnit only: noise_peer_hint_lookup(), counting the table entries seen. */
struct noise_peer *noise_peer_hint_lookup_test(struct noise_device *nd,
					       const u8 *e_pub, const u8 *ct,
					       unsigned int *steps)
{
	*steps = 0;
	return noise_peer_hint_find(nd, e_pub, ct, NULL, steps);
}
EXPORT_SYMBOL_NS_GPL(noise_peer_hint_lookup_test, NOISE_INTERNAL);
#endif

/* The hint id of a pair: BLAKE2s-256(key = NOISE_LABEL_ID, ss). */
void noise_hint_id(u8 out[NOISE_HINT_LEN], const u8 *ss, unsigned int len)
{
	blake2s(out, ss, (const u8 *)NOISE_LABEL_ID, NOISE_HINT_LEN, len,
		sizeof(NOISE_LABEL_ID) - 1);
}
EXPORT_SYMBOL_NS_GPL(noise_hint_id, NOISE_INTERNAL);

/**
 * noise_hint_xor() - encrypt or decrypt a hint id.
 * @out: NOISE_HINT_LEN bytes out (may be @in).
 * @in: NOISE_HINT_LEN bytes.
 * @k: DH(e, responder's s), @len bytes (a secret).
 * @e_pub: the initiator's ephemeral public key, @len bytes.
 * @len: DHLEN.
 *
 * @out = @in XOR BLAKE2s-256(key = BLAKE2s-256(key = NOISE_LABEL_HINT, @k),
 * @e_pub || NOISE_LABEL_HINT).
 */
void noise_hint_xor(u8 *out, const u8 *in, const u8 *k, const u8 *e_pub,
		    unsigned int len)
{
	struct blake2s_state st;
	u8 key[NOISE_KEY_LEN], mask[NOISE_HINT_LEN];

	blake2s(key, k, (const u8 *)NOISE_LABEL_HINT, NOISE_KEY_LEN, len,
		sizeof(NOISE_LABEL_HINT) - 1);
	blake2s_init_key(&st, NOISE_HINT_LEN, key, NOISE_KEY_LEN);
	blake2s_update(&st, e_pub, len);
	blake2s_update(&st, (const u8 *)NOISE_LABEL_HINT, sizeof(NOISE_LABEL_HINT) - 1);
	blake2s_final(&st, mask);
	crypto_xor_cpy(out, in, mask, NOISE_HINT_LEN);
	memzero_explicit(key, sizeof(key));
	memzero_explicit(mask, sizeof(mask));
	memzero_explicit(&st, sizeof(st));
}
EXPORT_SYMBOL_NS_GPL(noise_hint_xor, NOISE_INTERNAL);

static void noise_peer_free(struct noise_peer *peer)
{
	dst_cache_destroy(&peer->endpoint_cache);
	free_percpu(peer->stats);
	kfree_sensitive(peer->last_sent_final);
	noise_peer_kfree(peer);
}

static void noise_peer_free_rcu(struct rcu_head *rcu)
{
	noise_peer_free(container_of(rcu, struct noise_peer, rcu));
}

static void noise_peer_release(struct kref *ref)
{
	struct noise_peer *peer = container_of(ref, struct noise_peer, ref);

	call_rcu(&peer->rcu, noise_peer_free_rcu);
}

static void noise_peer_release_now(struct kref *ref)
{
	noise_peer_free(container_of(ref, struct noise_peer, ref));
}

struct noise_peer *noise_peer_get(struct noise_peer *peer)
{
	kref_get(&peer->ref);
	return peer;
}

struct noise_peer *noise_peer_get_maybe_zero(struct noise_peer *peer)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_bh_held() && !rcu_read_lock_held(),
			 "taking a peer reference without RCU");
	if (unlikely(!peer || !kref_get_unless_zero(&peer->ref)))
		return NULL;
	return peer;
}

void noise_peer_put(struct noise_peer *peer)
{
	if (peer)
		kref_put(&peer->ref, noise_peer_release);
}

/**
 * noise_peer_put_unseen() - drop a reference to a peer no reader can see:
 *	the last one frees it now, not after another grace period.
 * @peer: the peer.
 *
 * For a device's teardown, which frees its peers in one pass while each is
 * still in the cache (noise_peer_remove_all()); the other references' puts
 * go through RCU as ever.
 * Context: process; a grace period has passed since @peer left every
 * table a reader searches (the device's lists, the allowed IPs, the index),
 * and nothing can put it back.
 */
void noise_peer_put_unseen(struct noise_peer *peer)
{
	kref_put(&peer->ref, noise_peer_release_now);
}

/* -------- the endpoint, requests to the handshake work -------- */

bool noise_endpoint_eq(const struct noise_endpoint *a,
		       const struct noise_endpoint *b)
{
	if (a->addr.sa_family != b->addr.sa_family || a->src_if != b->src_if)
		return false;
	if (a->addr.sa_family == AF_INET)
		return a->addr4.sin_port == b->addr4.sin_port &&
		       a->addr4.sin_addr.s_addr == b->addr4.sin_addr.s_addr &&
		       a->src4.s_addr == b->src4.s_addr;
	if (a->addr.sa_family == AF_INET6)
		return a->addr6.sin6_port == b->addr6.sin6_port &&
		       ipv6_addr_equal(&a->addr6.sin6_addr, &b->addr6.sin6_addr) &&
		       a->addr6.sin6_scope_id == b->addr6.sin6_scope_id &&
		       ipv6_addr_equal(&a->src6, &b->src6);
	return true;
}

/*
 * Roaming: the endpoint follows every authenticated message. The notify
 * hook runs later, from the peer's handshake work (process context).
 * Context: any.
 */
void noise_peer_update_endpoint(struct noise_peer *peer,
				const struct noise_endpoint *ep)
{
	read_lock_bh(&peer->endpoint_lock);
	if (likely(noise_endpoint_eq(&peer->endpoint, ep))) {
		read_unlock_bh(&peer->endpoint_lock);
		return;
	}
	read_unlock_bh(&peer->endpoint_lock);
	write_lock_bh(&peer->endpoint_lock);
	peer->endpoint = *ep;
	dst_cache_reset(&peer->endpoint_cache);
	write_unlock_bh(&peer->endpoint_lock);
	set_bit(NOISE_PEER_ENDPOINT_CHANGED, &peer->flags);
	noise_peer_queue_hs_work(peer);
}

/* Context: any. Takes a peer reference that the work drops. */
void noise_peer_queue_hs_work(struct noise_peer *peer)
{
	if (READ_ONCE(peer->dead))
		return;
	noise_peer_get(peer);
	if (!queue_work(peer->nd->hs_wq, &peer->hs_work))
		noise_peer_put(peer);
}

/* Ask for a handshake with @peer. Context: any. */
void noise_peer_want_handshake(struct noise_peer *peer)
{
	WRITE_ONCE(peer->hs_wanted, get_jiffies_64());
	set_bit(NOISE_PEER_WANT_HANDSHAKE, &peer->flags);
	noise_peer_queue_hs_work(peer);
}
EXPORT_SYMBOL_NS_GPL(noise_peer_want_handshake, NOISE_INTERNAL);

/* -------- configuration setters for netlink (conf_lock held) -------- */

/*
 * NOISE_A_PEER_PSK_ID (Documentation/netlink.rst): with k = BLAKE2s-256(
 * "noise psk id" || public key), BLAKE2s-128 keyed by k over n || psk[0] ||
 * ... || psk[n-1], the keys one per psk token (one key for all tokens is
 * counted once per token). noisectl computes the same from a config file.
 */
void noise_peer_psk_id(struct noise_peer *peer, u8 out[NOISE_PSK_ID_LEN])
{
	struct noise_device *nd = peer->nd;
	struct noise_identity *id;
	struct blake2s_state st;
	unsigned int n, i;
	u8 k[BLAKE2S_HASH_SIZE];
	u8 count;

	id = rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
	memset(out, 0, NOISE_PSK_ID_LEN);
	if (!peer->num_psks)
		return;
	n = peer->num_psks;
	if (n == 1 && id->proto.info.num_psks > 1)
		n = id->proto.info.num_psks;
	blake2s_init(&st, sizeof(k));
	blake2s_update(&st, (const u8 *)"noise psk id", 12);
	blake2s_update(&st, peer->public_key, id->proto.info.dh_len);
	blake2s_final(&st, k);
	blake2s_init_key(&st, NOISE_PSK_ID_LEN, k, sizeof(k));
	count = n;
	blake2s_update(&st, &count, 1);
	for (i = 0; i < n; i++)
		blake2s_update(&st, peer->psks[peer->num_psks == 1 ? 0 : i],
			       NOISE_PSK_LEN);
	blake2s_final(&st, out);
	memzero_explicit(k, sizeof(k));
}

int noise_peer_set_endpoint(struct noise_peer *peer, const struct sockaddr *sa,
			    size_t len)
{
	struct noise_endpoint ep = {};

	if (sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in))
		ep.addr4 = *(const struct sockaddr_in *)sa;
	else if (sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		ep.addr6 = *(const struct sockaddr_in6 *)sa;
	else
		return -EAFNOSUPPORT;
	noise_peer_update_endpoint(peer, &ep);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_peer_set_endpoint, NOISE_INTERNAL);

void noise_peer_get_endpoint(struct noise_peer *peer, struct sockaddr_storage *out)
{
	memset(out, 0, sizeof(*out));
	read_lock_bh(&peer->endpoint_lock);
	if (peer->endpoint.addr.sa_family == AF_INET)
		memcpy(out, &peer->endpoint.addr4, sizeof(peer->endpoint.addr4));
	else if (peer->endpoint.addr.sa_family == AF_INET6)
		memcpy(out, &peer->endpoint.addr6, sizeof(peer->endpoint.addr6));
	read_unlock_bh(&peer->endpoint_lock);
}

u16 noise_peer_keepalive(struct noise_peer *peer)
{
	return READ_ONCE(peer->keepalive_interval);
}

u64 noise_peer_last_handshake_ns(struct noise_peer *peer)
{
	return atomic64_read(&peer->last_handshake);
}

/* -------------------------- index table ----------------------------- */

void noise_index_init(struct noise_index_table *t)
{
	int i;

	spin_lock_init(&t->lock);
	for (i = 0; i < ARRAY_SIZE(t->buckets); i++)
		INIT_HLIST_HEAD(&t->buckets[i]);
}
EXPORT_SYMBOL_NS_GPL(noise_index_init, NOISE_INTERNAL);

static struct hlist_head *noise_index_bucket(struct noise_index_table *t, __le32 index)
{
	return &t->buckets[hash_32((__force u32)index, NOISE_INDEX_HASH_BITS)];
}

/* A fresh random index for @e; never 0. Context: any. */
void noise_index_insert(struct noise_index_table *t, struct noise_index *e)
{
	struct noise_index *o;
	__le32 idx;

	spin_lock_bh(&t->lock);
again:
	idx = (__force __le32)get_random_u32();
	if (!idx)
		goto again;
	hlist_for_each_entry(o, noise_index_bucket(t, idx), node)
		if (o->index == idx)
			goto again;
	e->index = idx;
	hlist_add_head_rcu(&e->node, noise_index_bucket(t, idx));
	spin_unlock_bh(&t->lock);
}
EXPORT_SYMBOL_NS_GPL(noise_index_insert, NOISE_INTERNAL);

/* @new takes over @old's index (a handshake becoming a keypair). */
void noise_index_replace(struct noise_index_table *t, struct noise_index *old,
			 struct noise_index *new)
{
	spin_lock_bh(&t->lock);
	new->index = old->index;
	hlist_replace_rcu(&old->node, &new->node);
	INIT_HLIST_NODE(&old->node);
	spin_unlock_bh(&t->lock);
}
EXPORT_SYMBOL_NS_GPL(noise_index_replace, NOISE_INTERNAL);

void noise_index_remove(struct noise_index_table *t, struct noise_index *e)
{
	spin_lock_bh(&t->lock);
	if (!hlist_unhashed(&e->node))
		hlist_del_init_rcu(&e->node);
	spin_unlock_bh(&t->lock);
}
EXPORT_SYMBOL_NS_GPL(noise_index_remove, NOISE_INTERNAL);

/* Context: rcu_read_lock(_bh). */
struct noise_index *noise_index_lookup(struct noise_index_table *t, __le32 index,
				       u8 type)
{
	struct noise_index *e;

	hlist_for_each_entry_rcu(e, noise_index_bucket(t, index), node)
		if (e->index == index && e->type == type)
			return e;
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(noise_index_lookup, NOISE_INTERNAL);

/* ---------------------------- keypairs ------------------------------ */

/*
 * A keypair goes in two steps. Its RCU callback (softirq) only puts it on
 * a list: readers on the data path may have held it until then. A work
 * item then frees the list in process context, where noise_cipher_free()
 * may sleep (setkey wipes a state kept for reuse, or the crypto API frees
 * the transforms, and a driver's exit may sleep).
 * noise_keypair_free_flush() waits for both steps.
 */
static LLIST_HEAD(noise_keypair_free_list);

static void noise_keypair_free_work(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&noise_keypair_free_list);
	struct noise_keypair *kp, *next;

	llist_for_each_entry_safe(kp, next, list, free_node) {
		noise_cipher_free(kp->send);
		noise_cipher_free(kp->recv);
		noise_peer_put(kp->entry.peer);
		kfree_sensitive(kp);
		cond_resched();
	}
}

static DECLARE_WORK(noise_keypair_free_worker, noise_keypair_free_work);

static void noise_keypair_free_rcu(struct rcu_head *rcu)
{
	struct noise_keypair *kp = container_of(rcu, struct noise_keypair, rcu);

	/* The first on an empty list queues the work; it takes them all. */
	if (llist_add(&kp->free_node, &noise_keypair_free_list))
		queue_work(system_unbound_wq, &noise_keypair_free_worker);
}

/**
 * noise_keypair_free_flush() - wait until every keypair released so far
 *	is freed, its cipher states (and their transforms) with it.
 *
 * Context: process, may sleep.
 */
void noise_keypair_free_flush(void)
{
	rcu_barrier();
	flush_work(&noise_keypair_free_worker);
}

static void noise_keypair_release(struct kref *ref)
{
	struct noise_keypair *kp = container_of(ref, struct noise_keypair, ref);

	noise_index_remove(&kp->entry.peer->nd->index, &kp->entry);
	call_rcu(&kp->rcu, noise_keypair_free_rcu);
}

void noise_keypair_put(struct noise_keypair *kp)
{
	if (kp)
		kref_put(&kp->ref, noise_keypair_release);
}

struct noise_keypair *noise_keypair_get(struct noise_keypair *kp)
{
	if (unlikely(!kp || !kref_get_unless_zero(&kp->ref)))
		return NULL;
	return kp;
}

static struct noise_keypair *noise_kp_take(struct noise_keypair __rcu **slot,
					   struct noise_peer *peer)
{
	struct noise_keypair *kp;

	kp = rcu_dereference_protected(*slot, lockdep_is_held(&peer->keypairs.lock));
	RCU_INIT_POINTER(*slot, NULL);
	return kp;
}

static struct noise_keypair *noise_kp_current(struct noise_keypairs *k)
{
	return rcu_dereference_protected(k->current_kp, lockdep_is_held(&k->lock));
}

/* Drop every session of @peer. Context: any but hard irq. */
void noise_keypairs_clear(struct noise_peer *peer)
{
	struct noise_keypair *kp[3];
	int i;

	spin_lock_bh(&peer->keypairs.lock);
	kp[0] = noise_kp_take(&peer->keypairs.current_kp, peer);
	kp[1] = noise_kp_take(&peer->keypairs.previous_kp, peer);
	kp[2] = noise_kp_take(&peer->keypairs.next_kp, peer);
	spin_unlock_bh(&peer->keypairs.lock);
	for (i = 0; i < 3; i++)
		noise_keypair_put(kp[i]);
}

/* Does the next slot hold a session a provisional one must not replace? */
static bool noise_kp_next_live(struct noise_keypairs *k)
{
	struct noise_keypair *next;

	next = rcu_dereference_protected(k->next_kp, lockdep_is_held(&k->lock));
	return next && !next->provisional &&
	       get_jiffies_64() - next->birth < NOISE_REKEY_TIMEOUT;
}

/**
 * noise_keypair_install() - put a new session into the peer's slots.
 * @peer: the peer.
 * @kp: the session (its reference goes to the slot when installed).
 *
 * A confirmed session becomes current (the old current becomes previous);
 * an unconfirmed one becomes next until the peer uses it. A provisional
 * one (peer.h) never replaces a live next session: it is refused.
 * Context: any but hard irq.
 * Return: true if installed; false (the caller keeps @kp) if refused.
 */
bool noise_keypair_install(struct noise_peer *peer, struct noise_keypair *kp)
{
	struct noise_keypairs *k = &peer->keypairs;
	struct noise_keypair *drop1, *drop2 = NULL;

	spin_lock_bh(&k->lock);
	if (kp->provisional && noise_kp_next_live(k)) {
		spin_unlock_bh(&k->lock);
		return false;
	}
	if (kp->confirmed) {
		drop1 = noise_kp_take(&k->previous_kp, peer);
		drop2 = noise_kp_take(&k->next_kp, peer);
		rcu_assign_pointer(k->previous_kp, noise_kp_current(k));
		rcu_assign_pointer(k->current_kp, kp);
	} else {
		drop1 = noise_kp_take(&k->next_kp, peer);
		rcu_assign_pointer(k->next_kp, kp);
	}
	spin_unlock_bh(&k->lock);
	noise_keypair_put(drop1);
	noise_keypair_put(drop2);
	return true;
}

/**
 * noise_keypair_confirm() - the peer used @kp: make it current.
 * @peer: the peer.
 * @kp: a session that was in the next slot.
 *
 * Context: any but hard irq (the receive path).
 * Return: true if @kp moved from next to current.
 */
bool noise_keypair_confirm(struct noise_peer *peer, struct noise_keypair *kp)
{
	struct noise_keypairs *k = &peer->keypairs;
	struct noise_keypair *old = NULL;
	bool moved = false;

	spin_lock_bh(&k->lock);
	if (rcu_access_pointer(k->next_kp) == kp) {
		old = noise_kp_take(&k->previous_kp, peer);
		rcu_assign_pointer(k->previous_kp, noise_kp_current(k));
		rcu_assign_pointer(k->current_kp, kp);
		RCU_INIT_POINTER(k->next_kp, NULL);
		WRITE_ONCE(kp->confirmed, true);
		moved = true;
	}
	spin_unlock_bh(&k->lock);
	noise_keypair_put(old);
	return moved;
}
