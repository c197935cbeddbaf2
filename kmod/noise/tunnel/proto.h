/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: proto.c: which Noise protocols a tunnel runs, and what they need. */
#ifndef _NOISE_TUNNEL_PROTO_H
#define _NOISE_TUNNEL_PROTO_H

#include <linux/netlink.h>

/* Calibrated protocols kept (noise_tunnel_protocol_parse()). */
#define NOISE_PROTO_CACHE_SIZE 8

struct noise_protocol_info;
struct noise_tunnel_proto;

int noise_tunnel_protocol_ok(const char *name, unsigned int *dh_len,
			     struct netlink_ext_ack *extack);
int noise_tunnel_protocol_info(const char *name, struct noise_protocol_info *info);
bool noise_tunnel_protocol_cached(const char *name);
int noise_tunnel_protocol_parse(const char *name, struct noise_tunnel_proto *p,
				struct netlink_ext_ack *extack);

#endif /* _NOISE_TUNNEL_PROTO_H */
