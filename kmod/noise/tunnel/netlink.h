/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: the generic netlink family "noise" (netlink.c).
 *
 * noise_genl_init()/noise_genl_exit() and the noise_netlink_notify_*()
 * hooks are declared in tunnel.h (the tunnel core calls them). Below: the
 * tunnel-core calls netlink.c needs that the core's headers do not declare
 * yet (/work/wt/contracts/tunnel-api.md, netlink-needs-tunnel.patch); an
 * identical declaration there later compiles, a different one does not.
 */
#ifndef _NOISE_TUNNEL_NETLINK_H
#define _NOISE_TUNNEL_NETLINK_H

#include <linux/netlink.h>
#include <linux/types.h>

struct noise_device;
struct noise_identity;
struct noise_peer;

struct noise_identity *noise_device_ident_prepare(struct noise_device *nd,
						  const char *protocol,
						  const u8 *private_key,
						  struct netlink_ext_ack *extack);
void noise_device_ident_commit(struct noise_device *nd, struct noise_identity *id);
void noise_device_ident_abort(struct noise_identity *id);

struct noise_peer *noise_peer_alloc(struct noise_device *nd, const u8 *public_key,
				    unsigned int key_len, gfp_t gfp);
void noise_peer_add(struct noise_peer *peer);
void noise_peer_free_unadded(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_NETLINK_H */
