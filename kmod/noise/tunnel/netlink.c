// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the generic netlink family "noise" (Documentation/
 * netlink.rst): its registration, the GET_DEVICE dump and the events on
 * the "peers" group. SET_DEVICE is netlink_set.c's. The spec
 * (Documentation/netlink/specs/noise.yaml) is the source of the uapi
 * header, the policies and the ops table (noise-nl-gen.c, made by
 * mk/netlink-gen.sh): genetlink checks every request against them
 * (strictly) before a handler runs.
 *
 * GET_DEVICE is a dump split over as many messages as it takes; a peer
 * whose allowed IPs do not fit goes on in the next message, its public key
 * repeated.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/linux/noise.h>
#include "../compat.h"
#include "../noise.h"
#include "allowedips.h"
#include "noise-nl-gen.h"
#include "device.h"
#include "stats.h"
#include "netlink.h"
#include "peer.h"

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

/**
 * noise_nl_device() - the noise device a request names.
 * @net: the requester's network namespace.
 * @tb: the request's top-level attributes (IFINDEX, IFNAME: both must
 *	name the same device).
 * @extack: says what is wrong.
 *
 * Context: process; takes a reference on the net_device (dev_put() it).
 * Return: the device, or an ERR_PTR.
 */
struct noise_device *noise_nl_device(struct net *net, struct nlattr **tb,
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

/* The device's identity; conf_lock held. */
struct noise_identity *noise_nl_ident(struct noise_device *nd)
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

/*
 * The peers from the cursor on, as many as fit; *@progress when something
 * was added. Called with conf_lock held.
 */
static int noise_dump_peers(struct sk_buff *skb, struct noise_dump_ctx *ctx,
			    bool *progress)
{
	struct noise_device *nd = ctx->nd;
	struct noise_identity *id;
	struct noise_peer *peer;
	unsigned int dh_len;
	int err = 0;

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
			*progress = true;
		if (err)
			break;
		ctx->aip_pos = 0;
		ctx->aip = NULL;
		ctx->peer_head_sent = false;
	}
	noise_dump_set_cursor(ctx, err ? peer : NULL);
	return err;
}

int noise_nl_get_device_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct noise_dump_ctx *ctx = noise_dump_ctx(cb);
	struct noise_device *nd = ctx->nd;
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
	err = noise_dump_peers(skb, ctx, &progress);
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

#ifdef NOISE_TESTING
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

/* noise_device.peer_event: an event the paths raised. Context: process. */
void noise_netlink_peer_event(struct noise_peer *peer, enum noise_peer_event ev)
{
	static const u8 cmd[] = {
		[NOISE_EV_HANDSHAKE] = NOISE_CMD_HANDSHAKE_NTF,
		[NOISE_EV_ENDPOINT] = NOISE_CMD_ENDPOINT_NTF,
		[NOISE_EV_HS_FAILED] = NOISE_CMD_HANDSHAKE_FAILED_NTF,
	};

	if (!WARN_ON_ONCE(ev >= ARRAY_SIZE(cmd)))
		noise_nl_notify(peer, cmd[ev]);
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
