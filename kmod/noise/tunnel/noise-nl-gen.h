/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/noise.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_NOISE_GEN_H
#define _LINUX_NOISE_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/noise.h>

/* Common nested types */
extern const struct nla_policy noise_allowedip_nl_policy[NOISE_A_ALLOWEDIP_CIDR_MASK + 1];
extern const struct nla_policy noise_peer_nl_policy[NOISE_A_PEER_LAST_ATTEMPT_TIME + 1];
extern const struct nla_policy noise_stats_nl_policy[NOISE_A_STATS_HS_GIVEN_UP + 1];

/* Ops table for noise */
extern const struct genl_split_ops noise_nl_ops[2];

int noise_nl_get_device_start(struct netlink_callback *cb);
int noise_nl_get_device_done(struct netlink_callback *cb);

int noise_nl_get_device_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int noise_nl_set_device_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	NOISE_NLGRP_PEERS,
};

#endif /* _LINUX_NOISE_GEN_H */
