/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: what the two halves of the generic netlink family share
 * (netlink.c: registration, dump, events; netlink_set.c: SET_DEVICE).
 */
#ifndef _NOISE_TUNNEL_NETLINK_H
#define _NOISE_TUNNEL_NETLINK_H

#include <net/netlink.h>
#include "device.h"

struct net;
struct noise_device;
struct noise_identity;
struct noise_peer;

/* netlink.c: the family, and the tunnel's notifications to it. */
int noise_genl_init(void);
void noise_genl_exit(void);
void noise_netlink_notify_peer_add(struct noise_peer *peer);
void noise_netlink_notify_peer_del(struct noise_peer *peer);
void noise_netlink_peer_event(struct noise_peer *peer, enum noise_peer_event ev);

struct noise_device *noise_nl_device(struct net *net, struct nlattr **tb,
				     struct netlink_ext_ack *extack);
struct noise_identity *noise_nl_ident(struct noise_device *nd);

#endif /* _NOISE_TUNNEL_NETLINK_H */
