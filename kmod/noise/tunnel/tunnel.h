/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: functions shared between the tunnel's files, and the
 * interface to the rest of the module (noise_tunnel_init/exit, the
 * netlink hooks).
 */
#ifndef _NOISE_TUNNEL_TUNNEL_H
#define _NOISE_TUNNEL_TUNNEL_H

#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/skbuff.h>

struct noise_device;
struct noise_peer;
struct noise_keypair;
struct noise_tunnel_proto;
struct sock;

/* device.c */
int noise_tunnel_init(void);
void noise_tunnel_exit(void);
extern struct rtnl_link_ops noise_link_ops;
struct noise_device *noise_device_from_netdev(struct net_device *dev);

/* proto.c */
int noise_tunnel_protocol_ok(const char *name, unsigned int *dh_len,
			     struct netlink_ext_ack *extack);
int noise_tunnel_protocol_info(const char *name, struct noise_protocol_info *info);
int noise_tunnel_protocol_parse(const char *name, struct noise_tunnel_proto *p,
				struct netlink_ext_ack *extack);

/* receive.c */
int noise_receive(struct sock *sk, struct sk_buff *skb);
void noise_receive_handshakes(struct work_struct *work);
void noise_rx_work(struct work_struct *work);
void noise_rx_queue_purge(struct noise_peer *peer);

/* send.c */
netdev_tx_t noise_xmit(struct sk_buff *skb, struct net_device *dev);
void noise_send_staged(struct noise_peer *peer);
void noise_send_keepalive(struct noise_peer *peer);
void noise_tx_work(struct work_struct *work);
void noise_tx_queue_purge(struct noise_peer *peer);

/* hs.c */
void noise_hs_process(struct noise_device *nd, struct sk_buff *skb);
void noise_hs_peer_work(struct work_struct *work);
void noise_hs_clear_peer(struct noise_peer *peer);
void noise_hs_clear_anon(struct noise_device *nd);
void noise_peer_queue_hs_work(struct noise_peer *peer);
void noise_hs_want(struct noise_peer *peer);
void noise_hs_session_confirmed(struct noise_peer *peer);

/* timers.c */
void noise_timers_init(struct noise_peer *peer);
void noise_timers_stop(struct noise_peer *peer);
void noise_timers_data_sent(struct noise_peer *peer);
void noise_timers_data_received(struct noise_peer *peer);
void noise_timers_any_packet_sent(struct noise_peer *peer);
void noise_timers_hs_sent(struct noise_peer *peer);
void noise_timers_any_packet_received(struct noise_peer *peer,
				      struct noise_keypair *kp);
void noise_timers_session_made(struct noise_peer *peer);
void noise_timers_hs_given_up(struct noise_peer *peer);

/* netlink.c: the family, and its notifications. */
int noise_genl_init(void);
void noise_genl_exit(void);
void noise_netlink_notify_peer_add(struct noise_peer *peer);
void noise_netlink_notify_peer_del(struct noise_peer *peer);
void noise_netlink_notify_handshake(struct noise_peer *peer);
void noise_netlink_notify_endpoint(struct noise_peer *peer);
void noise_netlink_notify_hs_failed(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_TUNNEL_H */
