/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: send.c: the send path (ndo_start_xmit, staging, peers' TX work). */
#ifndef _NOISE_TUNNEL_SEND_H
#define _NOISE_TUNNEL_SEND_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct noise_peer;
struct noise_crypt_ops;

netdev_tx_t noise_xmit(struct sk_buff *skb, struct net_device *dev);
void noise_send_staged(struct noise_peer *peer);
void noise_send_keepalive(struct noise_peer *peer);
void noise_tx_work(struct work_struct *work);
void noise_tx_queue_purge(struct noise_peer *peer);
extern const struct noise_crypt_ops noise_tx_crypt;

#endif /* _NOISE_TUNNEL_SEND_H */
