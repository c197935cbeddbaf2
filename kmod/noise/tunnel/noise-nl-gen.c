// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/noise.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "noise-nl-gen.h"

#include <uapi/linux/noise.h>

/* Common nested types */
const struct nla_policy noise_allowedip_nl_policy[NOISE_A_ALLOWEDIP_CIDR_MASK + 1] = {
	[NOISE_A_ALLOWEDIP_FAMILY] = { .type = NLA_U16, },
	[NOISE_A_ALLOWEDIP_ADDR] = { .type = NLA_BINARY, },
	[NOISE_A_ALLOWEDIP_CIDR_MASK] = NLA_POLICY_MAX(NLA_U8, 128),
};

const struct nla_policy noise_peer_nl_policy[NOISE_A_PEER_LAST_ATTEMPT_TIME + 1] = {
	[NOISE_A_PEER_PUBLIC_KEY] = { .type = NLA_BINARY, },
	[NOISE_A_PEER_PRESHARED_KEY] = { .type = NLA_BINARY, },
	[NOISE_A_PEER_PSK_ID] = { .type = NLA_BINARY, },
	[NOISE_A_PEER_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0xf),
	[NOISE_A_PEER_ENDPOINT] = { .type = NLA_BINARY, },
	[NOISE_A_PEER_PERSISTENT_KEEPALIVE] = { .type = NLA_U16, },
	[NOISE_A_PEER_LAST_HANDSHAKE_TIME] = { .type = NLA_UINT, },
	[NOISE_A_PEER_STATS] = NLA_POLICY_NESTED(noise_stats_nl_policy),
	[NOISE_A_PEER_ALLOWEDIP] = NLA_POLICY_NESTED(noise_allowedip_nl_policy),
	[NOISE_A_PEER_LAST_ATTEMPT_TIME] = { .type = NLA_UINT, },
};

const struct nla_policy noise_stats_nl_policy[NOISE_A_STATS_HS_GIVEN_UP + 1] = {
	[NOISE_A_STATS_RX_BYTES] = { .type = NLA_UINT, },
	[NOISE_A_STATS_RX_PACKETS] = { .type = NLA_UINT, },
	[NOISE_A_STATS_TX_BYTES] = { .type = NLA_UINT, },
	[NOISE_A_STATS_TX_PACKETS] = { .type = NLA_UINT, },
	[NOISE_A_STATS_HANDSHAKES] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_BAD_TYPE] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_BAD_LENGTH] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_UNKNOWN_INDEX] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_AUTH] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_REPLAY] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_SOURCE] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_NO_PEER] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_HANDSHAKE] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_NO_KEY] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_INNER] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_MAC1] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_COOKIE] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_RATELIMIT] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_HS_QUEUE] = { .type = NLA_UINT, },
	[NOISE_A_STATS_DROP_LOOP] = { .type = NLA_UINT, },
	[NOISE_A_STATS_COOKIE_REPLIES] = { .type = NLA_UINT, },
	[NOISE_A_STATS_MAC2_SENT] = { .type = NLA_UINT, },
	[NOISE_A_STATS_MAC2_ACCEPTED] = { .type = NLA_UINT, },
	[NOISE_A_STATS_HS_INITIATIONS] = { .type = NLA_UINT, },
	[NOISE_A_STATS_HS_RESENT] = { .type = NLA_UINT, },
	[NOISE_A_STATS_HS_GIVEN_UP] = { .type = NLA_UINT, },
};

/* NOISE_CMD_GET_DEVICE - dump */
static const struct nla_policy noise_get_device_nl_policy[NOISE_A_DEVICE_IFNAME + 1] = {
	[NOISE_A_DEVICE_IFINDEX] = { .type = NLA_U32, },
	[NOISE_A_DEVICE_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* NOISE_CMD_SET_DEVICE - do */
static const struct nla_policy noise_set_device_nl_policy[NOISE_A_DEVICE_PEER + 1] = {
	[NOISE_A_DEVICE_IFINDEX] = { .type = NLA_U32, },
	[NOISE_A_DEVICE_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[NOISE_A_DEVICE_PROTOCOL] = { .type = NLA_NUL_STRING, .len = NOISE_PROTOCOL_NAME_MAX, },
	[NOISE_A_DEVICE_PRIVATE_KEY] = { .type = NLA_BINARY, },
	[NOISE_A_DEVICE_LISTEN_PORT] = { .type = NLA_U16, },
	[NOISE_A_DEVICE_FWMARK] = { .type = NLA_U32, },
	[NOISE_A_DEVICE_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1),
	[NOISE_A_DEVICE_PEER] = NLA_POLICY_NESTED(noise_peer_nl_policy),
};

/* Ops table for noise */
const struct genl_split_ops noise_nl_ops[2] = {
	{
		.cmd		= NOISE_CMD_GET_DEVICE,
		.start		= noise_nl_get_device_start,
		.dumpit		= noise_nl_get_device_dumpit,
		.done		= noise_nl_get_device_done,
		.policy		= noise_get_device_nl_policy,
		.maxattr	= NOISE_A_DEVICE_IFNAME,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= NOISE_CMD_SET_DEVICE,
		.doit		= noise_nl_set_device_doit,
		.policy		= noise_set_device_nl_policy,
		.maxattr	= NOISE_A_DEVICE_PEER,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group noise_nl_mcgrps[] = {
	[NOISE_NLGRP_PEERS] = { "peers", },
};
