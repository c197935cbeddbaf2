// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: SET_DEVICE of the generic netlink family "noise"
 * (Documentation/netlink.rst). Genetlink has checked the request against
 * the generated policy; the handler then runs in three passes under the
 * device's conf_lock:
 *
 *  1. validate: parse the whole request into a plan (every rule the
 *     policies cannot express: key lengths of the device's DH, PSK counts
 *     of its pattern, read-only attributes of a peer, families, prefix
 *     lengths, duplicates, peer limits); nothing is touched;
 *  2. prepare: everything that can fail: the new identity (protocol and
 *     key pair), the new peers, the trie nodes of every allowed IP, then
 *     (last) a new listen port; a failure frees what was allocated and
 *     nothing has changed;
 *  3. commit: identity, fwmark, removed peers, then each peer in request
 *     order; no step of it can fail.
 *
 * Key material in a request (private key, PSKs) is wiped from the message
 * once the handler has run, whatever it decided; a request that
 * genetlink's policy check refuses never reaches it.
 */

#include <linux/bitops.h>
#include <linux/bsearch.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <uapi/linux/noise.h>
#include "../compat.h"
#include "../noise.h"
#include "allowedips.h"
#include "noise-nl-gen.h"
#include "device.h"
#include "identity.h"
#include "netlink.h"
#include "peer.h"
#include "peer_conf.h"
#include "proto.h"

/* SET_DEVICE: the plan. */

struct noise_plan_peer {
	const struct nlattr *nest;
	const u8 *public_key;
	unsigned int key_len;
	struct noise_peer *peer;	/* existing, or allocated by prepare */
	u32 flags;
	bool create, skip, set_psks, set_keepalive;
	u16 keepalive;
	unsigned int num_psks;
	const struct nlattr *psks;	/* num_psks keys, one after another */
	const struct nlattr *endpoint;
	unsigned int num_aips;
};

struct noise_plan {
	struct nlattr **tb;		/* the request, parsed by genetlink */
	const char *protocol;		/* a new one, or NULL */
	struct noise_protocol_info info;	/* of the resulting protocol */
	const u8 *private_key;		/* a new one, or NULL */
	bool clear_private_key;
	bool has_public;
	u8 public_key[NOISE_MAX_DHLEN];	/* ours after the request */
	bool set_port, set_fwmark;
	u16 port;
	u32 fwmark, flags;
	unsigned int num_peers, num_created, total_aips;
	struct noise_plan_peer *peers;
	struct noise_plan_peer **sorted;	/* by public key */
	struct noise_allowedips_pool pool;
	struct noise_identity *ident;	/* prepared, until committed */
};

static int noise_plan_peer_cmp(const void *a, const void *b)
{
	const struct noise_plan_peer *x = *(struct noise_plan_peer * const *)a;
	const struct noise_plan_peer *y = *(struct noise_plan_peer * const *)b;

	return memcmp(x->public_key, y->public_key, x->key_len);
}

/* Attributes that may appear once refuse a second copy. */
static int noise_nl_check_once(const struct nlattr *head, int len,
			       unsigned long multi, struct netlink_ext_ack *extack)
{
	unsigned long seen = 0;
	const struct nlattr *a;
	int rem, type;

	nla_for_each_attr(a, head, len, rem) {
		type = nla_type(a);
		if (type >= BITS_PER_LONG || (multi & BIT(type)))
			continue;
		if (seen & BIT(type)) {
			NL_SET_ERR_MSG_ATTR(extack, a, "attribute given twice");
			return -EINVAL;
		}
		seen |= BIT(type);
	}
	return 0;
}

static int noise_plan_allowedip(const struct nlattr *nest, unsigned int *count,
				struct netlink_ext_ack *extack)
{
	struct nlattr *tb[NOISE_A_ALLOWEDIP_MAX + 1];
	unsigned int len, max;
	u16 family;
	int err;

	err = nla_parse_nested(tb, NOISE_A_ALLOWEDIP_MAX, nest, noise_allowedip_nl_policy, extack);
	if (err)
		return err;
	err = noise_nl_check_once(nla_data(nest), nla_len(nest), 0, extack);
	if (err)
		return err;
	if (!tb[NOISE_A_ALLOWEDIP_FAMILY] || !tb[NOISE_A_ALLOWEDIP_ADDR] ||
	    !tb[NOISE_A_ALLOWEDIP_CIDR_MASK]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "an allowed IP needs family, address and prefix length");
		return -EINVAL;
	}
	family = nla_get_u16(tb[NOISE_A_ALLOWEDIP_FAMILY]);
	if (family == AF_INET) {
		len = sizeof(struct in_addr);
		max = 32;
	} else if (family == AF_INET6) {
		len = sizeof(struct in6_addr);
		max = 128;
	} else {
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_ALLOWEDIP_FAMILY],
				    "allowed IP family must be AF_INET or AF_INET6");
		return -EAFNOSUPPORT;
	}
	if (nla_len(tb[NOISE_A_ALLOWEDIP_ADDR]) != len) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_ALLOWEDIP_ADDR],
				    "allowed IP address length does not match its family");
		return -EINVAL;
	}
	if (nla_get_u8(tb[NOISE_A_ALLOWEDIP_CIDR_MASK]) > max) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_ALLOWEDIP_CIDR_MASK],
				    "prefix length too long for the family");
		return -EINVAL;
	}
	(*count)++;
	return 0;
}

static int noise_plan_endpoint(const struct nlattr *a, struct netlink_ext_ack *extack)
{
	const struct sockaddr *sa = nla_data(a);
	int len = nla_len(a);

	if (len >= (int)sizeof(sa->sa_family) &&
	    ((sa->sa_family == AF_INET && len == sizeof(struct sockaddr_in)) ||
	     (sa->sa_family == AF_INET6 && len == sizeof(struct sockaddr_in6))))
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, a,
			    "endpoint must be a struct sockaddr_in or sockaddr_in6");
	return -EINVAL;
}

/* The peer attributes only a dump carries: refused in a request. */
static int noise_plan_read_only(struct nlattr **tb, struct netlink_ext_ack *extack)
{
	if (tb[NOISE_A_PEER_PSK_ID])
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_PSK_ID], "the PSK id is read-only");
	else if (tb[NOISE_A_PEER_LAST_HANDSHAKE_TIME])
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_LAST_HANDSHAKE_TIME],
				    "the handshake time is read-only");
	else if (tb[NOISE_A_PEER_STATS])
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_STATS], "statistics are read-only");
	else if (tb[NOISE_A_PEER_LAST_ATTEMPT_TIME])
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_LAST_ATTEMPT_TIME],
				    "the attempt time is read-only");
	else
		return 0;
	return -EINVAL;
}

/*
 * PRESHARED_KEY: the keys one after another, one for every psk token or
 * one per token; empty (or absent) with REPLACE_PSKS removes them.
 */
static int noise_plan_psks(struct noise_plan *plan, struct noise_plan_peer *pp,
			   const struct nlattr *a, struct netlink_ext_ack *extack)
{
	unsigned int len = a ? nla_len(a) : 0;

	if (!len && !(pp->flags & NOISE_PEER_FLAG_REPLACE_PSKS)) {
		if (a) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "no preshared key given: set replace-psks to remove them");
			return -EINVAL;
		}
		return 0;
	}
	if (len % NOISE_PSK_KEY_LEN || len > NOISE_PEER_PSK_MAX * NOISE_PSK_KEY_LEN) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "preshared keys are 32 bytes each, at most one per psk token");
		return -EINVAL;
	}
	pp->num_psks = len / NOISE_PSK_KEY_LEN;
	if (pp->num_psks && !plan->info.num_psks) {
		NL_SET_ERR_MSG_ATTR(extack, a, "the protocol has no psk token");
		return -EINVAL;
	}
	if (pp->num_psks > 1 && pp->num_psks != plan->info.num_psks) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "give one preshared key, or one per psk token of the protocol");
		return -EINVAL;
	}
	pp->psks = a;
	pp->set_psks = true;
	return 0;
}

/* The peer's public key: there, of the DH's length, not ours. */
static int noise_plan_peer_key(struct noise_plan *plan, struct noise_plan_peer *pp,
			       struct nlattr **tb, const struct nlattr *nest,
			       struct netlink_ext_ack *extack)
{
	if (!tb[NOISE_A_PEER_PUBLIC_KEY]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "a peer needs its public key");
		return -EINVAL;
	}
	if (nla_len(tb[NOISE_A_PEER_PUBLIC_KEY]) != plan->info.dh_len) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_PUBLIC_KEY],
				    "peer public key length is not the protocol's DH length");
		return -EINVAL;
	}
	pp->public_key = nla_data(tb[NOISE_A_PEER_PUBLIC_KEY]);
	pp->key_len = plan->info.dh_len;
	if (plan->has_public &&
	    !memcmp(pp->public_key, plan->public_key, plan->info.dh_len)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_PUBLIC_KEY],
				    "peer public key is the device's own");
		return -EINVAL;
	}
	return 0;
}

/* A peer being removed: its public key and REMOVE_ME, nothing else. */
static int noise_plan_removal(struct noise_plan_peer *pp, struct nlattr **tb,
			      const struct nlattr *nest, struct netlink_ext_ack *extack)
{
	const struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) != NOISE_A_PEER_PUBLIC_KEY &&
		    nla_type(a) != NOISE_A_PEER_FLAGS) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a peer being removed takes only its public key and flags");
			return -EINVAL;
		}
	}
	if (pp->flags != NOISE_PEER_FLAG_REMOVE_ME) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_PEER_FLAGS],
				    "remove-me goes with no other flag");
		return -EINVAL;
	}
	return 0;
}

/* Whether the request creates, changes, removes or skips the peer. */
static void noise_plan_peer_fate(struct noise_plan *plan, struct noise_device *nd,
				 struct noise_plan_peer *pp)
{
	/* A new protocol removes every peer: all the request's peers are new. */
	pp->peer = plan->protocol ? NULL : noise_peer_lookup(nd, pp->public_key);
	if (pp->flags & NOISE_PEER_FLAG_REMOVE_ME) {
		pp->skip = !pp->peer;
		return;
	}
	if (!pp->peer) {
		if (pp->flags & NOISE_PEER_FLAG_UPDATE_ONLY) {
			pp->skip = true;
			return;
		}
		pp->create = true;
		plan->num_created++;
	}
	plan->total_aips += pp->num_aips;
}

static int noise_plan_one_peer(struct noise_plan *plan, struct noise_device *nd,
			       struct noise_plan_peer *pp, const struct nlattr *nest,
			       struct netlink_ext_ack *extack)
{
	const unsigned long multi = BIT(NOISE_A_PEER_ALLOWEDIP);
	struct nlattr *tb[NOISE_A_PEER_MAX + 1];
	const struct nlattr *a;
	int err, rem;

	pp->nest = nest;
	err = nla_parse_nested(tb, NOISE_A_PEER_MAX, nest, noise_peer_nl_policy, extack);
	if (!err)
		err = noise_nl_check_once(nla_data(nest), nla_len(nest), multi, extack);
	if (!err)
		err = noise_plan_read_only(tb, extack);
	if (!err)
		err = noise_plan_peer_key(plan, pp, tb, nest, extack);
	if (err)
		return err;
	if (tb[NOISE_A_PEER_FLAGS])
		pp->flags = nla_get_u32(tb[NOISE_A_PEER_FLAGS]);
	if (pp->flags & NOISE_PEER_FLAG_REMOVE_ME) {
		err = noise_plan_removal(pp, tb, nest, extack);
		if (err)
			return err;
	}

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) == NOISE_A_PEER_ALLOWEDIP) {
			err = noise_plan_allowedip(a, &pp->num_aips, extack);
			if (err)
				return err;
		}
	}
	err = noise_plan_psks(plan, pp, tb[NOISE_A_PEER_PRESHARED_KEY], extack);
	if (err)
		return err;
	if (tb[NOISE_A_PEER_ENDPOINT]) {
		err = noise_plan_endpoint(tb[NOISE_A_PEER_ENDPOINT], extack);
		if (err)
			return err;
		pp->endpoint = tb[NOISE_A_PEER_ENDPOINT];
	}
	if (tb[NOISE_A_PEER_PERSISTENT_KEEPALIVE]) {
		pp->set_keepalive = true;
		pp->keepalive = nla_get_u16(tb[NOISE_A_PEER_PERSISTENT_KEEPALIVE]);
	}
	noise_plan_peer_fate(plan, nd, pp);
	return 0;
}

/* Each peer once per request: sort by key, compare neighbours. */
static int noise_plan_no_twice(struct noise_plan *plan, struct netlink_ext_ack *extack)
{
	unsigned int i;

	sort(plan->sorted, plan->num_peers, sizeof(*plan->sorted),
	     noise_plan_peer_cmp, NULL);
	for (i = 1; i < plan->num_peers; i++) {
		if (!noise_plan_peer_cmp(&plan->sorted[i - 1], &plan->sorted[i])) {
			const struct noise_plan_peer *later = plan->sorted[i];

			if (later < plan->sorted[i - 1])
				later = plan->sorted[i - 1];

			NL_SET_ERR_MSG_ATTR(extack, later->nest,
					    "the same peer is given twice");
			return -EINVAL;
		}
	}
	return 0;
}

/* The device may not end up with more than NOISE_MAX_PEERS. */
static int noise_plan_peer_count(struct noise_plan *plan, struct noise_device *nd,
				 struct netlink_ext_ack *extack)
{
	unsigned int i, kept = 0, removed = 0;

	for (i = 0; i < plan->num_peers; i++) {
		if (!plan->peers[i].peer)
			continue;
		if (plan->peers[i].flags & NOISE_PEER_FLAG_REMOVE_ME)
			removed++;
		else
			kept++;
	}
	if (plan->protocol || (plan->flags & NOISE_DEVICE_FLAG_REPLACE_PEERS))
		i = kept + plan->num_created;
	else
		i = nd->num_peers - removed + plan->num_created;
	if (i > NOISE_MAX_PEERS) {
		NL_SET_ERR_MSG(extack, "the device would have too many peers");
		return -E2BIG;
	}
	return 0;
}

static int noise_plan_peers(struct noise_plan *plan, struct noise_device *nd,
			    const struct nlmsghdr *nlh, struct netlink_ext_ack *extack)
{
	unsigned int i;
	const struct nlattr *a;
	int err, rem;

	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem)
		if (nla_type(a) == NOISE_A_DEVICE_PEER)
			plan->num_peers++;
	if (!plan->num_peers)
		return 0;
	if (plan->num_peers > NOISE_MAX_PEERS) {
		NL_SET_ERR_MSG(extack, "too many peers in one request");
		return -E2BIG;
	}
	plan->peers = kvcalloc(plan->num_peers, sizeof(*plan->peers), GFP_KERNEL);
	plan->sorted = kvcalloc(plan->num_peers, sizeof(*plan->sorted), GFP_KERNEL);
	if (!plan->peers || !plan->sorted)
		return -ENOMEM;

	i = 0;
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		if (nla_type(a) != NOISE_A_DEVICE_PEER)
			continue;
		err = noise_plan_one_peer(plan, nd, &plan->peers[i], a, extack);
		if (err)
			return err;
		plan->sorted[i] = &plan->peers[i];
		i++;
	}

	err = noise_plan_no_twice(plan, extack);
	return err ?: noise_plan_peer_count(plan, nd, extack);
}

/* A new protocol: one the tunnel runs; plan->info becomes its. */
static int noise_plan_protocol(struct noise_plan *plan, const struct noise_identity *id,
			       struct netlink_ext_ack *extack)
{
	const struct nlattr *a = plan->tb[NOISE_A_DEVICE_PROTOCOL];
	int err;

	if (a && strcmp(nla_data(a), id->proto.name)) {
		unsigned int dh_len;

		err = noise_tunnel_protocol_ok(nla_data(a), &dh_len, extack);
		if (!err)
			err = noise_tunnel_protocol_info(nla_data(a), &plan->info);
		if (err) {
			NL_SET_BAD_ATTR(extack, a);
			if (!extack || !extack->_msg)
				NL_SET_ERR_MSG_ATTR(extack, a, "protocol not accepted");
			return err;
		}
		plan->protocol = nla_data(a);
	}
	return 0;
}

/* A new private key, or none; our public key after the request. */
static int noise_plan_private_key(struct noise_plan *plan, const struct noise_identity *id,
				  struct netlink_ext_ack *extack)
{
	const struct nlattr *a = plan->tb[NOISE_A_DEVICE_PRIVATE_KEY];

	if (a) {
		if (nla_len(a) != plan->info.dh_len) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "private key length is not the protocol's DH length");
			return -EINVAL;
		}
		if (!memchr_inv(nla_data(a), 0, nla_len(a))) {
			plan->clear_private_key = true;
		} else {
			plan->private_key = nla_data(a);
			if (noise_dh_public(plan->info.dh, plan->public_key, plan->private_key)) {
				NL_SET_ERR_MSG_ATTR(extack, a, "unusable private key");
				return -EINVAL;
			}
			plan->has_public = true;
		}
	} else if (!plan->protocol && id->has_key) {
		memcpy(plan->public_key, id->public_key, plan->info.dh_len);
		plan->has_public = true;
	}
	return 0;
}

static int noise_plan_validate(struct noise_plan *plan, struct noise_device *nd,
			       const struct nlmsghdr *nlh, struct netlink_ext_ack *extack)
{
	const unsigned long multi = BIT(NOISE_A_DEVICE_PEER);
	struct noise_identity *id = noise_nl_ident(nd);
	struct nlattr **tb = plan->tb;
	int err;

	err = noise_nl_check_once(nlmsg_attrdata(nlh, GENL_HDRLEN),
				  nlmsg_attrlen(nlh, GENL_HDRLEN), multi, extack);
	if (err)
		return err;
	if (!id) {
		NL_SET_ERR_MSG(extack, "device not ready");
		return -ENODEV;
	}
	plan->info = id->proto.info;
	/* Peers may not use our public key after the request. */
	err = noise_plan_protocol(plan, id, extack);
	if (!err)
		err = noise_plan_private_key(plan, id, extack);
	if (err)
		return err;
	if (tb[NOISE_A_DEVICE_LISTEN_PORT]) {
		plan->set_port = true;
		plan->port = nla_get_u16(tb[NOISE_A_DEVICE_LISTEN_PORT]);
	}
	if (tb[NOISE_A_DEVICE_FWMARK]) {
		plan->set_fwmark = true;
		plan->fwmark = nla_get_u32(tb[NOISE_A_DEVICE_FWMARK]);
	}
	if (tb[NOISE_A_DEVICE_FLAGS])
		plan->flags = nla_get_u32(tb[NOISE_A_DEVICE_FLAGS]);
	return noise_plan_peers(plan, nd, nlh, extack);
}

/* Everything that can fail; on failure, noise_plan_free() undoes it. */
static int noise_plan_prepare(struct noise_plan *plan, struct noise_device *nd,
			      struct netlink_ext_ack *extack)
{
	struct noise_plan_peer *pp;
	struct noise_peer *peer;
	unsigned int i;
	int err;

	if (plan->protocol || plan->private_key || plan->clear_private_key) {
		static const u8 zero[NOISE_MAX_DHLEN];
		const u8 *key = plan->private_key;

		if (plan->clear_private_key)
			key = zero;
		plan->ident = noise_device_ident_prepare(nd, plan->protocol, key, extack);
		if (IS_ERR(plan->ident)) {
			err = PTR_ERR(plan->ident);
			plan->ident = NULL;
			NL_SET_BAD_ATTR(extack, plan->protocol ? plan->tb[NOISE_A_DEVICE_PROTOCOL] :
					plan->tb[NOISE_A_DEVICE_PRIVATE_KEY]);
			return err;
		}
	}
	for (i = 0; i < plan->num_peers; i++) {
		pp = &plan->peers[i];
		if (!pp->create)
			continue;
		peer = noise_peer_alloc(nd, pp->public_key, pp->key_len, GFP_KERNEL);
		if (IS_ERR(peer)) {
			NL_SET_ERR_MSG_ATTR(extack, pp->nest, "cannot create the peer");
			return PTR_ERR(peer);
		}
		pp->peer = peer;
	}
	if (plan->total_aips) {
		err = noise_allowedips_pool_fill(&plan->pool, NOISE_ALLOWEDIPS_NODES_PER_INSERT *
						 plan->total_aips, GFP_KERNEL);
		if (err) {
			NL_SET_ERR_MSG(extack, "out of memory for the allowed IPs");
			return err;
		}
	}
	/* Last: a port that cannot be bound leaves everything as it was. */
	if (plan->set_port && plan->port != nd->listen_port) {
		err = noise_device_set_listen_port(nd, plan->port);
		if (err == -ENONET) {
			NL_SET_ERR_MSG_ATTR(extack, plan->tb[NOISE_A_DEVICE_LISTEN_PORT],
					    "the network namespace the device was created in is gone");
			return err;
		}
		if (err) {
			NL_SET_ERR_MSG_ATTR(extack, plan->tb[NOISE_A_DEVICE_LISTEN_PORT],
					    "cannot bind the listen port");
			return err;
		}
	}
	return 0;
}

static bool noise_plan_names(struct noise_plan *plan, const u8 *public_key)
{
	struct noise_plan_peer key = { .public_key = public_key,
				       .key_len = plan->info.dh_len }, *k = &key;

	return plan->num_peers &&
	       bsearch(&k, plan->sorted, plan->num_peers, sizeof(*plan->sorted),
		       noise_plan_peer_cmp);
}

static void noise_commit_peer(struct noise_plan *plan, struct noise_device *nd,
			      struct noise_plan_peer *pp)
{
	u8 psks[NOISE_PEER_PSK_MAX][NOISE_PSK_LEN];
	struct noise_peer *peer = pp->peer;
	const struct nlattr *a;
	int rem;

	if (pp->skip)
		return;
	if (pp->flags & NOISE_PEER_FLAG_REMOVE_ME) {
		noise_peer_remove(peer);
		return;
	}
	if (pp->create) {
		noise_peer_add(peer);
		pp->create = false;	/* owned by the device now */
	}
	if (pp->set_psks) {
		if (pp->num_psks)
			memcpy(psks, nla_data(pp->psks), pp->num_psks * NOISE_PSK_LEN);
		WARN_ON(noise_peer_set_psks(peer, &psks[0][0],
					    pp->num_psks));
		memzero_explicit(psks, sizeof(psks));
	}
	if (pp->endpoint)
		WARN_ON(noise_peer_set_endpoint(peer, nla_data(pp->endpoint),
						nla_len(pp->endpoint)));
	if (pp->set_keepalive)
		noise_peer_set_keepalive(peer, pp->keepalive);
	if (pp->flags & NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS)
		noise_allowedips_remove_peer(&nd->aips, &peer->allowedips);
	nla_for_each_nested(a, pp->nest, rem) {
		struct nlattr *tb[NOISE_A_ALLOWEDIP_MAX + 1];

		if (nla_type(a) != NOISE_A_PEER_ALLOWEDIP)
			continue;
		/* Validated in the first pass: this parse cannot fail. */
		if (WARN_ON(nla_parse_nested(tb, NOISE_A_ALLOWEDIP_MAX, a,
					     noise_allowedip_nl_policy, NULL)))
			continue;
		WARN_ON(noise_allowedips_insert(&nd->aips,
						nla_get_u16(tb[NOISE_A_ALLOWEDIP_FAMILY]),
						nla_data(tb[NOISE_A_ALLOWEDIP_ADDR]),
						nla_get_u8(tb[NOISE_A_ALLOWEDIP_CIDR_MASK]),
						peer, &peer->allowedips, &plan->pool));
	}
}

/* Nothing here can fail. */
static void noise_plan_commit(struct noise_plan *plan, struct noise_device *nd)
{
	struct noise_peer *peer, *tmp;
	unsigned int i;

	if (plan->ident) {
		noise_device_ident_commit(nd, plan->ident);
		plan->ident = NULL;
	}
	if (plan->set_fwmark)
		noise_device_set_fwmark(nd, plan->fwmark);
	if (plan->flags & NOISE_DEVICE_FLAG_REPLACE_PEERS)
		list_for_each_entry_safe(peer, tmp, &nd->peer_list, list)
			if (!noise_plan_names(plan, peer->public_key))
				noise_peer_remove(peer);
	for (i = 0; i < plan->num_peers; i++)
		noise_commit_peer(plan, nd, &plan->peers[i]);
}

static void noise_plan_free(struct noise_plan *plan)
{
	unsigned int i;

	for (i = 0; plan->peers && i < plan->num_peers; i++)
		if (plan->peers[i].create && plan->peers[i].peer)
			noise_peer_free_unadded(plan->peers[i].peer);
	if (plan->ident)
		noise_device_ident_abort(plan->ident);
	noise_allowedips_pool_drain(&plan->pool);
	kvfree(plan->peers);
	kvfree(plan->sorted);
	memzero_explicit(plan->public_key, sizeof(plan->public_key));
	kfree(plan);
}

/* Wipe the private key and the PSKs from the request, whatever happened. */
static void noise_nl_wipe_keys(const struct nlmsghdr *nlh)
{
	struct nlattr *a, *p;
	int rem, prem;

	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		if (nla_type(a) == NOISE_A_DEVICE_PRIVATE_KEY) {
			memzero_explicit(nla_data(a), nla_len(a));
		} else if (nla_type(a) == NOISE_A_DEVICE_PEER) {
			nla_for_each_nested(p, a, prem)
				if (nla_type(p) == NOISE_A_PEER_PRESHARED_KEY)
					memzero_explicit(nla_data(p), nla_len(p));
		}
	}
}

int noise_nl_set_device_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct noise_device *nd;
	struct noise_plan *plan;
	bool rtnl;
	int err;

	plan = kzalloc(sizeof(*plan), GFP_KERNEL);
	if (!plan) {
		err = -ENOMEM;
		goto wipe;
	}
	plan->tb = info->attrs;
	nd = noise_nl_device(genl_info_net(info), plan->tb, extack);
	if (IS_ERR(nd)) {
		err = PTR_ERR(nd);
		goto out;
	}

	/*
	 * A new port swaps the sockets: under RTNL, so that the device does
	 * not come up or go down meanwhile (noise_device_set_listen_port()).
	 */
	rtnl = plan->tb[NOISE_A_DEVICE_LISTEN_PORT];
	if (rtnl)
		rtnl_lock();
	mutex_lock(&nd->conf_lock);
	err = noise_plan_validate(plan, nd, info->nlhdr, extack);
	if (!err)
		err = noise_plan_prepare(plan, nd, extack);
	if (!err)
		noise_plan_commit(plan, nd);
	noise_plan_free(plan);
	plan = NULL;
	mutex_unlock(&nd->conf_lock);
	if (rtnl)
		rtnl_unlock();
	dev_put(nd->dev);
out:
	if (plan)
		noise_plan_free(plan);
wipe:
	noise_nl_wipe_keys(info->nlhdr);
	return err;
}

#ifdef NOISE_TESTING
/**
 * noise_nl_set_test() - KUnit only: a SET_DEVICE request as genetlink runs it.
 * @skb: one netlink message (nlmsghdr, genlmsghdr, attributes) in init_net.
 * @extack: the reply's extended ack.
 *
 * What genetlink does before the doit (message and header lengths, the
 * strict parse with the generated ops table's policy), then the doit.
 * Context: process.
 * Return: the doit's result.
 */
int noise_nl_set_test(struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	struct nlattr *attrs[NOISE_A_DEVICE_MAX + 1];
	const struct genl_split_ops *op = NULL;
	struct nlmsghdr *nlh = nlmsg_hdr(skb);
	struct genl_info info = {};
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(noise_nl_ops); i++)
		if (noise_nl_ops[i].cmd == NOISE_CMD_SET_DEVICE)
			op = &noise_nl_ops[i];
	if (WARN_ON(!op || op->maxattr > NOISE_A_DEVICE_MAX))
		return -EINVAL;
	if (skb->len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_len > skb->len || nlh->nlmsg_len < nlmsg_msg_size(GENL_HDRLEN))
		return -EINVAL;
	err = nlmsg_parse(nlh, GENL_HDRLEN, attrs, op->maxattr, op->policy, extack);
	if (err)
		return err;
	info.attrs = attrs;
	info.snd_seq = nlh->nlmsg_seq;
	info.nlhdr = nlh;
	info.genlhdr = nlmsg_data(nlh);
	info.extack = extack;
	genl_info_net_set(&info, &init_net);
	return noise_nl_set_device_doit(skb, &info);
}
EXPORT_SYMBOL_NS_GPL(noise_nl_set_test, NOISE_INTERNAL);
#endif /* NOISE_TESTING */
