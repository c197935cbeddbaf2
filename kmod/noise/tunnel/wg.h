/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: the WireGuard profile (Documentation/wireguard.rst).
 *
 * A device whose protocol is "WireGuard" runs our engine's
 * Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s with WireGuard's prologue and
 * speaks WireGuard's wire format: the framing ops below translate between
 * it and the tunnel's own (native) framing at the two edges (the receive
 * classifier, the handshake writer, the transport header), so peers,
 * sessions, routing, replay windows and timers are the tunnel's own code.
 */
#ifndef _NOISE_TUNNEL_WG_H
#define _NOISE_TUNNEL_WG_H

#include <linux/types.h>
#include "cookie.h"
#include "device.h"
#include "messages.h"

struct noise_peer;
struct sk_buff;

/* The profile's name (NOISE_A_DEVICE_PROTOCOL, "Protocol =" in a config). */
#define NOISE_WG_PROFILE		"WireGuard"
/* What the engine runs for it, and WireGuard's identifier (the prologue). */
#define NOISE_WG_CONSTRUCTION		"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s"
#define NOISE_WG_IDENTIFIER		"WireGuard v1 zx2c4 Jason@zx2c4.com"
/* Its MAC1 and cookie labels: cookie.h defines them. */
#define NOISE_WG_LABEL_MAC1		NOISE_COOKIE_WG_LABEL_MAC1
#define NOISE_WG_LABEL_COOKIE		NOISE_COOKIE_WG_LABEL_COOKIE

/* Message types: one byte and three zero bytes, read as one __le32. */
enum noise_wg_msg_type {
	NOISE_WG_MSG_INITIATION = 1,
	NOISE_WG_MSG_RESPONSE = 2,
	NOISE_WG_MSG_COOKIE_REPLY = 3,
	NOISE_WG_MSG_DATA = 4,
};

#define NOISE_WG_KEY_LEN		32
#define NOISE_WG_INITIATION_LEN		148
#define NOISE_WG_RESPONSE_LEN		92
#define NOISE_WG_COOKIE_REPLY_LEN	64
#define NOISE_WG_DATA_HEADER_LEN	16
#define NOISE_WG_DATA_MIN_LEN		(NOISE_WG_DATA_HEADER_LEN + NOISE_TAG_LEN)

struct noise_wg_initiation {
	__le32 type;
	__le32 sender_index;
	u8 ephemeral[NOISE_WG_KEY_LEN];
	u8 encrypted_static[NOISE_WG_KEY_LEN + NOISE_TAG_LEN];
	u8 encrypted_timestamp[NOISE_TIMESTAMP_LEN + NOISE_TAG_LEN];
	u8 mac1[NOISE_MAC_LEN];
	u8 mac2[NOISE_MAC_LEN];
} __packed;

struct noise_wg_response {
	__le32 type;
	__le32 sender_index;
	__le32 receiver_index;
	u8 ephemeral[NOISE_WG_KEY_LEN];
	u8 encrypted_nothing[NOISE_TAG_LEN];
	u8 mac1[NOISE_MAC_LEN];
	u8 mac2[NOISE_MAC_LEN];
} __packed;

struct noise_wg_cookie_reply {
	__le32 type;
	__le32 receiver_index;
	u8 nonce[NOISE_COOKIE_NONCE_LEN];
	u8 encrypted_cookie[NOISE_COOKIE_LEN + NOISE_TAG_LEN];
} __packed;

struct noise_wg_data {
	__le32 type;
	__le32 receiver_index;
	__le64 counter;
} __packed;

static_assert(sizeof(struct noise_wg_initiation) == NOISE_WG_INITIATION_LEN);
static_assert(sizeof(struct noise_wg_response) == NOISE_WG_RESPONSE_LEN);
static_assert(sizeof(struct noise_wg_cookie_reply) == NOISE_WG_COOKIE_REPLY_LEN);
static_assert(sizeof(struct noise_wg_data) == NOISE_WG_DATA_HEADER_LEN);

/*
 * struct noise_framing_ops - a wire format other than the tunnel's own.
 * A protocol's noise_tunnel_proto.framing is NULL for the native framing
 * (Documentation/wire-format.rst) or points to one of these.
 * @profile: the name users configure ("Protocol = ...").
 * @construction: the Noise protocol the engine runs.
 * @prologue: the prologue of every handshake.
 * @label_mac1, @label_cookie: labels of the keyed BLAKE2s MAC keys.
 * @rx_check: type and length verdict before any crypto (softirq); *type
 *	is the native type (NOISE_MSG_*).
 * @rx_handshake: a checked handshake message (linear, softirq; its MACs
 *	passed noise_cookie_admit() already): turn it into the native layout
 *	in place. 0 or -errno (drop).
 * @cookie_header: the first four bytes of a cookie reply (the rest is the
 *	same as ours: receiver index, nonce, encrypted cookie).
 * @hs_layout: a native handshake message of @len bytes written by hs_glue.c:
 *	turn it into the wire layout in place; the new length. Its MACs
 *	(the last 32 bytes) are then keyed by the receiver's static key in
 *	both directions (the peer's cookie maker, which
 *	noise_peer_cookie_keys() keyed with the profile's labels).
 * @data_header: the first four bytes of a transport header.
 * @data_ad: the transport header is the AEAD's associated data.
 * @fresh_retry: a retransmitted initiation must be a new one (new
 *	ephemeral key, new timestamp): the peer refuses a timestamp it saw
 *	(WireGuard). Ours resend the same bytes and answer a duplicate.
 */
struct noise_framing_ops {
	const char *profile;
	const char *construction;
	const char *prologue;
	const char *label_mac1, *label_cookie;
	enum noise_drop (*rx_check)(const u8 *msg, unsigned int len, u8 *type);
	int (*rx_handshake)(struct noise_device *nd, struct noise_identity *id,
			    struct sk_buff *skb);
	void (*cookie_header)(u8 hdr[4]);
	unsigned int (*hs_layout)(u8 *msg, unsigned int len);
	void (*data_header)(u8 hdr[4]);
	bool data_ad;
	bool fresh_retry;
};

extern const struct noise_framing_ops noise_wg_framing;

/* The Noise protocol name the engine runs for @p. */
static inline const char *noise_proto_hs_name(const struct noise_tunnel_proto *p)
{
	return p->framing ? p->framing->construction : p->name;
}

const struct noise_framing_ops *noise_framing_by_name(const char *name);
void noise_framing_labels(const struct noise_tunnel_proto *p, const char **mac1,
			  const char **cookie);

#endif /* _NOISE_TUNNEL_WG_H */
