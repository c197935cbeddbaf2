/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: hs_glue.c: the handshake glue between the engine and the tunnel. */
#ifndef _NOISE_TUNNEL_HS_GLUE_H
#define _NOISE_TUNNEL_HS_GLUE_H

#include <linux/skbuff.h>
#include <linux/workqueue.h>

struct noise_device;
struct noise_peer;

void noise_glue_process(struct noise_device *nd, struct sk_buff *skb);
void noise_glue_peer_work(struct work_struct *work);
void noise_glue_clear_peer(struct noise_peer *peer);
void noise_glue_clear_anon(struct noise_device *nd);
void noise_glue_session_confirmed(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_HS_GLUE_H */
