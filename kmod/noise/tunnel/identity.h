/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: identity.c: the device's identity (protocol, static key
 * pair) and configuration (listen port, fwmark). Documentation/
 * architecture.rst, "The configuration interface": conf_lock held, and
 * RTNL too for the listen port.
 */
#ifndef _NOISE_TUNNEL_IDENTITY_H
#define _NOISE_TUNNEL_IDENTITY_H

#include <linux/types.h>

struct netlink_ext_ack;
struct noise_device;
struct noise_identity;

int noise_device_set_protocol(struct noise_device *nd, const char *name,
			      struct netlink_ext_ack *extack);
int noise_device_set_private_key(struct noise_device *nd, const u8 *key);
int noise_device_set_listen_port(struct noise_device *nd, u16 port);
void noise_device_set_fwmark(struct noise_device *nd, u32 mark);

/* A set request's identity change in two steps (netlink_set.c). */
struct noise_identity *noise_device_ident_prepare(struct noise_device *nd,
						  const char *protocol,
						  const u8 *private_key,
						  struct netlink_ext_ack *extack);
void noise_device_ident_commit(struct noise_device *nd, struct noise_identity *id);
void noise_device_ident_abort(struct noise_identity *id);

/* A device's first identity and its last (device.c). */
int noise_device_ident_init(struct noise_device *nd);
void noise_device_ident_free(struct noise_device *nd);

#endif /* _NOISE_TUNNEL_IDENTITY_H */
