/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: a peer's life, on the control floor (peer_conf.c). */
#ifndef _NOISE_TUNNEL_PEER_CONF_H
#define _NOISE_TUNNEL_PEER_CONF_H

#include <linux/types.h>

struct noise_device;
struct noise_tunnel_proto;
struct noise_peer;

struct noise_peer *noise_peer_create(struct noise_device *nd, const u8 *public_key);
struct noise_peer *noise_peer_alloc(struct noise_device *nd, const u8 *public_key,
				    unsigned int key_len, gfp_t gfp);
void noise_peer_add(struct noise_peer *peer);
void noise_peer_cookie_keys(const struct noise_tunnel_proto *p, struct noise_peer *peer);
void noise_peer_remove(struct noise_peer *peer);
void noise_peer_remove_all(struct noise_device *nd);
int noise_peer_set_psks(struct noise_peer *peer, const u8 *psks, unsigned int n);
void noise_peer_rehandshake(struct noise_peer *peer);
void noise_peer_set_keepalive(struct noise_peer *peer, u16 seconds);

#endif /* _NOISE_TUNNEL_PEER_CONF_H */
