/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: hs.c: the handshake glue between the engine and the tunnel. */
#ifndef _NOISE_TUNNEL_HS_H
#define _NOISE_TUNNEL_HS_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct noise_device;
struct noise_peer;

void noise_hs_process(struct noise_device *nd, struct sk_buff *skb);
void noise_hs_peer_work(struct work_struct *work);
void noise_hs_clear_peer(struct noise_peer *peer);
void noise_hs_clear_anon(struct noise_device *nd);
void noise_hs_session_confirmed(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_HS_H */
