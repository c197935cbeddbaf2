// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the net_device ("ip link add noise0 type noise"), its life
 * per network namespace, and the tunnel's module init and exit. The
 * device's identity and its configuration calls are in identity.c.
 */

#include <linux/delay.h>
#include <linux/if_arp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip_tunnels.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/rtnetlink.h>
#include "../compat.h"
#include "device.h"
#include "identity.h"
#include "stats.h"
#include "peer.h"
#include "peer_conf.h"
#include "queueing.h"
#include "socket.h"
#include "receive.h"
#include "send.h"
#include "hs_glue.h"
#include "timers.h"
#include "timing.h"
#include "netlink.h"

/* Every noise device of every namespace (RTNL), for the netns pre_exit. */
static LIST_HEAD(noise_devices);

static const struct device_type noise_device_type = { .name = KBUILD_MODNAME };

static void noise_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *st)
{
	struct noise_stats s;
	unsigned int i;

	noise_stats_read(netdev_priv(dev), NULL, &s);
	st->rx_packets = s.rx_packets;
	st->rx_bytes = s.rx_bytes;
	st->tx_packets = s.tx_packets;
	st->tx_bytes = s.tx_bytes;
	for (i = 0; i < NOISE_DROP_COUNT; i++)
		st->rx_dropped += s.drops[i];
	st->tx_dropped = s.drops[NOISE_DROP_NO_PEER] + s.drops[NOISE_DROP_NO_KEY];
	st->rx_dropped -= st->tx_dropped;
	st->rx_crc_errors = s.drops[NOISE_DROP_AUTH];
	st->rx_length_errors = s.drops[NOISE_DROP_BAD_LENGTH];
	st->rx_frame_errors = s.drops[NOISE_DROP_BAD_TYPE];
}

/* --------------------------- net_device ----------------------------- */

#ifdef NOISE_TESTING
/*
 * Test build only (Documentation/testing.rst): ndo_open waits this long
 * before it takes conf_lock, with test_open_waiting set meanwhile, so that
 * a test can send a request into the window where the device is already
 * marked running and not yet open.
 */
static unsigned int test_open_delay_ms;
module_param(test_open_delay_ms, uint, 0644);
MODULE_PARM_DESC(test_open_delay_ms, "test only: ndo_open waits this long first");
static bool test_open_waiting;
module_param(test_open_waiting, bool, 0444);
MODULE_PARM_DESC(test_open_waiting, "test only: ndo_open is waiting now");

static void noise_open_test_delay(void)
{
	unsigned int ms = READ_ONCE(test_open_delay_ms);

	if (!ms)
		return;
	WRITE_ONCE(test_open_waiting, true);
	msleep(ms);
	WRITE_ONCE(test_open_waiting, false);
}
#else
static inline void noise_open_test_delay(void) { }
#endif

static int noise_open(struct net_device *dev)
{
	struct noise_device *nd = netdev_priv(dev);
	struct noise_peer *peer;
	int err;

	noise_open_test_delay();
	mutex_lock(&nd->conf_lock);
	err = noise_socket_open(nd, nd->listen_port_req);	/* -ENONET: no namespace */
	if (!err) {
		local_bh_disable();
		list_for_each_entry(peer, &nd->peer_list, list)
			if (peer->keepalive_interval)
				noise_send_keepalive(peer);
		local_bh_enable();
	}
	mutex_unlock(&nd->conf_lock);
	return err;
}

/* Stop every peer's traffic: sessions, handshakes, queues, timers. */
static void noise_quiesce(struct noise_device *nd)
{
	struct noise_peer *peer;

	list_for_each_entry(peer, &nd->peer_list, list) {
		noise_timers_stop(peer);
		skb_queue_purge(&peer->staged);
		noise_keypairs_clear(peer);
	}
	noise_queueing_flush(nd);
	list_for_each_entry(peer, &nd->peer_list, list) {
		noise_tx_queue_purge(peer);
		noise_rx_queue_purge(peer);
	}
	mutex_lock(&nd->hs_lock);
	noise_glue_clear_anon(nd);
	list_for_each_entry(peer, &nd->peer_list, list)
		noise_glue_clear_peer(peer);
	mutex_unlock(&nd->hs_lock);
	skb_queue_purge(&nd->hs_queue);
}

static int noise_stop(struct net_device *dev)
{
	struct noise_device *nd = netdev_priv(dev);

	mutex_lock(&nd->conf_lock);
	noise_socket_close(nd);
	noise_quiesce(nd);
	mutex_unlock(&nd->conf_lock);
	return 0;
}

static const struct net_device_ops noise_netdev_ops = {
	.ndo_open		= noise_open,
	.ndo_stop		= noise_stop,
	.ndo_start_xmit		= noise_xmit,
	.ndo_get_stats64	= noise_get_stats64,
};

static void noise_destruct(struct net_device *dev)
{
	struct noise_device *nd = netdev_priv(dev);

	rtnl_lock();
	list_del(&nd->dev_list);
	rtnl_unlock();
	mutex_lock(&nd->conf_lock);
	noise_socket_close(nd);
	noise_peer_remove_all(nd);
	noise_peer_table_free(&nd->peer_hash);
	noise_peer_table_free(&nd->peer_id_hash);
	noise_quiesce(nd);
	noise_allowedips_free(&nd->aips);
	mutex_unlock(&nd->conf_lock);
	noise_ratelimiter_uninit(&nd->ratelimiter);	/* sockets closed */
	destroy_workqueue(nd->hs_wq);
	destroy_workqueue(nd->wq);
	noise_queueing_free(nd);
	gro_cells_destroy(&nd->gro);
	free_percpu(nd->stats);
	noise_device_ident_free(nd);
	/* Its keypairs freed (their transforms gone), then its peers. */
	noise_keypair_free_flush();
	rcu_barrier();
}

static void noise_setup(struct net_device *dev)
{
	struct noise_device *nd = netdev_priv(dev);
	enum { F = NETIF_F_HW_CSUM | NETIF_F_RXCSUM | NETIF_F_SG | NETIF_F_GSO |
		   NETIF_F_GSO_SOFTWARE | NETIF_F_HIGHDMA };
	const int overhead = sizeof(struct noise_msg_transport) + NOISE_TAG_LEN +
			     sizeof(struct udphdr) + sizeof(struct ipv6hdr);

	dev->netdev_ops = &noise_netdev_ops;
	dev->header_ops = &ip_tunnel_header_ops;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->needed_headroom = NOISE_SKB_HEADROOM;
	dev->needed_tailroom = NOISE_TAG_LEN + NOISE_PADDING;
	dev->type = ARPHRD_NONE;
	dev->flags = IFF_POINTOPOINT | IFF_NOARP;
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->needs_free_netdev = true;
	noise_netdev_set_lltx(dev);
	dev->features |= F;
	dev->hw_features |= F;
	dev->hw_enc_features |= F;
	dev->mtu = ETH_DATA_LEN - overhead;
	dev->min_mtu = IPV4_MIN_MTU;
	dev->max_mtu = round_down(NOISE_MAX_PAYLOAD_LEN, NOISE_PADDING) - overhead;
	SET_NETDEV_DEVTYPE(dev, &noise_device_type);
	/* iptunnel_xmit() counts outer packets in dev->tstats. */
	dev->pcpu_stat_type = NETDEV_PCPU_STAT_TSTATS;
	netif_keep_dst(dev);
	memset(nd, 0, sizeof(*nd));
	nd->dev = dev;
}

static int noise_nd_init(struct noise_device *nd)
{
	struct net_device *dev = nd->dev;
	int err;

	mutex_init(&nd->conf_lock);
	mutex_init(&nd->hs_lock);
	INIT_LIST_HEAD(&nd->peer_list);
	INIT_LIST_HEAD(&nd->anon);
	noise_peer_table_init(&nd->peer_hash);
	noise_peer_table_init(&nd->peer_id_hash);
	noise_index_init(&nd->index);
	noise_allowedips_init(&nd->aips, &nd->conf_lock);
	skb_queue_head_init(&nd->hs_queue);
	INIT_WORK(&nd->hs_work, noise_receive_handshakes);
	nd->encap_rcv = noise_receive;
	nd->peer_event = noise_netlink_peer_event;
	nd->stats = noise_stats_alloc();
	if (!nd->stats)
		return -ENOMEM;
	err = noise_device_ident_init(nd);
	if (err)
		goto err_stats;
	err = -ENOMEM;
	nd->hs_wq = alloc_workqueue("noise-hs-%s", WQ_FREEZABLE | WQ_MEM_RECLAIM, 0,
				    dev->name);
	if (!nd->hs_wq)
		goto err_ident;
	nd->wq = alloc_workqueue("noise-crypt-%s", WQ_CPU_INTENSIVE | WQ_MEM_RECLAIM,
				 0, dev->name);
	if (!nd->wq)
		goto err_hs_wq;
	err = noise_queueing_init(nd, &noise_tx_crypt, &noise_rx_crypt);
	if (err)
		goto err_wq;
	err = gro_cells_init(&nd->gro, dev);
	if (err)
		goto err_queueing;
	err = noise_ratelimiter_init(&nd->ratelimiter);
	if (err)
		goto err_gro;
	return 0;
err_gro:
	gro_cells_destroy(&nd->gro);
err_queueing:
	noise_queueing_free(nd);
err_wq:
	destroy_workqueue(nd->wq);
err_hs_wq:
	destroy_workqueue(nd->hs_wq);
err_ident:
	noise_device_ident_free(nd);
err_stats:
	free_percpu(nd->stats);
	return err;
}

static void noise_nd_uninit(struct noise_device *nd)
{
	noise_ratelimiter_uninit(&nd->ratelimiter);
	gro_cells_destroy(&nd->gro);
	noise_queueing_free(nd);
	destroy_workqueue(nd->wq);
	destroy_workqueue(nd->hs_wq);
	noise_device_ident_free(nd);
	free_percpu(nd->stats);
}

static int noise_newlink(struct net *src_net, struct net_device *dev,
			 struct nlattr *tb[], struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	struct noise_device *nd = netdev_priv(dev);
	int err;

	nd->net = src_net;
	err = noise_nd_init(nd);
	if (err)
		return err;
	err = register_netdevice(dev);
	if (err) {
		noise_nd_uninit(nd);
		return err;
	}
	list_add(&nd->dev_list, &noise_devices);
	/* Set only now, so that a failed register does not call it. */
	dev->priv_destructor = noise_destruct;
	return 0;
}

#ifdef NOISE_TESTING
/**
 * noise_device_create_test() - a registered device in init_net (KUnit).
 * @name: its name.
 *
 * Context: process, RTNL not held.
 * Return: the device or ERR_PTR(); destroy with noise_device_destroy_test().
 */
struct noise_device *noise_device_create_test(const char *name)
{
	struct net_device *dev;
	int err;

	dev = alloc_netdev(sizeof(struct noise_device), name, NET_NAME_USER, noise_setup);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->rtnl_link_ops = &noise_link_ops;
	rtnl_lock();
	err = noise_newlink(&init_net, dev, NULL, NULL, NULL);
	rtnl_unlock();
	if (err) {
		free_netdev(dev);
		return ERR_PTR(err);
	}
	return netdev_priv(dev);
}
EXPORT_SYMBOL_NS_GPL(noise_device_create_test, NOISE_INTERNAL);

void noise_device_destroy_test(struct noise_device *nd)
{
	unregister_netdev(nd->dev);
}
EXPORT_SYMBOL_NS_GPL(noise_device_destroy_test, NOISE_INTERNAL);
#endif /* NOISE_TESTING */

struct rtnl_link_ops noise_link_ops __read_mostly = {
	.kind		= KBUILD_MODNAME,
	.priv_size	= sizeof(struct noise_device),
	.setup		= noise_setup,
	.newlink	= noise_newlink,
};

/*
 * The namespace the sockets live in is going away while the device lives
 * on in another one: close the sockets (the device is then useless until
 * moved back or deleted, as WireGuard).
 */
static void noise_netns_pre_exit(struct net *net)
{
	struct noise_device *nd;

	rtnl_lock();
	list_for_each_entry(nd, &noise_devices, dev_list) {
		if (nd->net != net)
			continue;
		netif_carrier_off(nd->dev);
		mutex_lock(&nd->conf_lock);
		nd->net = NULL;
		noise_socket_close(nd);
		mutex_unlock(&nd->conf_lock);
	}
	rtnl_unlock();
}

static struct pernet_operations noise_pernet_ops = {
	.pre_exit = noise_netns_pre_exit,
};

/**
 * noise_tunnel_init() - register the tunnel (called by the module init).
 *
 * Context: process.
 * Return: 0 or -errno.
 */
int noise_tunnel_init(void)
{
	int err;

	err = noise_timing_init();
	if (err)
		return err;
	err = noise_peer_cache_init();
	if (err)
		goto err_timing;
	err = register_pernet_device(&noise_pernet_ops);
	if (err)
		goto err_cache;
	err = rtnl_link_register(&noise_link_ops);
	if (err)
		goto err_pernet;
	err = noise_genl_init();
	if (err)
		goto err_link;
	return 0;
err_link:
	rtnl_link_unregister(&noise_link_ops);
err_pernet:
	unregister_pernet_device(&noise_pernet_ops);
err_cache:
	noise_peer_cache_exit();
err_timing:
	noise_timing_exit();
	return err;
}

void noise_tunnel_exit(void)
{
	noise_genl_exit();
	rtnl_link_unregister(&noise_link_ops);
	unregister_pernet_device(&noise_pernet_ops);
	/* Waits for every RCU callback (keypairs, then their peers). */
	noise_peer_cache_exit();
	noise_timing_exit();
}

MODULE_ALIAS_RTNL_LINK(KBUILD_MODNAME);
