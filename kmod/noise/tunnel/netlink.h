/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: the generic netlink family "noise" (netlink.c).
 *
 * noise_genl_init()/noise_genl_exit() and the noise_netlink_notify_*()
 * hooks are declared in tunnel.h (the tunnel core calls them); this header
 * holds what netlink.c needs from the tunnel core
 * (/work/wt/contracts/tunnel-api.md) until tunnel.h declares it.
 */
#ifndef _NOISE_TUNNEL_NETLINK_H
#define _NOISE_TUNNEL_NETLINK_H

#include <linux/netlink.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <uapi/linux/noise.h>
#include "../noise.h"

struct noise_device;
struct noise_peer;

struct noise_identity;

struct noise_identity *noise_device_ident_prepare(struct noise_device *nd,
						  const char *protocol,
						  const u8 *private_key,
						  struct netlink_ext_ack *extack);
void noise_device_ident_commit(struct noise_device *nd, struct noise_identity *id);
void noise_device_ident_abort(struct noise_identity *id);
int noise_device_set_listen_port(struct noise_device *nd, u16 port);
void noise_device_set_fwmark(struct noise_device *nd, u32 mark);

struct noise_peer *noise_peer_alloc(struct noise_device *nd, const u8 *public_key,
				    unsigned int key_len, gfp_t gfp);
void noise_peer_add(struct noise_peer *peer);
void noise_peer_free_unadded(struct noise_peer *peer);
int noise_peer_set_psks(struct noise_peer *peer,
			const u8 psks[][NOISE_PSK_LEN], unsigned int count);
void noise_peer_psk_id(struct noise_peer *peer, u8 out[NOISE_PSK_ID_LEN]);
int noise_peer_set_endpoint(struct noise_peer *peer,
			    const struct sockaddr *sa, size_t len);
void noise_peer_get_endpoint(struct noise_peer *peer,
			     struct sockaddr_storage *out);
void noise_peer_set_keepalive(struct noise_peer *peer, u16 seconds);
u16 noise_peer_keepalive(struct noise_peer *peer);
u64 noise_peer_last_handshake_ns(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_NETLINK_H */
