/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: the wire format (Documentation/wire-format.rst) and the
 * constants of the tunnel's timers and limits, all in one place.
 */
#ifndef _NOISE_TUNNEL_MESSAGES_H
#define _NOISE_TUNNEL_MESSAGES_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <linux/build_bug.h>
#include <linux/jiffies.h>
#include "../noise.h"

/* Wire-format version: byte 1 of every message, and in the prologue. */
#define NOISE_WIRE_VERSION		1
/* The prologue: this prefix, the version byte, then the protocol name. */
#define NOISE_PROLOGUE_PREFIX		"noise-tunnel wire"

/* Labels of the keyed BLAKE2s hashes (wire-format.rst). */
#define NOISE_LABEL_MAC1		"noise-tunnel mac1"
#define NOISE_LABEL_COOKIE		"noise-tunnel cookie"
#define NOISE_LABEL_HINT		"noise-tunnel hint"
#define NOISE_LABEL_ID			"noise-tunnel id"
#define NOISE_LABEL_PSK_ID		"noise-tunnel psk id"

enum noise_msg_type {
	NOISE_MSG_HANDSHAKE = 1,
	NOISE_MSG_COOKIE_REPLY = 2,	/* under load (cookies.rst) */
	NOISE_MSG_TRANSPORT = 3,
};

#define NOISE_MAC_LEN			16
#define NOISE_HINT_LEN			32	/* a peer's id, encrypted */
#define NOISE_TIMESTAMP_LEN		12	/* TAI64N */
#define NOISE_COOKIE_NONCE_LEN		24
#define NOISE_COOKIE_LEN		16

/* Every message starts with these four bytes. */
struct noise_msg_header {
	u8 type;
	u8 version;
	u8 msgno;	/* handshake: 1..num_msgs; else 0 */
	u8 reserved;	/* 0 */
} __packed;

/*
 * A handshake message: header, then (message 1 of a hinted protocol) the
 * hint, then the Noise message, then MAC1 and MAC2 (struct noise_msg_macs).
 * The hint is the initiator's id for the responder encrypted with a key
 * from DH(e, responder's s) (wire-format.rst, hinted protocols).
 */
struct noise_msg_handshake {
	struct noise_msg_header h;
	__le32 sender_index;
	__le32 receiver_index;	/* 0 in message 1 */
} __packed;

struct noise_msg_hint {
	u8 ct[NOISE_HINT_LEN];
} __packed;

struct noise_msg_macs {
	u8 mac1[NOISE_MAC_LEN];
	u8 mac2[NOISE_MAC_LEN];
} __packed;

/* A cookie reply (Documentation/cookies.rst): 64 bytes. */
struct noise_msg_cookie_reply {
	struct noise_msg_header h;
	__le32 receiver_index;
	u8 nonce[NOISE_COOKIE_NONCE_LEN];
	u8 encrypted_cookie[NOISE_COOKIE_LEN + NOISE_TAG_LEN];
} __packed;

/* A transport message: this header (the AEAD's associated data), then the
 * encrypted inner packet padded to NOISE_PADDING, then the tag.
 */
struct noise_msg_transport {
	struct noise_msg_header h;
	__le32 receiver_index;
	__le64 counter;
} __packed;

static_assert(sizeof(struct noise_msg_header) == 4);
static_assert(sizeof(struct noise_msg_handshake) == 12);
static_assert(sizeof(struct noise_msg_hint) == 32);
static_assert(sizeof(struct noise_msg_cookie_reply) == 64);
static_assert(sizeof(struct noise_msg_transport) == 16);

#define NOISE_PADDING			16
#define NOISE_TRANSPORT_MIN_LEN		(sizeof(struct noise_msg_transport) + NOISE_TAG_LEN)
/* Largest handshake message the tunnel takes. The longest today is message
 * 1 of IKhfs with X448 and ML-KEM-1024 (1,816 bytes on the wire: e, an
 * encrypted ML-KEM-1024 key, s, payload, hint, MACs); the calibration
 * handshake (noise_tunnel_protocol_parse()) refuses any protocol over it.
 * Such messages exceed a 1,280-byte IPv6 path: the socket lets IP fragment
 * them (ignore_df; every host reassembles), as any other UDP datagram.
 */
#define NOISE_MAX_HS_MSG_LEN		2048

/*
 * Timers and limits (Documentation/timers.rst; WireGuard's values where it
 * has one). The session lifetimes and idle times are read through
 * noise_scaled(), which divides them by the test-only module parameter
 * debug_time_scale (1 outside tests); the handshake's own clock
 * (NOISE_HS_RETRANSMIT, NOISE_REKEY_TIMEOUT, NOISE_MIN_HS_INTERVAL) is
 * never scaled: a handshake does not get faster in a test.
 */
#define NOISE_REKEY_AFTER_MESSAGES	BIT_ULL(60)
#define NOISE_REJECT_AFTER_MESSAGES	(U64_MAX - NOISE_REPLAY_WINDOW - 1)
#define NOISE_REKEY_TIMEOUT		(5 * HZ)	/* a handshake's lifetime */
#define NOISE_HS_RETRANSMIT		(1 * HZ)	/* resend last message */
#define NOISE_HS_JITTER			(HZ / 3)	/* + up to this, random */
#define NOISE_HS_MAX_RETRANSMITS	4		/* then start anew */
/* Scaled by debug_time_scale: */
#define NOISE_REKEY_ATTEMPT_TIME	(90 * HZ)	/* then give up */
#define NOISE_REKEY_AFTER_TIME		(120 * HZ)
#define NOISE_REJECT_AFTER_TIME		(180 * HZ)
#define NOISE_KEEPALIVE_TIMEOUT		(10 * HZ)
/* Either side rekeys a session this old when it sends or receives on it. */
#define NOISE_REKEY_LAST_MINUTE		(NOISE_REJECT_AFTER_TIME - \
					 NOISE_KEEPALIVE_TIMEOUT - NOISE_REKEY_TIMEOUT)
#define NOISE_ZERO_KEYS_AFTER		(3 * NOISE_REJECT_AFTER_TIME)
#define NOISE_MAX_TIME_SCALE		3600

extern unsigned int noise_time_scale;	/* timers.c, debug_time_scale */

/* @t (jiffies) divided by debug_time_scale, at least one jiffy. */
static inline unsigned long noise_scaled(unsigned long t)
{
	unsigned int s = READ_ONCE(noise_time_scale);

	return s > 1 ? max(t / s, 1UL) : t;
}

#define NOISE_MIN_HS_INTERVAL		(HZ / 50)	/* 50 initiations/s */
/* Message 1s taken from one peer (WireGuard's INITIATIONS_PER_SECOND). */
#define NOISE_INITIATIONS_PER_SECOND	50
#define NOISE_MAX_STAGED		128		/* packets per peer */
#define NOISE_MAX_QUEUED_HANDSHAKES	4096		/* per device */
#define NOISE_MAX_QUEUED_PACKETS	1024		/* per CPU worker */
#define NOISE_MAX_ANON_HANDSHAKES	256		/* per device */
#define NOISE_MAX_PEERS			BIT(20)

#endif /* _NOISE_TUNNEL_MESSAGES_H */
