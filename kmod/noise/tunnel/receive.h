/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: receive.c: the receive path (UDP socket in, peers' RX work). */
#ifndef _NOISE_TUNNEL_RECEIVE_H
#define _NOISE_TUNNEL_RECEIVE_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct noise_peer;
struct noise_crypt_ops;
struct sock;

int noise_receive(struct sock *sk, struct sk_buff *skb);
void noise_receive_handshakes(struct work_struct *work);
void noise_rx_work(struct work_struct *work);
void noise_rx_queue_purge(struct noise_peer *peer);
extern const struct noise_crypt_ops noise_rx_crypt;

#endif /* _NOISE_TUNNEL_RECEIVE_H */
