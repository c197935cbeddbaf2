// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the generic netlink family "noise" (Documentation/
 * netlink.rst). Documentation/netlink/specs/noise.yaml describes it; the
 * kernel's YNL generator makes from it the uapi header, the policies and
 * the ops table (noise-nl-gen.c, mk/netlink-gen.sh): genetlink checks
 * every request against them (strictly) before the handlers below run.
 *
 * GET_DEVICE is a dump split over as many messages as it takes; a peer
 * whose allowed IPs do not fit goes on in the next message, its public key
 * repeated. SET_DEVICE runs in three passes under the device's conf_lock:
 *
 *  1. validate: parse the whole request into a plan (strict policies, then
 *     every rule the policies cannot express: key lengths of the device's
 *     DH, PSK counts of its pattern, families, prefix lengths, duplicates,
 *     peer limits); nothing is touched;
 *  2. prepare: everything that can fail: the new identity (protocol and
 *     key pair), the new peers, the trie nodes of every allowed IP, then
 *     (last) a new listen port; a failure frees what was allocated and
 *     nothing has changed;
 *  3. commit: identity, fwmark, removed peers, then each peer in request
 *     order; no step of it can fail.
 *
 * Key material in a request (private key, PSKs) is wiped from the message
 * once the doit has run, whatever it decided; a request that genetlink's
 * policy check refuses never reaches the doit.
 */

#include <linux/bitops.h>
#include <linux/bsearch.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/linux/noise.h>
#include "../compat.h"
#include "../noise.h"
#include "allowedips.h"
#include "noise-nl-gen.h"
#include "device.h"
#include "peer.h"
#include "tunnel.h"

static struct genl_family noise_genl_family;

/*
 * The group, as in the generated table, with the permission the generator
 * (6.12's) leaves out: keys, endpoints, handshake times are for
 * CAP_NET_ADMIN, as GET_DEVICE is.
 */
static const struct genl_multicast_group noise_genl_mcgrps[] = {
	[NOISE_NLGRP_PEERS] = { .name = NOISE_MCGRP_PEERS,
				.flags = NOISE_GENL_MCAST_NET_ADMIN },
};

/* Device lookup: by index or name (both: they must agree); holds a ref. */
static struct noise_device *noise_nl_device(struct net *net, struct nlattr **tb,
					    struct netlink_ext_ack *extack)
{
	struct net_device *dev = NULL;

	if (tb[NOISE_A_DEVICE_IFINDEX]) {
		dev = dev_get_by_index(net, nla_get_u32(tb[NOISE_A_DEVICE_IFINDEX]));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_DEVICE_IFINDEX],
					    "no device with this index");
			return ERR_PTR(-ENODEV);
		}
		if (tb[NOISE_A_DEVICE_IFNAME] &&
		    nla_strcmp(tb[NOISE_A_DEVICE_IFNAME], dev->name)) {
			dev_put(dev);
			NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_DEVICE_IFNAME],
					    "device name and index do not match");
			return ERR_PTR(-EINVAL);
		}
	} else if (tb[NOISE_A_DEVICE_IFNAME]) {
		dev = dev_get_by_name(net, nla_data(tb[NOISE_A_DEVICE_IFNAME]));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_DEVICE_IFNAME],
					    "no device with this name");
			return ERR_PTR(-ENODEV);
		}
	} else {
		NL_SET_ERR_MSG(extack, "the device is needed: ifindex or ifname");
		return ERR_PTR(-EINVAL);
	}
	if (dev->rtnl_link_ops != &noise_link_ops) {
		dev_put(dev);
		NL_SET_ERR_MSG_ATTR(extack, tb[NOISE_A_DEVICE_IFINDEX] ?:
				    tb[NOISE_A_DEVICE_IFNAME], "not a noise device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return noise_netdev_priv(dev);
}

static struct noise_identity *noise_nl_ident(struct noise_device *nd)
{
	return rcu_dereference_protected(nd->ident, lockdep_is_held(&nd->conf_lock));
}

static int noise_put_stats(struct sk_buff *skb, int type,
			   const struct noise_stats *st)
{
	struct nlattr *nest = nla_nest_start(skb, type);
	int i;

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_uint(skb, NOISE_A_STATS_RX_BYTES, st->rx_bytes) ||
	    nla_put_uint(skb, NOISE_A_STATS_RX_PACKETS, st->rx_packets) ||
	    nla_put_uint(skb, NOISE_A_STATS_TX_BYTES, st->tx_bytes) ||
	    nla_put_uint(skb, NOISE_A_STATS_TX_PACKETS, st->tx_packets) ||
	    nla_put_uint(skb, NOISE_A_STATS_HANDSHAKES, st->handshakes))
		goto cancel;
	for (i = 0; i < NOISE_DROP_COUNT; i++)
		if (nla_put_uint(skb, NOISE_A_STATS_DROP_BAD_TYPE + i, st->drops[i]))
			goto cancel;
	for (i = 0; i < NOISE_CE_COUNT; i++)
		if (nla_put_uint(skb, NOISE_A_STATS_COOKIE_REPLIES + i, st->cookie[i]))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int noise_put_endpoint(struct sk_buff *skb, struct noise_peer *peer)
{
	struct sockaddr_storage ss;

	noise_peer_get_endpoint(peer, &ss);
	if (ss.ss_family == AF_INET)
		return nla_put(skb, NOISE_A_PEER_ENDPOINT, sizeof(struct sockaddr_in), &ss);
	if (ss.ss_family == AF_INET6)
		return nla_put(skb, NOISE_A_PEER_ENDPOINT, sizeof(struct sockaddr_in6), &ss);
	return 0;
}

/* GET_DEVICE */

/*
 * Where the dump goes on: a cursor, not a position, so that each message
 * costs what it holds (a position meant walking past everything sent
 * before, quadratic in peers and allowed IPs).
 * @peer: the peer to go on with (a reference), NULL: the first.
 * @aip: its allowed IP to go on with, valid while nd->aips.seq is
 *	@aip_seq; NULL: by @aip_pos.
 */
struct noise_dump_ctx {
	struct noise_device *nd;	/* holds a reference on nd->dev */
	struct noise_peer *peer;
	const void *aip;
	unsigned long aip_pos;		/* its allowed IPs already sent */
	u32 aip_seq;
	bool device_sent;		/* the device attributes */
	bool peer_head_sent;		/* the peer's own attributes */
	bool done;
};

static struct noise_dump_ctx *noise_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct noise_dump_ctx) > sizeof(cb->ctx));
	return (struct noise_dump_ctx *)cb->ctx;
}

int noise_nl_get_device_start(struct netlink_callback *cb)
{
	struct noise_dump_ctx *ctx = noise_dump_ctx(cb);
	struct noise_device *nd;

	nd = noise_nl_device(sock_net(cb->skb->sk), noise_genl_dump_attrs(cb), cb->extack);
	if (IS_ERR(nd))
		return PTR_ERR(nd);
	memset(ctx, 0, sizeof(*ctx));
	ctx->nd = nd;
	return 0;
}

int noise_nl_get_device_done(struct netlink_callback *cb)
{
	struct noise_dump_ctx *ctx = noise_dump_ctx(cb);

	noise_peer_put(ctx->peer);
	ctx->peer = NULL;
	if (ctx->nd)
		dev_put(ctx->nd->dev);
	ctx->nd = NULL;
	return 0;
}

static int noise_put_device(struct sk_buff *skb, struct noise_device *nd)
{
	struct noise_identity *id = noise_nl_ident(nd);
	struct noise_stats st;

	if (id && (nla_put_string(skb, NOISE_A_DEVICE_PROTOCOL, id->proto.name) ||
		   (id->has_key && nla_put(skb, NOISE_A_DEVICE_PUBLIC_KEY,
					   id->proto.info.dh_len, id->public_key))))
		return -EMSGSIZE;
	if (nla_put_u16(skb, NOISE_A_DEVICE_LISTEN_PORT, nd->listen_port) ||
	    nla_put_u32(skb, NOISE_A_DEVICE_FWMARK, nd->fwmark))
		return -EMSGSIZE;
	noise_stats_read(nd, NULL, &st);
	return noise_put_stats(skb, NOISE_A_DEVICE_STATS, &st);
}

static int noise_put_peer_head(struct sk_buff *skb, struct noise_peer *peer)
{
	struct noise_stats st;
	u8 psk_id[NOISE_PSK_ID_LEN];

	if (peer->num_psks) {
		noise_peer_psk_id(peer, psk_id);
		if (nla_put(skb, NOISE_A_PEER_PSK_ID, sizeof(psk_id), psk_id))
			return -EMSGSIZE;
	}
	if (noise_put_endpoint(skb, peer) ||
	    nla_put_u16(skb, NOISE_A_PEER_PERSISTENT_KEEPALIVE, noise_peer_keepalive(peer)) ||
	    nla_put_uint(skb, NOISE_A_PEER_LAST_HANDSHAKE_TIME,
			 noise_peer_last_handshake_ns(peer)) ||
	    nla_put_uint(skb, NOISE_A_PEER_LAST_ATTEMPT_TIME,
			 atomic64_read(&peer->last_attempt)))
		return -EMSGSIZE;
	noise_stats_read(peer->nd, peer, &st);
	return noise_put_stats(skb, NOISE_A_PEER_STATS, &st);
}

static int noise_put_allowedip(void *data, int family, const u8 *addr, u8 cidr)
{
	struct sk_buff *skb = data;
	struct nlattr *nest = nla_nest_start(skb, NOISE_A_PEER_ALLOWEDIP);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(skb, NOISE_A_ALLOWEDIP_FAMILY, family) ||
	    nla_put(skb, NOISE_A_ALLOWEDIP_ADDR, family == AF_INET ? 4 : 16, addr) ||
	    nla_put_u8(skb, NOISE_A_ALLOWEDIP_CIDR_MASK, cidr)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One peer, from where the last message stopped. Returns 0 when the peer
 * is complete, -EMSGSIZE when the message filled up after some of it
 * (that part stays in), -ENOSPC when nothing new of it fit.
 */
static int noise_put_peer(struct sk_buff *skb, struct noise_dump_ctx *ctx,
			  struct noise_peer *peer, unsigned int dh_len)
{
	const struct noise_allowedips *aips = &peer->nd->aips;
	const void *aip = ctx->aip_seq == aips->seq ? ctx->aip : NULL;
	unsigned long pos = ctx->aip_pos;
	bool head = false;
	struct nlattr *nest;
	int err;

	nest = nla_nest_start(skb, NOISE_A_DEVICE_PEER);
	if (!nest)
		return -ENOSPC;
	if (nla_put(skb, NOISE_A_PEER_PUBLIC_KEY, dh_len, peer->public_key))
		goto cancel;
	if (!ctx->peer_head_sent) {
		if (noise_put_peer_head(skb, peer))
			goto cancel;
		head = true;
	}
	/* The allowed IPs changed since the cursor was taken: by position. */
	err = noise_allowedips_walk_peer_from(aips, &peer->allowedips, &aip, &pos,
					      noise_put_allowedip, skb);
	if (err && !head && pos == ctx->aip_pos)
		goto cancel;
	nla_nest_end(skb, nest);
	ctx->peer_head_sent = true;
	ctx->aip_pos = pos;
	ctx->aip = aip;
	ctx->aip_seq = aips->seq;
	return err ? -EMSGSIZE : 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -ENOSPC;
}

/* The dump goes on with @peer next time (NULL: nothing left). */
static void noise_dump_set_cursor(struct noise_dump_ctx *ctx, struct noise_peer *peer)
{
	if (ctx->peer == peer)
		return;
	noise_peer_put(ctx->peer);
	ctx->peer = peer ? noise_peer_get(peer) : NULL;
}

int noise_nl_get_device_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct noise_dump_ctx *ctx = noise_dump_ctx(cb);
	struct noise_device *nd = ctx->nd;
	struct noise_identity *id;
	struct noise_peer *peer;
	unsigned int dh_len;
	bool progress = false;
	int err = 0;
	void *hdr;

	if (ctx->done)
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &noise_genl_family, NLM_F_MULTI, NOISE_CMD_GET_DEVICE);
	if (!hdr)
		return -EMSGSIZE;

	mutex_lock(&nd->conf_lock);
	cb->seq = (u32)nd->peer_gen + nd->aips.seq;
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, NOISE_A_DEVICE_IFINDEX, nd->dev->ifindex) ||
	    nla_put_string(skb, NOISE_A_DEVICE_IFNAME, nd->dev->name))
		goto too_big;
	if (!ctx->device_sent) {
		if (noise_put_device(skb, nd))
			goto too_big;
		ctx->device_sent = true;
		progress = true;
	}
	id = noise_nl_ident(nd);
	dh_len = id ? id->proto.info.dh_len : 0;
	/*
	 * The peer to go on with was removed: its place in the list is gone.
	 * The dump ends here; the peer generation changed, so this message
	 * carries NLM_F_DUMP_INTR and the reader dumps again (as WireGuard).
	 */
	if (ctx->peer && READ_ONCE(ctx->peer->dead))
		peer = list_entry(&nd->peer_list, struct noise_peer, list);
	else
		peer = ctx->peer ?: list_first_entry(&nd->peer_list, struct noise_peer, list);
	list_for_each_entry_from(peer, &nd->peer_list, list) {
		err = noise_put_peer(skb, ctx, peer, dh_len);
		if (err != -ENOSPC)
			progress = true;
		if (err)
			break;
		ctx->aip_pos = 0;
		ctx->aip = NULL;
		ctx->peer_head_sent = false;
	}
	noise_dump_set_cursor(ctx, err ? peer : NULL);
	mutex_unlock(&nd->conf_lock);
	if (err && !progress)
		goto cancel;
	if (!err)
		ctx->done = true;
	genlmsg_end(skb, hdr);
	return skb->len;

too_big:
	mutex_unlock(&nd->conf_lock);
cancel:
	genlmsg_cancel(skb, hdr);
	/* Nothing fits even into an empty message: give up, or loop forever. */
	return skb->len ? skb->len : -EMSGSIZE;
}

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

	if (len < (int)sizeof(sa->sa_family))
		len = 0;
	else if ((sa->sa_family == AF_INET && len == sizeof(struct sockaddr_in)) ||
		 (sa->sa_family == AF_INET6 && len == sizeof(struct sockaddr_in6)))
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
	if (err)
		return err;
	err = noise_nl_check_once(nla_data(nest), nla_len(nest), multi, extack);
	if (!err)
		err = noise_plan_read_only(tb, extack);
	if (err)
		return err;
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
	if (tb[NOISE_A_PEER_FLAGS])
		pp->flags = nla_get_u32(tb[NOISE_A_PEER_FLAGS]);

	if (pp->flags & NOISE_PEER_FLAG_REMOVE_ME) {
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

	/* A new protocol removes every peer: all the request's peers are new. */
	pp->peer = plan->protocol ? NULL : noise_peer_lookup(nd, pp->public_key);
	if (pp->flags & NOISE_PEER_FLAG_REMOVE_ME) {
		pp->skip = !pp->peer;
		return 0;
	}
	if (!pp->peer) {
		if (pp->flags & NOISE_PEER_FLAG_UPDATE_ONLY) {
			pp->skip = true;
			return 0;
		}
		pp->create = true;
		plan->num_created++;
	}
	plan->total_aips += pp->num_aips;
	return 0;
}

static int noise_plan_peers(struct noise_plan *plan, struct noise_device *nd,
			    const struct nlmsghdr *nlh, struct netlink_ext_ack *extack)
{
	unsigned int i, kept = 0, removed = 0;
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

	/* Each peer once per request: sort by key, compare neighbours. */
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

static int noise_plan_validate(struct noise_plan *plan, struct noise_device *nd,
			       const struct nlmsghdr *nlh, struct netlink_ext_ack *extack)
{
	const unsigned long multi = BIT(NOISE_A_DEVICE_PEER);
	struct noise_identity *id = noise_nl_ident(nd);
	struct nlattr **tb = plan->tb;
	struct nlattr *a;
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

	a = tb[NOISE_A_DEVICE_PROTOCOL];
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

	/* Our public key after the request: peers may not use it. */
	a = tb[NOISE_A_DEVICE_PRIVATE_KEY];
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
	const struct genl_split_ops *op = &noise_nl_ops[1];
	struct nlmsghdr *nlh = nlmsg_hdr(skb);
	struct genl_info info = {};
	struct nlattr **attrs;
	int err;

	BUILD_BUG_ON(ARRAY_SIZE(noise_nl_ops) != 2);
	if (WARN_ON(op->cmd != NOISE_CMD_SET_DEVICE))
		return -EINVAL;
	if (skb->len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_len > skb->len || nlh->nlmsg_len < nlmsg_msg_size(GENL_HDRLEN))
		return -EINVAL;
	attrs = kmalloc_array(op->maxattr + 1, sizeof(*attrs), GFP_KERNEL);
	if (!attrs)
		return -ENOMEM;
	err = nlmsg_parse(nlh, GENL_HDRLEN, attrs, op->maxattr, op->policy, extack);
	if (err)
		goto out;
	info.attrs = attrs;
	info.snd_seq = nlh->nlmsg_seq;
	info.nlhdr = nlh;
	info.genlhdr = nlmsg_data(nlh);
	info.extack = extack;
	genl_info_net_set(&info, &init_net);
	err = noise_nl_set_device_doit(skb, &info);
out:
	kfree(attrs);
	return err;
}
EXPORT_SYMBOL_NS_GPL(noise_nl_set_test, NOISE_INTERNAL);

/* Append @skb's bytes to the kvmalloc'ed buffer *@out. */
static int noise_dump_test_append(u8 **out, size_t *size, size_t *cap,
				  const struct sk_buff *skb)
{
	u8 *bigger;

	if (*size + skb->len > *cap) {
		*cap = 2 * (*size + skb->len);
		bigger = kvmalloc(*cap, GFP_KERNEL);
		if (!bigger)
			return -ENOMEM;
		if (*size)
			memcpy(bigger, *out, *size);
		kvfree(*out);
		*out = bigger;
	}
	memcpy(*out + *size, skb->data, skb->len);
	*size += skb->len;
	return 0;
}

/**
 * noise_nl_dump_test_step() - KUnit only: a device's whole GET_DEVICE dump,
 *	with a call between its messages.
 * @nd: the device.
 * @len: out: the length of the result.
 * @between: NULL, or called after each message (conf_lock not held) with
 *	that message (one netlink message); it may change the device.
 * @arg: passed to @between.
 *
 * Every message of the dump, concatenated, made by the dumpit itself.
 * Context: process.
 * Return: kvmalloc'ed bytes (kvfree them), or NULL.
 */
void *noise_nl_dump_test_step(struct noise_device *nd, size_t *len,
			      void (*between)(void *arg, const void *msg, size_t len),
			      void *arg)
{
	struct netlink_callback *cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	struct nlmsghdr req = { .nlmsg_len = NLMSG_HDRLEN };
	struct sk_buff *skb = NULL, *in = NULL;
	size_t size = 0, cap = 0;
	u8 *out = NULL;
	int ret;

	in = alloc_skb(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!cb || !in)
		goto fail;
	cb->skb = in;
	cb->nlh = &req;
	dev_hold(nd->dev);
	noise_dump_ctx(cb)->nd = nd;
	for (;;) {
		skb = alloc_skb(NLMSG_GOODSIZE, GFP_KERNEL);
		if (!skb)
			goto fail_dump;
		ret = noise_nl_get_device_dumpit(skb, cb);
		if (ret < 0)
			goto fail_dump;
		if (!ret)
			break;
		if (noise_dump_test_append(&out, &size, &cap, skb))
			goto fail_dump;
		if (between)
			between(arg, skb->data, skb->len);
		kfree_skb(skb);
	}
	kfree_skb(skb);
	noise_nl_get_device_done(cb);
	kfree_skb(in);
	kfree(cb);
	*len = size;
	return out ?: kvmalloc(1, GFP_KERNEL);
fail_dump:
	kfree_skb(skb);
	noise_nl_get_device_done(cb);
fail:
	kvfree(out);
	kfree_skb(in);
	kfree(cb);
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(noise_nl_dump_test_step, NOISE_INTERNAL);

/**
 * noise_nl_dump_test() - KUnit only: a device's whole GET_DEVICE dump.
 * @nd: the device.
 * @len: out: the length of the result.
 *
 * Context: process.
 * Return: kvmalloc'ed bytes (kvfree them), or NULL.
 */
void *noise_nl_dump_test(struct noise_device *nd, size_t *len)
{
	return noise_nl_dump_test_step(nd, len, NULL, NULL);
}
EXPORT_SYMBOL_NS_GPL(noise_nl_dump_test, NOISE_INTERNAL);
#endif /* NOISE_TESTING */

/* Events */

/* What a give-up event says: when we last tried, and the counters. */
static int noise_put_hs_failed(struct sk_buff *skb, struct noise_peer *peer)
{
	struct noise_stats st;

	if (nla_put_uint(skb, NOISE_A_PEER_LAST_ATTEMPT_TIME,
			 atomic64_read(&peer->last_attempt)))
		return -EMSGSIZE;
	noise_stats_read(peer->nd, peer, &st);
	return noise_put_stats(skb, NOISE_A_PEER_STATS, &st);
}

static void noise_nl_notify(struct noise_peer *peer, u8 cmd)
{
	struct noise_device *nd = peer->nd;
	struct net *net = dev_net(nd->dev);
	struct noise_identity *id;
	struct nlattr *nest;
	struct sk_buff *skb;
	unsigned int dh_len;
	void *hdr;

	if (!genl_has_listeners(&noise_genl_family, net, NOISE_NLGRP_PEERS))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &noise_genl_family, 0, cmd);
	if (!hdr)
		goto fail;
	rcu_read_lock();
	id = rcu_dereference(nd->ident);
	dh_len = id ? id->proto.info.dh_len : 0;
	rcu_read_unlock();
	if (nla_put_u32(skb, NOISE_A_DEVICE_IFINDEX, nd->dev->ifindex) ||
	    nla_put_string(skb, NOISE_A_DEVICE_IFNAME, nd->dev->name))
		goto fail;
	nest = nla_nest_start(skb, NOISE_A_DEVICE_PEER);
	if (!nest || nla_put(skb, NOISE_A_PEER_PUBLIC_KEY, dh_len, peer->public_key))
		goto fail;
	if (cmd == NOISE_CMD_HANDSHAKE_NTF &&
	    nla_put_uint(skb, NOISE_A_PEER_LAST_HANDSHAKE_TIME,
			 noise_peer_last_handshake_ns(peer)))
		goto fail;
	if (cmd == NOISE_CMD_ENDPOINT_NTF && noise_put_endpoint(skb, peer))
		goto fail;
	if (cmd == NOISE_CMD_HANDSHAKE_FAILED_NTF && noise_put_hs_failed(skb, peer))
		goto fail;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&noise_genl_family, net, skb, 0,
				NOISE_NLGRP_PEERS, GFP_KERNEL);
	return;
fail:
	nlmsg_free(skb);
}

void noise_netlink_notify_peer_add(struct noise_peer *peer)
{
	noise_nl_notify(peer, NOISE_CMD_PEER_ADD_NTF);
}

void noise_netlink_notify_peer_del(struct noise_peer *peer)
{
	noise_nl_notify(peer, NOISE_CMD_PEER_DEL_NTF);
}

void noise_netlink_notify_handshake(struct noise_peer *peer)
{
	noise_nl_notify(peer, NOISE_CMD_HANDSHAKE_NTF);
}

void noise_netlink_notify_endpoint(struct noise_peer *peer)
{
	noise_nl_notify(peer, NOISE_CMD_ENDPOINT_NTF);
}

void noise_netlink_notify_hs_failed(struct noise_peer *peer)
{
	noise_nl_notify(peer, NOISE_CMD_HANDSHAKE_FAILED_NTF);
}

/* Family */

static struct genl_family noise_genl_family __ro_after_init = {
	.name = NOISE_FAMILY_NAME,
	.version = NOISE_FAMILY_VERSION,
	.module = THIS_MODULE,
	.netnsok = true,
	NOISE_GENL_OPS,		/* noise_nl_ops, generated */
	.mcgrps = noise_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(noise_genl_mcgrps),
};

int noise_genl_init(void)
{
	return genl_register_family(&noise_genl_family);
}

void noise_genl_exit(void)
{
	genl_unregister_family(&noise_genl_family);
}
