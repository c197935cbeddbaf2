// SPDX-License-Identifier: GPL-2.0
/*
 * The noise generic netlink family through libnl-genl-3.
 *
 * Errors are the kernel's extended ack message when it sends one
 * (NETLINK_EXT_ACK, NLMSGERR_ATTR_MSG); NETLINK_CAP_ACK keeps error
 * replies to large requests small.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "netlink.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* The outcome of one request: 0, or an errno with the kernel's message. */
struct nl_result {
	bool done;
	bool intr;			/* a dump changed while it was read */
	int error;
	char msg[256];
};

static void extack_msg(const struct nlmsghdr *nlh, size_t skip,
		       struct nl_result *res)
{
	const struct nlattr *a;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len <= skip)
		return;
	nla_for_each_attr(a, (struct nlattr *)((char *)nlh + skip),
			  nlh->nlmsg_len - skip, rem) {
		if (nla_type(a) == NLMSGERR_ATTR_MSG && nla_len(a) > 0) {
			snprintf(res->msg, sizeof(res->msg), "%.*s",
				 nla_len(a), (const char *)nla_data(a));
			/* No trailing newline in one-line errors. */
			res->msg[strcspn(res->msg, "\n")] = '\0';
		}
	}
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);
	struct nl_result *res = arg;
	size_t skip = NLMSG_HDRLEN + sizeof(*err);

	(void)nla;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		skip += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
	res->error = err->error < 0 ? -err->error : err->error;
	extack_msg(nlh, skip, res);
	res->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct nl_result *res = arg;

	(void)msg;
	res->done = true;
	return NL_STOP;
}

static int on_intr(struct nl_msg *msg, void *arg)
{
	struct nl_result *res = arg;

	(void)msg;
	res->intr = true;
	return NL_OK;
}

/* NLMSG_DONE of a dump: an int, negative when the dump failed. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nl_result *res = arg;
	int e;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		memcpy(&e, nlmsg_data(nlh), sizeof(e));
		if (e < 0) {
			res->error = -e;
			extack_msg(nlh, NLMSG_HDRLEN + sizeof(int), res);
		}
	}
	res->done = true;
	return NL_STOP;
}

/*
 * Receive buffers. A dump's messages are filled to at most 32 KiB and
 * nothing larger comes, so a 64 KiB buffer needs no MSG_PEEK first to learn
 * each one's size (libnl fails a truncated message rather than pass it
 * on). A set's replies are acks (NETLINK_CAP_ACK: without a copy of the
 * request) and the family's description, each well under a page; a
 * page-sized buffer comes from heap memory already touched, where a 64 KiB
 * one grows the heap for each reply (brk, and faults on its new pages).
 */
#define RX_DUMP		65536
#define RX_REPLY	4096

static struct nl_sock *nl_open(int proto, size_t rx_size)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1;

	if (!sk)
		die_oom();
	if (nl_connect(sk, proto)) {
		fprintf(stderr, "%s: cannot open a netlink socket\n", prog);
		nl_socket_free(sk);
		return NULL;
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));
	/* One recvmsg() per message, into a buffer of @rx_size bytes. */
	nl_socket_set_msg_buf_size(sk, rx_size);
	nl_socket_disable_msg_peek(sk);
	return sk;
}

/* A generic netlink socket and the noise family id, or NULL. */
static struct nl_sock *genl_open(int *family, size_t rx_size)
{
	struct nl_sock *sk = nl_open(NETLINK_GENERIC, rx_size);

	if (!sk)
		return NULL;
	*family = genl_ctrl_resolve(sk, NOISE_FAMILY_NAME);
	if (*family < 0) {
		fprintf(stderr,
			"%s: no generic netlink family '%s' (is the noise module loaded?)\n",
			prog, NOISE_FAMILY_NAME);
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/*
 * Send msg and read the answers until its ack (or the end of a dump):
 * valid() gets every data message. 0 or an errno, res holds the message.
 */
static int nl_talk(struct nl_sock *sk, struct nl_msg *msg,
		   int (*valid)(struct nl_msg *, void *), void *arg,
		   struct nl_result *res)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int err;

	if (!cb)
		die_oom();
	memset(res, 0, sizeof(*res));
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, res);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, res);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, res);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_intr, res);
	if (valid)
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid, arg);
	err = nl_send_auto(sk, msg);
	if (err < 0) {
		res->error = err == -NLE_MSGSIZE ? EMSGSIZE : EIO;
		snprintf(res->msg, sizeof(res->msg), "sending: %s",
			 nl_geterror(err));
		goto out;
	}
	while (!res->done) {
		err = nl_recvmsgs(sk, cb);
		if (err < 0 && !res->done) {
			res->error = EIO;
			snprintf(res->msg, sizeof(res->msg), "receiving: %s",
				 nl_geterror(err));
			break;
		}
	}
out:
	nl_cb_put(cb);
	return res->error;
}

static void print_error(const char *ifname, const char *what,
			const struct nl_result *res)
{
	if (res->msg[0])
		fprintf(stderr, "%s: %s: %s (%s)\n", prog, ifname, res->msg,
			strerror(res->error));
	else
		fprintf(stderr, "%s: %s: %s: %s\n", prog, ifname, what,
			strerror(res->error));
}

/* Parsing */

static bool get_key(u8 *key, size_t *len, const struct nlattr *a)
{
	size_t l = nla_len(a);

	if (l != 32 && l != 56)
		return false;
	memcpy(key, nla_data(a), l);
	*len = l;
	return true;
}

/* A uint attribute: 4 or 8 bytes, as the kernel's nla_put_uint() writes. */
static bool get_uint(const struct nlattr *a, u64 *v)
{
	if (nla_len(a) == sizeof(u32))
		*v = nla_get_u32((struct nlattr *)a);
	else if (nla_len(a) == sizeof(u64))
		*v = nla_get_u64((struct nlattr *)a);
	else
		return false;
	return true;
}

static bool parse_stats(struct noise_stats *st, struct nlattr *nest)
{
	const struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		int t = nla_type(a);

		if (t < NOISE_A_STATS_RX_BYTES || t > NOISE_A_STATS_MAX)
			continue;
		if (!get_uint(a, &st->v[t]))
			return false;
		st->present |= 1U << t;
	}
	return true;
}

static bool parse_allowedip(struct noise_peer *peer, struct nlattr *nest)
{
	struct nlattr *tb[NOISE_A_ALLOWEDIP_MAX + 1];
	struct noise_allowedip *ip;
	int alen;

	if (nla_parse_nested(tb, NOISE_A_ALLOWEDIP_MAX, nest, NULL) ||
	    !tb[NOISE_A_ALLOWEDIP_FAMILY] || !tb[NOISE_A_ALLOWEDIP_ADDR] ||
	    !tb[NOISE_A_ALLOWEDIP_CIDR_MASK] ||
	    nla_len(tb[NOISE_A_ALLOWEDIP_FAMILY]) != sizeof(u16) ||
	    nla_len(tb[NOISE_A_ALLOWEDIP_CIDR_MASK]) != sizeof(u8))
		return false;
	ip = peer_add_ip(peer);
	ip->family = nla_get_u16(tb[NOISE_A_ALLOWEDIP_FAMILY]);
	ip->cidr = nla_get_u8(tb[NOISE_A_ALLOWEDIP_CIDR_MASK]);
	alen = nla_len(tb[NOISE_A_ALLOWEDIP_ADDR]);
	if ((ip->family == AF_INET && alen == 4 && ip->cidr <= 32) ||
	    (ip->family == AF_INET6 && alen == 16 && ip->cidr <= 128)) {
		memcpy(&ip->ip6, nla_data(tb[NOISE_A_ALLOWEDIP_ADDR]), alen);
		return true;
	}
	peer->n_ips--;
	return false;
}

/*
 * The peer of the nest's public key: the device's last one when this
 * continues it from the previous message, else a new one. NULL if the
 * key is missing or malformed.
 */
static struct noise_peer *peer_of_nest(struct noise_device *dev,
				       struct nlattr **tb)
{
	struct noise_peer *peer, *last;
	u8 key[NOISE_MAX_KEY_LEN];
	size_t len;

	if (!tb[NOISE_A_PEER_PUBLIC_KEY] ||
	    !get_key(key, &len, tb[NOISE_A_PEER_PUBLIC_KEY]))
		return NULL;
	last = dev->n_peers ? &dev->peers[dev->n_peers - 1] : NULL;
	if (last && last->key_len == len && !memcmp(last->public_key, key, len))
		return last;	/* continued from the previous message */
	if (last && dev->peer_done) {
		/* A streaming read: the last peer is complete. */
		dev->peer_done(dev, last, dev->peer_arg);
		peer_release(last);
		dev->n_peers = 0;
	}
	peer = device_add_peer(dev);
	memcpy(peer->public_key, key, len);
	peer->key_len = len;
	if (tb[NOISE_A_PEER_FLAGS])
		peer->flags = nla_get_u32(tb[NOISE_A_PEER_FLAGS]);
	return peer;
}

static bool parse_peer_psk_id(struct noise_peer *peer, const struct nlattr *a)
{
	if (nla_len(a) != NOISE_PSK_ID_LEN)
		return false;
	memcpy(peer->psk_id, nla_data(a), NOISE_PSK_ID_LEN);
	peer->has_psk_id = true;
	return true;
}

static bool parse_peer_endpoint(struct noise_peer *peer, const struct nlattr *a)
{
	size_t l = nla_len(a);

	if (l != sizeof(struct sockaddr_in) && l != sizeof(struct sockaddr_in6))
		return false;
	memset(&peer->endpoint, 0, sizeof(peer->endpoint));
	memcpy(&peer->endpoint, nla_data(a), l);
	peer->has_endpoint = true;
	return true;
}

/* Only in requests (this parses them back for the unit tests). */
static bool parse_peer_psks(struct noise_peer *peer, const struct nlattr *a)
{
	int len = nla_len(a);

	if (len % NOISE_PSK_KEY_LEN ||
	    len > NOISE_PEER_PSK_MAX * NOISE_PSK_KEY_LEN)
		return false;
	memcpy(peer_psk(peer, 0), nla_data(a), len);
	peer->n_psks = len / NOISE_PSK_KEY_LEN;
	peer->has_psks = true;
	return true;
}

/* The attributes that stand at most once in a peer nest, but the key. */
static bool parse_peer_attrs(struct noise_peer *peer, struct nlattr **tb)
{
	if (tb[NOISE_A_PEER_PSK_ID] &&
	    !parse_peer_psk_id(peer, tb[NOISE_A_PEER_PSK_ID]))
		return false;
	if (tb[NOISE_A_PEER_ENDPOINT] &&
	    !parse_peer_endpoint(peer, tb[NOISE_A_PEER_ENDPOINT]))
		return false;
	if (tb[NOISE_A_PEER_PERSISTENT_KEEPALIVE]) {
		peer->keepalive = nla_get_u16(tb[NOISE_A_PEER_PERSISTENT_KEEPALIVE]);
		peer->has_keepalive = true;
	}
	if (tb[NOISE_A_PEER_LAST_HANDSHAKE_TIME] &&
	    !get_uint(tb[NOISE_A_PEER_LAST_HANDSHAKE_TIME], &peer->last_handshake_ns))
		return false;
	if (tb[NOISE_A_PEER_LAST_ATTEMPT_TIME] &&
	    !get_uint(tb[NOISE_A_PEER_LAST_ATTEMPT_TIME], &peer->last_attempt_ns))
		return false;
	if (tb[NOISE_A_PEER_STATS] &&
	    !parse_stats(peer_stats_get(peer), tb[NOISE_A_PEER_STATS]))
		return false;
	return true;
}

/* Repeated attributes: the table keeps one, so walk the nest again. */
static bool parse_peer_allowedips(struct noise_peer *peer, struct nlattr *nest)
{
	struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) == NOISE_A_PEER_ALLOWEDIP &&
		    !parse_allowedip(peer, a))
			return false;
	}
	return true;
}

static bool parse_peer(struct noise_device *dev, struct nlattr *nest)
{
	struct nlattr *tb[NOISE_A_PEER_MAX + 1];
	struct noise_peer *peer;

	if (nla_parse_nested(tb, NOISE_A_PEER_MAX, nest, NULL))
		return false;
	peer = peer_of_nest(dev, tb);
	if (!peer || !parse_peer_attrs(peer, tb) ||
	    !parse_peer_allowedips(peer, nest))
		return false;
	if (tb[NOISE_A_PEER_PRESHARED_KEY] &&
	    !parse_peer_psks(peer, tb[NOISE_A_PEER_PRESHARED_KEY]))
		return false;
	return true;
}

bool noise_parse_device(struct nlmsghdr *nlh, struct noise_device *dev)
{
	struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct nlattr *a, *head;
	int len, rem;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	head = genlmsg_attrdata(gnlh, 0);
	len = genlmsg_attrlen(gnlh, 0);
	nla_for_each_attr(a, head, len, rem) {
		switch (nla_type(a)) {
		case NOISE_A_DEVICE_IFINDEX:
			dev->ifindex = nla_get_u32(a);
			break;
		case NOISE_A_DEVICE_IFNAME:
			nla_strlcpy(dev->ifname, a, sizeof(dev->ifname));
			break;
		case NOISE_A_DEVICE_PROTOCOL:
			nla_strlcpy(dev->protocol, a, sizeof(dev->protocol));
			dev->has_protocol = true;
			break;
		case NOISE_A_DEVICE_PRIVATE_KEY:
			if (!get_key(dev->private_key, &dev->private_key_len, a))
				return false;
			dev->has_private_key = true;
			break;
		case NOISE_A_DEVICE_PUBLIC_KEY:
			if (!get_key(dev->public_key, &dev->public_key_len, a))
				return false;
			break;
		case NOISE_A_DEVICE_LISTEN_PORT:
			dev->listen_port = nla_get_u16(a);
			dev->has_listen_port = true;
			break;
		case NOISE_A_DEVICE_FWMARK:
			dev->fwmark = nla_get_u32(a);
			dev->has_fwmark = true;
			break;
		case NOISE_A_DEVICE_FLAGS:
			dev->flags = nla_get_u32(a);
			break;
		case NOISE_A_DEVICE_STATS:
			if (!parse_stats(&dev->stats, a))
				return false;
			break;
		case NOISE_A_DEVICE_PEER:
			if (!parse_peer(dev, a))
				return false;
			break;
		}
	}
	return true;
}

/* Building */

/* One SET_DEVICE request, with room for size bytes. */
static struct nl_msg *new_set_msg(int family, size_t size)
{
	struct nl_msg *msg = nlmsg_alloc_size(size);

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_REQUEST | NLM_F_ACK,
				 NOISE_CMD_SET_DEVICE, NOISE_FAMILY_VERSION))
		die_oom();
	return msg;
}

/* Free a request: private and preshared keys were in there. */
static void free_set_msg(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	explicit_bzero(nlh, nlh->nlmsg_len);
	nlmsg_free(msg);
}

static int put_device(struct nl_msg *msg, const struct noise_device *dev,
		      bool first)
{
	int err = nla_put_string(msg, NOISE_A_DEVICE_IFNAME, dev->ifname);

	if (err || !first)
		return err;
	if (dev->flags)
		err = err ?: nla_put_u32(msg, NOISE_A_DEVICE_FLAGS, dev->flags);
	if (dev->has_protocol)
		err = err ?: nla_put_string(msg, NOISE_A_DEVICE_PROTOCOL,
					     dev->protocol);
	if (dev->has_private_key)
		err = err ?: nla_put(msg, NOISE_A_DEVICE_PRIVATE_KEY,
				     dev->private_key_len, dev->private_key);
	if (dev->has_listen_port)
		err = err ?: nla_put_u16(msg, NOISE_A_DEVICE_LISTEN_PORT,
					 dev->listen_port);
	if (dev->has_fwmark)
		err = err ?: nla_put_u32(msg, NOISE_A_DEVICE_FWMARK, dev->fwmark);
	return err;
}

static int put_peer_head(struct nl_msg *msg, const struct noise_peer *peer,
			 bool continued)
{
	int err;

	err = nla_put(msg, NOISE_A_PEER_PUBLIC_KEY, peer->key_len,
		      peer->public_key);
	if (continued)
		return err ?: nla_put_u32(msg, NOISE_A_PEER_FLAGS,
					  NOISE_PEER_FLAG_UPDATE_ONLY);
	if (peer->flags)
		err = err ?: nla_put_u32(msg, NOISE_A_PEER_FLAGS, peer->flags);
	if (peer->flags & NOISE_PEER_FLAG_REMOVE_ME)
		return err;
	/* The keys one after another; none (with REPLACE_PSKS): removed. */
	if (peer->has_psks && peer->n_psks)
		err = err ?: nla_put(msg, NOISE_A_PEER_PRESHARED_KEY,
				     peer->n_psks * NOISE_PSK_KEY_LEN, peer->psks);
	if (peer->has_endpoint)
		err = err ?: nla_put(msg, NOISE_A_PEER_ENDPOINT,
				     peer->endpoint.addr.sa_family == AF_INET ?
				     sizeof(peer->endpoint.addr4) :
				     sizeof(peer->endpoint.addr6),
				     &peer->endpoint);
	if (peer->has_keepalive)
		err = err ?: nla_put_u16(msg, NOISE_A_PEER_PERSISTENT_KEEPALIVE,
					 peer->keepalive);
	return err;
}

static int put_allowedip(struct nl_msg *msg, const struct noise_allowedip *ip)
{
	struct nlattr *nest = nla_nest_start(msg, NOISE_A_PEER_ALLOWEDIP);
	int err;

	if (!nest)
		return -NLE_NOMEM;
	err = nla_put_u16(msg, NOISE_A_ALLOWEDIP_FAMILY, ip->family) ?:
	      nla_put(msg, NOISE_A_ALLOWEDIP_ADDR,
		      ip->family == AF_INET ? 4 : 16, &ip->ip6) ?:
	      nla_put_u8(msg, NOISE_A_ALLOWEDIP_CIDR_MASK, ip->cidr);
	if (err) {
		nla_nest_cancel(msg, nest);
		return err;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Where the next set request starts: peer p, and its allowed IP ip. */
struct set_cursor {
	const struct noise_device *dev;
	int family;
	size_t size;
	size_t p, ip;
	size_t n;		/* requests made so far */
};

/* Add the peers from c->p on to msg while they fit; false if not one does. */
static bool put_peers(struct nl_msg *msg, struct set_cursor *c)
{
	const struct noise_device *dev = c->dev;
	size_t in_msg = 0;

	for (; c->p < dev->n_peers; c->p++, c->ip = 0, in_msg++) {
		const struct noise_peer *peer = &dev->peers[c->p];
		size_t ip_start = c->ip;
		struct nlattr *nest;

		nest = nla_nest_start(msg, NOISE_A_DEVICE_PEER);
		if (!nest || put_peer_head(msg, peer, c->ip > 0)) {
			if (nest)
				nla_nest_cancel(msg, nest);
			return in_msg > 0;
		}
		for (; c->ip < peer->n_ips; c->ip++)
			if (put_allowedip(msg, &peer->ips[c->ip]))
				break;
		if (c->ip < peer->n_ips && c->ip == ip_start) {
			/* Not one IP fits: the peer goes on, whole. */
			nla_nest_cancel(msg, nest);
			return in_msg > 0;
		}
		nla_nest_end(msg, nest);
		if (c->ip < peer->n_ips)
			return true;	/* continued in the next request */
	}
	return true;
}

/*
 * The next request of c, or NULL: the peers are done (a device without
 * peers still makes one request), or *too_big: a peer does not fit in one.
 */
static struct nl_msg *next_set_msg(struct set_cursor *c, bool *too_big)
{
	struct nl_msg *msg;

	*too_big = false;
	if (c->n && c->p >= c->dev->n_peers)
		return NULL;
	msg = new_set_msg(c->family, c->size);
	if (put_device(msg, c->dev, !c->n++) || !put_peers(msg, c)) {
		free_set_msg(msg);
		*too_big = true;
		return NULL;
	}
	return msg;
}

static void say_too_big(const struct noise_device *dev, size_t size)
{
	fprintf(stderr, "%s: %s: a peer does not fit in a netlink message of %zu bytes\n",
		prog, dev->ifname, size);
}

bool noise_build_set(const struct noise_device *dev, int family, size_t size,
		     struct nl_msg ***msgs, size_t *n)
{
	struct set_cursor c = { .dev = dev, .family = family, .size = size };
	struct nl_msg **all = NULL, *msg;
	size_t cap = 0;
	bool too_big;

	*n = 0;
	while ((msg = next_set_msg(&c, &too_big))) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			all = realloc(all, cap * sizeof(*all));
			if (!all)
				die_oom();
		}
		all[(*n)++] = msg;
	}
	if (too_big) {
		say_too_big(dev, size);
		noise_free_msgs(all, *n);
		return false;
	}
	*msgs = all;
	return true;
}

void noise_free_msgs(struct nl_msg **msgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free_set_msg(msgs[i]);
	free(msgs);
}

/* Requests */

struct dump_ctx {
	struct noise_device *dev;
	bool bad;
};

static int on_device(struct nl_msg *msg, void *arg)
{
	struct dump_ctx *d = arg;

	if (!noise_parse_device(nlmsg_hdr(msg), d->dev))
		d->bad = true;
	return NL_OK;
}

/* The device read, or NULL after one line saying why. */
static struct noise_device *get_device_done(const char *ifname,
					    struct dump_ctx *dc,
					    const struct nl_result *r)
{
	if (!r->error && r->intr) {
		fprintf(stderr, "%s: %s: the device kept changing while being read\n",
			prog, ifname);
	} else if (r->error) {
		print_error(ifname, "cannot read the device", r);
	} else if (dc->bad) {
		fprintf(stderr, "%s: %s: malformed answer from the kernel\n",
			prog, ifname);
	} else {
		if (!dc->dev->ifname[0])
			snprintf(dc->dev->ifname, sizeof(dc->dev->ifname), "%s",
				 ifname);
		return dc->dev;
	}
	device_free(dc->dev);
	return NULL;
}

/*
 * Read the device, retrying while it changes under the dump. With a sink,
 * the peers stream to it (dev->peer_done) and its restart undoes what a
 * dump that has to be read again already handed over.
 */
static struct noise_device *get_device(const char *ifname,
				       const struct noise_peer_sink *sink)
{
	struct dump_ctx d = { 0 };
	struct nl_result res;
	struct nl_sock *sk;
	struct nl_msg *msg;
	int family, tries = 0;

	sk = genl_open(&family, RX_DUMP);
	if (!sk)
		return NULL;
again:
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_REQUEST | NLM_F_DUMP,
				 NOISE_CMD_GET_DEVICE, NOISE_FAMILY_VERSION) ||
	    nla_put_string(msg, NOISE_A_DEVICE_IFNAME, ifname))
		die_oom();
	d.dev = device_new();
	snprintf(d.dev->ifname, sizeof(d.dev->ifname), "%s", ifname);
	if (sink) {
		d.dev->peer_done = sink->peer_done;
		d.dev->peer_arg = sink->arg;
	}
	d.bad = false;
	nl_talk(sk, msg, on_device, &d, &res);
	nlmsg_free(msg);
	/* The device changed during the dump: read it again. */
	if (!res.error && res.intr && ++tries < 20) {
		device_free(d.dev);
		if (sink)
			sink->restart(sink->arg);
		goto again;
	}
	nl_socket_free(sk);
	return get_device_done(ifname, &d, &res);
}

struct noise_device *noise_get_device(const char *ifname)
{
	return get_device(ifname, NULL);
}

bool noise_get_device_stream(const char *ifname,
			     const struct noise_peer_sink *sink)
{
	struct noise_device *dev;

	dev = get_device(ifname, sink);
	if (!dev)
		return false;
	if (dev->n_peers)
		sink->peer_done(dev, &dev->peers[0], sink->arg);
	sink->peer_done(dev, NULL, sink->arg);
	device_free(dev);
	return true;
}

/* A request's buffer when one small request holds the whole change. */
#define SMALL_MSG_SIZE 4096

static size_t msg_size(void)
{
	const char *env = getenv("NOISECTL_MSG_SIZE");
	long v = env ? strtol(env, NULL, 0) : 0;

	if (v < 512 || v > 65535)
		return NOISE_MSG_SIZE;
	return (size_t)v;
}

/* Back to the first request. */
static void set_cursor_rewind(struct set_cursor *c)
{
	c->p = 0;
	c->ip = 0;
	c->n = 0;
}

/*
 * The size of c's requests, and whether all of them can be built: a small
 * buffer when the whole change fits in one of SMALL_MSG_SIZE bytes (one
 * peer, a few), else msg_size(). libnl zeroes each new request buffer, and
 * zeroing 32 KiB the process has not touched yet costs eight page faults,
 * a host round trip each under UML: more than the rest of a `set`.
 */
static bool set_msg_size(struct set_cursor *c, size_t *n)
{
	size_t full = msg_size();
	struct nl_msg *msg;
	bool too_big;

	c->size = full < SMALL_MSG_SIZE ? full : SMALL_MSG_SIZE;
	while ((msg = next_set_msg(c, &too_big))) {
		free_set_msg(msg);
		if (c->n > 1)
			break;
	}
	if (c->n == 1 && !too_big) {
		*n = 1;
		return true;
	}
	set_cursor_rewind(c);
	c->size = full;
	while ((msg = next_set_msg(c, &too_big)))
		free_set_msg(msg);
	*n = c->n;
	return !too_big;
}

/*
 * The requests are made twice: first each is built and dropped, so that
 * one that cannot be built fails before any is sent; then each is sent as
 * it is built. One request lives at a time, not the whole config.
 */
bool noise_set_device(const struct noise_device *dev)
{
	struct set_cursor c = { .dev = dev };
	struct nl_result res;
	struct nl_sock *sk;
	struct nl_msg *msg;
	bool too_big;
	size_t n;

	sk = genl_open(&c.family, RX_REPLY);
	if (!sk)
		return false;
	too_big = !set_msg_size(&c, &n);
	set_cursor_rewind(&c);
	while (!too_big && (msg = next_set_msg(&c, &too_big))) {
		bool failed = nl_talk(sk, msg, NULL, NULL, &res);

		free_set_msg(msg);
		if (!failed)
			continue;
		print_error(dev->ifname, "cannot configure the device", &res);
		if (c.n > 1)
			fprintf(stderr,
				"%s: %s: request %zu of %zu failed; the %zu before it were applied\n",
				prog, dev->ifname, c.n, n, c.n - 1);
		nl_socket_free(sk);
		return false;
	}
	nl_socket_free(sk);
	if (too_big)
		say_too_big(dev, c.size);
	return !too_big;
}

/* The device list: RTM_GETLINK, kind "noise". */

struct list_ctx {
	char **names;
	size_t n, cap;
};

static int on_link(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[IFLA_MAX + 1], *li[IFLA_INFO_MAX + 1];
	struct list_ctx *l = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlmsg_parse(nlh, sizeof(struct ifinfomsg), tb, IFLA_MAX, NULL) ||
	    !tb[IFLA_IFNAME] || !tb[IFLA_LINKINFO] ||
	    nla_parse_nested(li, IFLA_INFO_MAX, tb[IFLA_LINKINFO], NULL) ||
	    !li[IFLA_INFO_KIND] ||
	    strcmp(nla_get_string(li[IFLA_INFO_KIND]), "noise"))
		return NL_OK;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->names = realloc(l->names, l->cap * sizeof(*l->names));
		if (!l->names)
			die_oom();
	}
	l->names[l->n] = strdup(nla_get_string(tb[IFLA_IFNAME]));
	if (!l->names[l->n++])
		die_oom();
	return NL_OK;
}

bool noise_list_devices(char ***names, size_t *n)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct list_ctx l = { 0 };
	struct nl_result res;
	struct nl_sock *sk;
	struct nl_msg *msg;

	sk = nl_open(NETLINK_ROUTE, RX_DUMP);
	if (!sk)
		return false;
	msg = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP);
	if (!msg || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO))
		die_oom();
	nl_talk(sk, msg, on_link, &l, &res);
	nlmsg_free(msg);
	nl_socket_free(sk);
	if (res.error) {
		print_error("interfaces", "cannot list them", &res);
		noise_free_names(l.names, l.n);
		return false;
	}
	*names = l.names;
	*n = l.n;
	return true;
}

void noise_free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Events */

struct monitor_ctx {
	void (*fn)(const struct noise_event *ev, void *arg);
	void *arg;
};

static int on_event(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct monitor_ctx *m = arg;
	struct noise_device *dev;
	struct noise_peer none = { 0 };
	struct noise_event ev;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return NL_OK;
	dev = device_new();
	noise_parse_device(nlh, dev);
	ev.cmd = gnlh->cmd;
	ev.ifname = dev->ifname;
	ev.ifindex = dev->ifindex;
	ev.peer = dev->n_peers ? &dev->peers[0] : &none;
	m->fn(&ev, m->arg);
	device_free(dev);
	return NL_OK;
}

bool noise_monitor(void (*fn)(const struct noise_event *ev, void *arg),
		   void *arg)
{
	struct monitor_ctx m = { .fn = fn, .arg = arg };
	struct nl_sock *sk;
	int family, grp, err;

	sk = genl_open(&family, RX_DUMP);
	if (!sk)
		return false;
	grp = genl_ctrl_resolve_grp(sk, NOISE_FAMILY_NAME, NOISE_MCGRP_PEERS);
	if (grp < 0 || nl_socket_add_membership(sk, grp)) {
		fprintf(stderr, "%s: cannot join the multicast group '%s' of '%s'\n",
			prog, NOISE_MCGRP_PEERS, NOISE_FAMILY_NAME);
		nl_socket_free(sk);
		return false;
	}
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, &m);
	for (;;) {
		err = nl_recvmsgs_default(sk);
		if (err < 0 && err != -NLE_INTR && err != -NLE_NOMEM) {
			fprintf(stderr, "%s: monitor: %s\n", prog, nl_geterror(err));
			break;
		}
	}
	nl_socket_free(sk);
	return false;
}
