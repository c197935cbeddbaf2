// SPDX-License-Identifier: GPL-2.0
/*
 * Text forms of the device model's values.
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "encoding.h"
#include "format.h"

static char *slot(void)
{
	static char bufs[8][128];
	static unsigned int next;

	return bufs[next++ % ARRAY_SIZE(bufs)];
}

const char *fmt_key(const u8 *key, size_t len)
{
	char *s = slot();

	if (!len || B64_LEN(len) >= 128)
		return "(none)";
	key_to_base64(s, key, len);
	return s;
}

const char *fmt_endpoint(const union noise_endpoint *ep)
{
	char addr[INET6_ADDRSTRLEN], *s = slot();

	if (ep->addr.sa_family == AF_INET &&
	    inet_ntop(AF_INET, &ep->addr4.sin_addr, addr, sizeof(addr)))
		snprintf(s, 128, "%s:%u", addr, ntohs(ep->addr4.sin_port));
	else if (ep->addr.sa_family == AF_INET6 &&
		 inet_ntop(AF_INET6, &ep->addr6.sin6_addr, addr, sizeof(addr)))
		snprintf(s, 128, "[%s]:%u", addr, ntohs(ep->addr6.sin6_port));
	else
		return "(none)";
	return s;
}

const char *fmt_allowedip(const struct noise_allowedip *ip)
{
	char addr[INET6_ADDRSTRLEN], *s = slot();

	if (!inet_ntop(ip->family, &ip->ip6, addr, sizeof(addr)))
		return "(invalid)";
	snprintf(s, 128, "%s/%u", addr, ip->cidr);
	return s;
}

static const char *const stats_names[NOISE_A_STATS_MAX + 1] = {
	[NOISE_A_STATS_RX_BYTES] = "rx_bytes",
	[NOISE_A_STATS_RX_PACKETS] = "rx_packets",
	[NOISE_A_STATS_TX_BYTES] = "tx_bytes",
	[NOISE_A_STATS_TX_PACKETS] = "tx_packets",
	[NOISE_A_STATS_HANDSHAKES] = "handshakes",
	[NOISE_A_STATS_DROP_BAD_TYPE] = "drop_bad_type",
	[NOISE_A_STATS_DROP_BAD_LENGTH] = "drop_bad_length",
	[NOISE_A_STATS_DROP_UNKNOWN_INDEX] = "drop_unknown_index",
	[NOISE_A_STATS_DROP_AUTH] = "drop_auth",
	[NOISE_A_STATS_DROP_REPLAY] = "drop_replay",
	[NOISE_A_STATS_DROP_SOURCE] = "drop_source",
	[NOISE_A_STATS_DROP_NO_PEER] = "drop_no_peer",
	[NOISE_A_STATS_DROP_HANDSHAKE] = "drop_handshake",
	[NOISE_A_STATS_DROP_NO_KEY] = "drop_no_key",
	[NOISE_A_STATS_DROP_INNER] = "drop_inner",
	[NOISE_A_STATS_DROP_MAC1] = "drop_mac1",
	[NOISE_A_STATS_DROP_COOKIE] = "drop_cookie",
	[NOISE_A_STATS_DROP_RATELIMIT] = "drop_ratelimit",
	[NOISE_A_STATS_DROP_HS_QUEUE] = "drop_hs_queue",
	[NOISE_A_STATS_DROP_LOOP] = "drop_loop",
	[NOISE_A_STATS_COOKIE_REPLIES] = "cookie_replies",
	[NOISE_A_STATS_MAC2_SENT] = "mac2_sent",
	[NOISE_A_STATS_MAC2_ACCEPTED] = "mac2_accepted",
	[NOISE_A_STATS_HS_INITIATIONS] = "hs_initiations",
	[NOISE_A_STATS_HS_RESENT] = "hs_resent",
	[NOISE_A_STATS_HS_GIVEN_UP] = "hs_given_up",
};

const char *stats_name(int attr)
{
	if (attr < 0 || attr > NOISE_A_STATS_MAX)
		return NULL;
	return stats_names[attr];
}

bool stats_is_drop(int attr)
{
	const char *n = stats_name(attr);

	return n && !strncmp(n, "drop_", 5);
}
