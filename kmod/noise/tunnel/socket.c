// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: one UDP socket per address family on the listen port
 * (udp_tunnel, encap_rcv = nd->encap_rcv: noise_receive()), and sending to a peer's
 * endpoint with a per-peer route cache.
 */

#include <linux/inetdevice.h>
#include <linux/ipv6.h>
#include <linux/moduleparam.h>
#include <linux/udp.h>
#include <net/dst_cache.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include "device.h"
#include "stats.h"
#include "peer.h"
#include "socket.h"

/*
 * The outer route to a peer. The source address kept from the peer's last
 * packet (the address it was sent to, ep->src4/src6) is used while it is
 * still ours and the route to the peer still leaves by the interface that
 * packet came in on (ep->src_if); else it is dropped and the route picks
 * the source: a better route added later (another interface, its own
 * source) is taken with its source, and the peer learns the new address
 * from our next packet. The peer's other cached routes were made with the
 * same source and are stale already (the change that made ours miss
 * invalidated them all), so the cache is not reset here, where other CPUs
 * may be reading it. A route through our own device would loop: -ELOOP,
 * nothing cached.
 */
static void noise_forget_src4(struct noise_endpoint *ep, struct flowi4 *fl)
{
	ep->src4.s_addr = 0;
	ep->src_if = 0;
	fl->saddr = 0;
}

static struct rtable *noise_route4(struct noise_device *nd, struct sock *sk,
				   struct flowi4 *fl, struct noise_endpoint *ep,
				   struct dst_cache *cache)
{
	struct net *net = sock_net(sk);
	struct rtable *rt;

	if (fl->saddr && !inet_confirm_addr(net, NULL, 0, fl->saddr, RT_SCOPE_HOST))
		noise_forget_src4(ep, fl);
	rt = ip_route_output_flow(net, fl, sk);
	if (unlikely(ep->src_if &&
		     (IS_ERR(rt) ? PTR_ERR(rt) == -EINVAL :
		      rt->dst.dev->ifindex != ep->src_if))) {
		if (!IS_ERR(rt))
			ip_rt_put(rt);
		noise_forget_src4(ep, fl);
		rt = ip_route_output_flow(net, fl, sk);
	}
	if (IS_ERR(rt))
		return rt;
	if (unlikely(rt->dst.dev == nd->dev)) {
		ip_rt_put(rt);
		net_dbg_ratelimited("%s: avoiding a routing loop to %pISpfsc\n",
				    nd->dev->name, &ep->addr);
		return ERR_PTR(-ELOOP);
	}
	if (cache)
		dst_cache_set_ip4(cache, &rt->dst, fl->saddr);
	return rt;
}

static int noise_send4(struct noise_device *nd, struct sk_buff *skb,
		       struct noise_endpoint *ep, struct dst_cache *cache)
{
	struct flowi4 fl = {
		.saddr = ep->src4.s_addr,
		.daddr = ep->addr4.sin_addr.s_addr,
		.fl4_dport = ep->addr4.sin_port,
		.flowi4_mark = nd->fwmark,
		.flowi4_proto = IPPROTO_UDP,
	};
	struct rtable *rt = NULL;
	struct sock *sk;
	int ret = 0;

	rcu_read_lock_bh();
	sk = rcu_dereference_bh(nd->sock4);
	if (unlikely(!sk)) {
		ret = -ENONET;
		goto err;
	}
	fl.fl4_sport = inet_sk(sk)->inet_sport;
	if (cache)
		rt = dst_cache_get_ip4(cache, &fl.saddr);
	if (!rt) {
		rt = noise_route4(nd, sk, &fl, ep, cache);
		if (IS_ERR(rt)) {
			ret = PTR_ERR(rt);
			goto err;
		}
	}
	skb->ignore_df = 1;
	udp_tunnel_xmit_skb(rt, sk, skb, fl.saddr, fl.daddr, 0,
			    ip4_dst_hoplimit(&rt->dst), 0, fl.fl4_sport,
			    fl.fl4_dport, false, false);
	rcu_read_unlock_bh();
	return 0;
err:
	rcu_read_unlock_bh();
	kfree_skb(skb);
	return ret;
}

#if IS_ENABLED(CONFIG_IPV6)
static void noise_forget_src6(struct noise_endpoint *ep, struct flowi6 *fl)
{
	ep->src6 = in6addr_any;
	ep->src_if = 0;
	fl->saddr = in6addr_any;
}

static struct dst_entry *noise_route6(struct noise_device *nd, struct sock *sk,
				      struct flowi6 *fl, struct noise_endpoint *ep,
				      struct dst_cache *cache)
{
	struct net *net = sock_net(sk);
	struct dst_entry *dst;

	if (!ipv6_addr_any(&fl->saddr) && !ipv6_chk_addr(net, &fl->saddr, NULL, 0))
		noise_forget_src6(ep, fl);
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, sk, fl, NULL);
	if (unlikely(ep->src_if &&
		     (IS_ERR(dst) ? PTR_ERR(dst) == -EINVAL :
		      dst->dev->ifindex != ep->src_if))) {
		if (!IS_ERR(dst))
			dst_release(dst);
		noise_forget_src6(ep, fl);
		dst = ipv6_stub->ipv6_dst_lookup_flow(net, sk, fl, NULL);
	}
	if (IS_ERR(dst))
		return dst;
	if (unlikely(dst->dev == nd->dev)) {
		dst_release(dst);
		net_dbg_ratelimited("%s: avoiding a routing loop to %pISpfsc\n",
				    nd->dev->name, &ep->addr);
		return ERR_PTR(-ELOOP);
	}
	if (cache)
		dst_cache_set_ip6(cache, dst, &fl->saddr);
	return dst;
}

static int noise_send6(struct noise_device *nd, struct sk_buff *skb,
		       struct noise_endpoint *ep, struct dst_cache *cache)
{
	struct flowi6 fl = {
		.saddr = ep->src6,
		.daddr = ep->addr6.sin6_addr,
		.fl6_dport = ep->addr6.sin6_port,
		.flowi6_mark = nd->fwmark,
		.flowi6_oif = ep->addr6.sin6_scope_id,
		.flowi6_proto = IPPROTO_UDP,
	};
	struct dst_entry *dst = NULL;
	struct sock *sk;
	int ret = 0;

	rcu_read_lock_bh();
	sk = rcu_dereference_bh(nd->sock6);
	if (unlikely(!sk)) {
		ret = -ENONET;
		goto err;
	}
	fl.fl6_sport = inet_sk(sk)->inet_sport;
	if (cache)
		dst = dst_cache_get_ip6(cache, &fl.saddr);
	if (!dst) {
		dst = noise_route6(nd, sk, &fl, ep, cache);
		if (IS_ERR(dst)) {
			ret = PTR_ERR(dst);
			goto err;
		}
	}
	skb->ignore_df = 1;
	udp_tunnel6_xmit_skb(dst, sk, skb, skb->dev, &fl.saddr, &fl.daddr, 0,
			     ip6_dst_hoplimit(dst), 0, fl.fl6_sport,
			     fl.fl6_dport, false);
	rcu_read_unlock_bh();
	return 0;
err:
	rcu_read_unlock_bh();
	kfree_skb(skb);
	return ret;
}
#else
static int noise_send6(struct noise_device *nd, struct sk_buff *skb,
		       struct noise_endpoint *ep, struct dst_cache *cache)
{
	kfree_skb(skb);
	return -EAFNOSUPPORT;
}
#endif

#ifdef NOISE_TESTING
/* KUnit only: when set, every message sent goes to it (it owns the skb). */
static void (*noise_test_tap)(struct noise_device *nd, struct sk_buff *skb);

/**
 * noise_socket_set_test_tap() - KUnit only (test build): capture what
 * devices send.
 * @tap: called (any context) with each message instead of sending it, and
 *	owns the skb; NULL: send again. Clearing waits for running taps.
 *
 * Context: process.
 */
void noise_socket_set_test_tap(void (*tap)(struct noise_device *nd, struct sk_buff *skb))
{
	WRITE_ONCE(noise_test_tap, tap);
	if (!tap)
		synchronize_net();
}
EXPORT_SYMBOL_NS_GPL(noise_socket_set_test_tap, NOISE_INTERNAL);

/* The tap took @skb. Context: any. */
static bool noise_test_tap_take(struct noise_device *nd, struct sk_buff *skb)
{
	void (*tap)(struct noise_device *nd, struct sk_buff *skb);

	rcu_read_lock();
	tap = READ_ONCE(noise_test_tap);
	if (unlikely(tap))
		tap(nd, skb);
	rcu_read_unlock();
	return tap;
}

static bool noise_test_tap_set(void)
{
	return READ_ONCE(noise_test_tap);
}
#else
static bool noise_test_tap_take(struct noise_device *nd, struct sk_buff *skb)
{
	return false;
}

static bool noise_test_tap_set(void)
{
	return false;
}
#endif

static int noise_send_ep(struct noise_device *nd, struct sk_buff *skb,
			 struct noise_endpoint *ep, struct dst_cache *cache)
{
	skb_mark_not_on_list(skb);
	skb->dev = nd->dev;
	skb->mark = nd->fwmark;
	if (noise_test_tap_take(nd, skb))
		return 0;
	if (ep->addr.sa_family == AF_INET)
		return noise_send4(nd, skb, ep, cache);
	if (ep->addr.sa_family == AF_INET6)
		return noise_send6(nd, skb, ep, cache);
	kfree_skb(skb);
	return -EDESTADDRREQ;
}

/*
 * UDP GSO on the outer send path: runs of equal-size messages encrypted
 * together (one inner GSO packet segmented) leave as one skb
 * (SKB_GSO_UDP_L4, gso_size = the message size, the messages chained on
 * its frag_list, no copy). The stack keeps it whole as far as a device
 * that segments UDP itself (veth, loopback) or segments it in software
 * before the device (validate_xmit_skb()); a receiving socket that does
 * not take GSO skbs (kernel WireGuard's; ours with udp_gro=0) has it split
 * into the same separate datagrams (udp_queue_rcv_skb()), at the cost of
 * a copy of each message there (skb_segment() un-shares the clones). Off
 * by default: in UML over veth the saving and that copy cancel out within
 * the noise (Documentation/bench-tunnels.rst). Read per send.
 */
static bool udp_gso;
module_param(udp_gso, bool, 0644);
MODULE_PARM_DESC(udp_gso,
		 "send equal-size messages encrypted together as one UDP GSO skb (default 0: one udp_tunnel_xmit_skb per message; no gain measured in UML, receivers copy each message when they split it)");

/* The most messages and bytes in one GSO skb: UDP and IP length fields. */
#define NOISE_GSO_MAX_SEGS	UDP_MAX_SEGMENTS
#define NOISE_GSO_MAX_BYTES	(U16_MAX - sizeof(struct iphdr) - sizeof(struct udphdr))

/**
 * noise_socket_gso_ok() - may sends be coalesced into UDP GSO skbs now?
 *
 * Context: any.
 * Return: udp_gso set and no KUnit send tap (it sees single messages).
 */
bool noise_socket_gso_ok(void)
{
	return READ_ONCE(udp_gso) && !noise_test_tap_set();
}

/**
 * noise_socket_gso_fits() - may @skb join a run of @n messages?
 * @skb: the next message (linear, as noise_xmit_stage() segments).
 * @n: messages in the run so far.
 * @total: their bytes.
 * @size: the size of each (the run's first).
 *
 * Context: any.
 * Return: true if @skb is linear, at most @size long, and the run with it
 *	stays within the UDP GSO limits.
 */
bool noise_socket_gso_fits(const struct sk_buff *skb, unsigned int n,
			   unsigned int total, unsigned int size)
{
	return skb_headlen(skb) == skb->len && skb->len <= size && skb->len &&
	       n < NOISE_GSO_MAX_SEGS && total + skb->len <= NOISE_GSO_MAX_BYTES;
}

/**
 * noise_socket_send_run() - send a run of encrypted messages to a peer.
 * @peer: the peer.
 * @run: one message, or messages that passed noise_socket_gso_fits() in
 *	order (all of the first one's size, the last maybe shorter); emptied.
 *
 * Context: softirq or BH disabled.
 * Return: 0 or -errno (all freed either way).
 */
int noise_socket_send_run(struct noise_peer *peer, struct sk_buff_head *run)
{
	unsigned int n = skb_queue_len(run);
	struct sk_buff *head, *skb, **tail;

	if (n == 1) {
		skb = __skb_dequeue(run);
		skb->ip_summed = CHECKSUM_NONE;
		return noise_socket_send_skb(peer, skb);
	}
	head = alloc_skb(NOISE_SKB_HEADROOM, GFP_ATOMIC);
	if (unlikely(!head)) {
		__skb_queue_purge(run);
		return -ENOMEM;
	}
	skb_reserve(head, NOISE_SKB_HEADROOM);
	skb_set_inner_network_header(head, 0);
	skb_shinfo(head)->gso_size = skb_peek(run)->len;
	tail = &skb_shinfo(head)->frag_list;
	while ((skb = __skb_dequeue(run))) {
		head->len += skb->len;
		head->data_len += skb->len;
		head->truesize += skb->truesize;
		*tail = skb;
		tail = &skb->next;
	}
	skb_shinfo(head)->gso_type = SKB_GSO_UDP_L4;
	skb_shinfo(head)->gso_segs = n;
	/* __udp_gso_segment() wants the checksum to start at the UDP header
	 * that udp_tunnel_xmit_skb() pushes right in front of the data.
	 */
	head->ip_summed = CHECKSUM_PARTIAL;
	head->csum_start = skb_headroom(head) - sizeof(struct udphdr);
	head->csum_offset = offsetof(struct udphdr, check);
	return noise_socket_send_skb(peer, head);
}

/**
 * noise_socket_send_skb() - send an encrypted or handshake skb to a peer.
 * @peer: the peer; its endpoint is read under endpoint_lock.
 * @skb: the message (consumed).
 *
 * Context: any (softirq, process).
 * Return: 0 or -errno (the skb is freed either way).
 */
int noise_socket_send_skb(struct noise_peer *peer, struct sk_buff *skb)
{
	unsigned int n = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	unsigned int len = skb->len;
	int ret;

	read_lock_bh(&peer->endpoint_lock);
	ret = noise_send_ep(peer->nd, skb, &peer->endpoint, &peer->endpoint_cache);
	read_unlock_bh(&peer->endpoint_lock);
	if (likely(!ret))
		noise_count_tx(peer->nd, peer, n, len);
	/* Each message of a run counts (noise_route4(): -ELOOP). */
	if (unlikely(ret == -ELOOP))
		while (n--)
			noise_count_drop(peer->nd, peer, NOISE_DROP_LOOP);
	return ret;
}

static struct sk_buff *noise_buffer_skb(const void *buf, size_t len)
{
	struct sk_buff *skb = alloc_skb(len + NOISE_SKB_HEADROOM, GFP_ATOMIC);

	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, NOISE_SKB_HEADROOM);
	skb_set_inner_network_header(skb, 0);
	skb_put_data(skb, buf, len);
	return skb;
}

int noise_socket_send_buffer(struct noise_peer *peer, const void *buf,
			     size_t len)
{
	struct sk_buff *skb = noise_buffer_skb(buf, len);

	if (unlikely(!skb))
		return -ENOMEM;
	return noise_socket_send_skb(peer, skb);
}

/* A reply to where a message came from (a responder that has no peer yet). */
int noise_socket_send_buffer_to(struct noise_device *nd,
				const struct noise_endpoint *ep,
				const void *buf, size_t len)
{
	struct noise_endpoint copy = *ep;
	struct sk_buff *skb = noise_buffer_skb(buf, len);
	int ret;

	if (unlikely(!skb))
		return -ENOMEM;
	ret = noise_send_ep(nd, skb, &copy, NULL);
	if (unlikely(ret == -ELOOP))
		noise_count_drop(nd, NULL, NOISE_DROP_LOOP);
	return ret;
}

/* The outer source (and our destination address) of a received message. */
int noise_endpoint_from_skb(struct noise_endpoint *ep, const struct sk_buff *skb)
{
	memset(ep, 0, sizeof(*ep));
	if (skb->protocol == htons(ETH_P_IP)) {
		ep->addr4.sin_family = AF_INET;
		ep->addr4.sin_port = udp_hdr(skb)->source;
		ep->addr4.sin_addr.s_addr = ip_hdr(skb)->saddr;
		ep->src4.s_addr = ip_hdr(skb)->daddr;
		ep->src_if = skb->skb_iif;
		return 0;
	}
	if (skb->protocol == htons(ETH_P_IPV6)) {
		ep->addr6.sin6_family = AF_INET6;
		ep->addr6.sin6_port = udp_hdr(skb)->source;
		ep->addr6.sin6_addr = ipv6_hdr(skb)->saddr;
		ep->addr6.sin6_scope_id = ipv6_iface_scope_id(&ipv6_hdr(skb)->saddr,
							      skb->skb_iif);
		ep->src6 = ipv6_hdr(skb)->daddr;
		ep->src_if = skb->skb_iif;
		return 0;
	}
	return -EINVAL;
}

static void noise_sock_free(struct sock *sk)
{
	if (!sk)
		return;
	sk_clear_memalloc(sk);
	udp_tunnel_sock_release(sk->sk_socket);
}

/*
 * UDP GRO on receive: a device that runs GRO (NAPI) may merge our incoming
 * datagrams of one flow into one SKB_GSO_UDP_L4 skb, which then crosses
 * the IP layer once. The UDP layer (6.12) splits every such skb back
 * into its datagrams before an encapsulation socket's encap_rcv sees it
 * (udp_unexpected_gso()), so each message still reaches noise_receive()
 * alone, with every check and drop counter; the socket never holds a
 * merged skb. Read when a socket is opened (ListenPort / device up).
 */
static bool udp_gro;
module_param(udp_gro, bool, 0644);
MODULE_PARM_DESC(udp_gro,
		 "let GRO merge received datagrams (UDP_GRO on new sockets; the UDP layer splits them before noise's encap_rcv; default 0)");

static int noise_sock_create(struct noise_device *nd, struct net *net, int family,
			     u16 port, struct sock **out)
{
	struct udp_tunnel_sock_cfg cfg = {
		.sk_user_data = nd,
		.encap_type = 1,
		.encap_rcv = nd->encap_rcv,
	};
	struct udp_port_cfg pc = {
		.family = family,
		.local_udp_port = htons(port),
	};
	struct socket *sock;
	int err;

	if (family == AF_INET) {
		pc.local_ip.s_addr = htonl(INADDR_ANY);
	} else {
		pc.local_ip6 = in6addr_any;
		pc.ipv6_v6only = true;
		/* No zero-checksum datagrams over IPv6 (as WireGuard). */
		pc.use_udp6_rx_checksums = true;
	}
	err = udp_sock_create(net, &pc, &sock);
	if (err)
		return err;
	sock->sk->sk_mark = nd->fwmark;
	sk_set_memalloc(sock->sk);
	setup_udp_tunnel_sock(net, sock, &cfg);
	if (READ_ONCE(udp_gro))		/* as setsockopt(UDP_GRO, 1) */
		udp_set_bit(GRO_ENABLED, sock->sk);
	*out = sock->sk;
	return 0;
}

/**
 * noise_socket_open() - bind both families on @port and swap them in.
 * @nd: the device (conf_lock held).
 * @port: the port; 0 for any free port (then IPv6 binds the same one).
 *
 * On failure the old sockets stay as they were. The sockets live in the
 * namespace the device was created in; once that is gone (nd->net NULL,
 * noise_netns_pre_exit()) or going (no reference can be taken any more)
 * there is nothing to open: -ENONET, as WireGuard.
 * Context: process, conf_lock held.
 * Return: 0 or -errno.
 */
int noise_socket_open(struct noise_device *nd, u16 port)
{
	struct sock *new4 = NULL, *new6 = NULL, *old4, *old6;
	struct net *net = nd->net ? maybe_get_net(nd->net) : NULL;
	u16 req = port;
	int err, tries = 0;

	if (!net)
		return -ENONET;
retry:
	port = req;
	err = noise_sock_create(nd, net, AF_INET, port, &new4);
	if (err)
		goto out;
	port = ntohs(inet_sk(new4)->inet_sport);
	if (IS_ENABLED(CONFIG_IPV6) && ipv6_mod_enabled()) {
		err = noise_sock_create(nd, net, AF_INET6, port, &new6);
		if (err) {
			noise_sock_free(new4);
			new4 = NULL;
			if (err == -EADDRINUSE && !req &&
			    tries++ < 100)
				goto retry;
			goto out;
		}
	}
	old4 = rcu_dereference_protected(nd->sock4, lockdep_is_held(&nd->conf_lock));
	old6 = rcu_dereference_protected(nd->sock6, lockdep_is_held(&nd->conf_lock));
	rcu_assign_pointer(nd->sock4, new4);
	rcu_assign_pointer(nd->sock6, new6);
	nd->listen_port = port;
	synchronize_net();
	noise_sock_free(old4);
	noise_sock_free(old6);
out:
	put_net(net);
	return err;
}

/* Context: process, conf_lock held. */
void noise_socket_close(struct noise_device *nd)
{
	struct sock *old4, *old6;

	old4 = rcu_dereference_protected(nd->sock4, lockdep_is_held(&nd->conf_lock));
	old6 = rcu_dereference_protected(nd->sock6, lockdep_is_held(&nd->conf_lock));
	RCU_INIT_POINTER(nd->sock4, NULL);
	RCU_INIT_POINTER(nd->sock6, NULL);
	synchronize_net();
	noise_sock_free(old4);
	noise_sock_free(old6);
}
