/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MAC1, MAC2 and cookie replies (the handshake DoS defence), framing-neutral:
 * the caller tells where the two MACs sit in its message. Given WireGuard's
 * labels it produces WireGuard's bytes. See Documentation/cookies.rst.
 */
#ifndef _NOISE_TUNNEL_COOKIE_H
#define _NOISE_TUNNEL_COOKIE_H

#include <linux/types.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include "messages.h"	/* NOISE_COOKIE_LEN, NOISE_COOKIE_NONCE_LEN, ... */

struct net;
struct noise_ratelimiter;
struct sockaddr;

#define NOISE_COOKIE_KEY_LEN		32	/* BLAKE2s-256 of label || key */
#define NOISE_COOKIE_SECRET_LEN		32
#define NOISE_COOKIE_MAC_LEN		NOISE_MAC_LEN	/* mac1 and mac2 each */
/* The cookie and the XChaCha20-Poly1305 nonce: NOISE_COOKIE_LEN and
 * NOISE_COOKIE_NONCE_LEN, in messages.h with the cookie reply.
 */
#define NOISE_COOKIE_ENCRYPTED_LEN	(NOISE_COOKIE_LEN + NOISE_TAG_LEN)
/* The responder's secret is replaced after this long. */
#define NOISE_COOKIE_SECRET_MAX_AGE	(120 * NSEC_PER_SEC)
/* The maker stops using a cookie this long before the secret's age. */
#define NOISE_COOKIE_LATENCY		(5 * NSEC_PER_SEC)

/*
 * Labels are C strings of any length (the NUL is not hashed). WireGuard's
 * are below (wg.h uses these); our framing's are NOISE_LABEL_MAC1 and
 * NOISE_LABEL_COOKIE in tunnel/messages.h (the tunnel's wire format owns
 * them).
 */
#define NOISE_COOKIE_WG_LABEL_MAC1	"mac1----"
#define NOISE_COOKIE_WG_LABEL_COOKIE	"cookie--"

/*
 * Responder side, one per device. All fields under @lock: readers use the
 * seqcount (lockless, retried), writers its spinlock with BH disabled.
 */
struct noise_cookie_checker {
	seqlock_t lock;
	u8 mac1_key[NOISE_COOKIE_KEY_LEN];
	u8 cookie_key[NOISE_COOKIE_KEY_LEN];
	u8 secret[NOISE_COOKIE_SECRET_LEN];
	u8 prev_secret[NOISE_COOKIE_SECRET_LEN];
	u64 secret_birth;	/* boottime ns */
	u64 prev_birth;
	bool has_key;
	bool has_prev;
#if IS_ENABLED(CONFIG_KUNIT)
	s64 test_clock_offset;	/* KUnit only: added to the clock */
#endif
};

/* Initiator side, one per peer. Keys are constant after init. */
struct noise_cookie_maker {
	spinlock_t lock;	/* the fields below the keys; BH disabled */
	u8 mac1_key[NOISE_COOKIE_KEY_LEN];
	u8 cookie_key[NOISE_COOKIE_KEY_LEN];
	u8 last_mac1[NOISE_COOKIE_MAC_LEN];
	u8 cookie[NOISE_COOKIE_LEN];
	u64 cookie_birth;	/* boottime ns of the reply's arrival */
	bool have_sent_mac1;
	bool cookie_valid;
#if IS_ENABLED(CONFIG_KUNIT)
	s64 test_clock_offset;
#endif
};

enum noise_cookie_verdict {
	NOISE_COOKIE_BAD_MAC1,	/* drop; it cost one keyed hash */
	NOISE_COOKIE_VALID_MAC1,	/* mac2 not asked for, or not valid */
	NOISE_COOKIE_VALID_MAC2,	/* mac1 and mac2 valid */
};

void noise_cookie_checker_init(struct noise_cookie_checker *c);
void noise_cookie_checker_set_key(struct noise_cookie_checker *c,
				  const char *label_mac1,
				  const char *label_cookie,
				  const u8 *static_pub, size_t pub_len);
void noise_cookie_checker_uninit(struct noise_cookie_checker *c);
void noise_cookie_checker_rotate(struct noise_cookie_checker *c);

enum noise_cookie_verdict
noise_cookie_validate(struct noise_cookie_checker *c, const u8 *msg,
		      size_t mac_off, const struct sockaddr *src,
		      bool check_mac2);
int noise_cookie_reply_create(struct noise_cookie_checker *c, const u8 *msg,
			      size_t mac_off, const struct sockaddr *src,
			      u8 nonce[NOISE_COOKIE_NONCE_LEN],
			      u8 encrypted_cookie[NOISE_COOKIE_ENCRYPTED_LEN]);

void noise_cookie_maker_init(struct noise_cookie_maker *m,
			     const char *label_mac1,
			     const char *label_cookie,
			     const u8 *peer_pub, size_t pub_len);
void noise_cookie_maker_uninit(struct noise_cookie_maker *m);
bool noise_cookie_add_macs(struct noise_cookie_maker *m, u8 *msg,
			   size_t mac_off);
int noise_cookie_reply_consume(struct noise_cookie_maker *m,
			       const u8 nonce[NOISE_COOKIE_NONCE_LEN],
			       const u8 encrypted_cookie[NOISE_COOKIE_ENCRYPTED_LEN]);

/* Framings that MAC a message with its sender's key (ours, even messages). */
bool noise_cookie_maker_mac1_ok(const struct noise_cookie_maker *m,
				const u8 *msg, size_t mac_off);
void noise_cookie_checker_add_mac1(struct noise_cookie_checker *c, u8 *msg,
				   size_t mac_off);

/* What the receive path does with a handshake message (noise_cookie_admit). */
enum noise_cookie_admission {
	NOISE_ADMIT_OK,			/* on to the handshake (DH) */
	NOISE_ADMIT_OK_MAC2,		/* the same, under load with a valid mac2 */
	NOISE_ADMIT_BAD_MAC1,		/* drop, count */
	NOISE_ADMIT_SEND_COOKIE,	/* under load, no valid mac2: reply */
	NOISE_ADMIT_RATELIMITED,	/* under load, source over its rate */
};

enum noise_cookie_admission
noise_cookie_admit(struct noise_cookie_checker *c, struct noise_ratelimiter *rl,
		   const u8 *msg, size_t mac_off, const struct sockaddr *src,
		   const struct net *net, bool under_load);

#endif /* _NOISE_TUNNEL_COOKIE_H */
