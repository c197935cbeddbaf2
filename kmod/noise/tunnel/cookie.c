// SPDX-License-Identifier: GPL-2.0
/*
 * MAC1, MAC2 and cookie replies: the handshake DoS defence.
 *
 *   mac1 key   = BLAKE2s-256(label_mac1 || responder's static public key)
 *   cookie key = BLAKE2s-256(label_cookie || responder's static public key)
 *   mac1       = BLAKE2s-128(key = mac1 key, msg[0..mac_off))
 *   cookie     = BLAKE2s-128(key = secret, source IP || source port)
 *   mac2       = BLAKE2s-128(key = cookie, msg[0..mac_off + 16))
 *   reply      = nonce (24 random bytes) ||
 *                XChaCha20-Poly1305(cookie key, nonce, cookie, ad = mac1)
 *
 * With WireGuard's labels ("mac1----", "cookie--") these are WireGuard's
 * bytes. The secret is replaced every 120 s; the previous one still
 * validates mac2 until it is 240 s old, so a cookie handed out just before
 * a rotation lives as long as one handed out just after.
 *
 * Locking: the checker is one seqlock_t. Readers (validate, reply_create)
 * compute inside a seqcount read section and retry if a writer ran; writers
 * (the lazy rotation, set_key) take the seqlock's spinlock with BH
 * disabled, so a softirq reader never spins on a writer it interrupted.
 * The maker has a spinlock taken with BH disabled. Nothing sleeps: all of
 * it is callable from softirq, a timer or process context (not with hard
 * IRQs disabled).
 */
#include <linux/errno.h>
#include <linux/random.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/ipv6.h>
#include <crypto/algapi.h>	/* crypto_memneq(), also on 6.1 */
#include <crypto/blake2s.h>
#include <crypto/chacha20poly1305.h>

#include "tunnel/cookie.h"
#include "tunnel/ratelimiter.h"

static_assert(NOISE_COOKIE_NONCE_LEN == XCHACHA20POLY1305_NONCE_SIZE);
static_assert(NOISE_COOKIE_KEY_LEN == CHACHA20POLY1305_KEY_SIZE);
static_assert(NOISE_COOKIE_ENCRYPTED_LEN ==
	      NOISE_COOKIE_LEN + CHACHA20POLY1305_AUTHTAG_SIZE);

/* BLAKE2s-256(label || pub); pub_len 0: the label alone. */
static void cookie_derive_key(u8 key[NOISE_COOKIE_KEY_LEN],
			      const char *label,
			      const u8 *pub, size_t pub_len)
{
	struct blake2s_state st;

	blake2s_init(&st, NOISE_COOKIE_KEY_LEN);
	blake2s_update(&st, (const u8 *)label, strlen(label));
	if (pub_len)
		blake2s_update(&st, pub, pub_len);
	blake2s_final(&st, key);	/* zeroes @st */
}

/* cookie = BLAKE2s-128(key = secret, ip || port); false: not IPv4/IPv6. */
static bool cookie_compute(u8 cookie[NOISE_COOKIE_LEN],
			   const u8 secret[NOISE_COOKIE_SECRET_LEN],
			   const struct sockaddr *src)
{
	const struct sockaddr_in6 *sin6;
	const struct sockaddr_in *sin;
	struct blake2s_state st;

	switch (src->sa_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)src;
		blake2s_init_key(&st, NOISE_COOKIE_LEN, secret,
				 NOISE_COOKIE_SECRET_LEN);
		blake2s_update(&st, (const u8 *)&sin->sin_addr, 4);
		blake2s_update(&st, (const u8 *)&sin->sin_port, 2);
		break;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)src;
		blake2s_init_key(&st, NOISE_COOKIE_LEN, secret,
				 NOISE_COOKIE_SECRET_LEN);
		/* The same cookie whichever way a socket reports IPv4. */
		if (ipv6_addr_v4mapped(&sin6->sin6_addr))
			blake2s_update(&st,
				       (const u8 *)&sin6->sin6_addr.s6_addr32[3],
				       4);
		else
			blake2s_update(&st, sin6->sin6_addr.s6_addr, 16);
		blake2s_update(&st, (const u8 *)&sin6->sin6_port, 2);
		break;
	default:
		return false;
	}
	blake2s_final(&st, cookie);
	return true;
}

static bool cookie_family_ok(const struct sockaddr *src)
{
	return src->sa_family == AF_INET || src->sa_family == AF_INET6;
}

static u64 checker_now(const struct noise_cookie_checker *c)
{
	u64 now = ktime_get_coarse_boottime_ns();

#if IS_ENABLED(CONFIG_KUNIT)
	now += c->test_clock_offset;
#endif
	return now;
}

static u64 maker_now(const struct noise_cookie_maker *m)
{
	u64 now = ktime_get_coarse_boottime_ns();

#if IS_ENABLED(CONFIG_KUNIT)
	now += m->test_clock_offset;
#endif
	return now;
}

/* Under the write lock. The previous secret is kept while it is young
 * enough to have handed out cookies that are still within their age.
 */
static void checker_rotate_locked(struct noise_cookie_checker *c, u64 now)
{
	if ((s64)(now - c->secret_birth) < 2 * NOISE_COOKIE_SECRET_MAX_AGE) {
		memcpy(c->prev_secret, c->secret, NOISE_COOKIE_SECRET_LEN);
		c->prev_birth = c->secret_birth;
		c->has_prev = true;
	} else {
		memzero_explicit(c->prev_secret, NOISE_COOKIE_SECRET_LEN);
		c->has_prev = false;
	}
	get_random_bytes(c->secret, NOISE_COOKIE_SECRET_LEN);
	c->secret_birth = now;
}

static void checker_maybe_rotate(struct noise_cookie_checker *c)
{
	u64 now = checker_now(c);

	if (likely((s64)(now - READ_ONCE(c->secret_birth)) <
		   NOISE_COOKIE_SECRET_MAX_AGE))
		return;
	write_seqlock_bh(&c->lock);
	now = checker_now(c);
	if ((s64)(now - c->secret_birth) >= NOISE_COOKIE_SECRET_MAX_AGE)
		checker_rotate_locked(c, now);
	write_sequnlock_bh(&c->lock);
}

void noise_cookie_checker_init(struct noise_cookie_checker *c)
{
	memset(c, 0, sizeof(*c));
	seqlock_init(&c->lock);
	get_random_bytes(c->secret, NOISE_COOKIE_SECRET_LEN);
	c->secret_birth = checker_now(c);
}

void noise_cookie_checker_set_key(struct noise_cookie_checker *c,
				  const char *label_mac1,
				  const char *label_cookie,
				  const u8 *static_pub, size_t pub_len)
{
	u8 mac1_key[NOISE_COOKIE_KEY_LEN], cookie_key[NOISE_COOKIE_KEY_LEN];

	cookie_derive_key(mac1_key, label_mac1, static_pub, pub_len);
	cookie_derive_key(cookie_key, label_cookie, static_pub, pub_len);
	write_seqlock_bh(&c->lock);
	memcpy(c->mac1_key, mac1_key, NOISE_COOKIE_KEY_LEN);
	memcpy(c->cookie_key, cookie_key, NOISE_COOKIE_KEY_LEN);
	c->has_key = true;
	write_sequnlock_bh(&c->lock);
	memzero_explicit(mac1_key, sizeof(mac1_key));
	memzero_explicit(cookie_key, sizeof(cookie_key));
}

void noise_cookie_checker_uninit(struct noise_cookie_checker *c)
{
	write_seqlock_bh(&c->lock);
	memzero_explicit(c->mac1_key, NOISE_COOKIE_KEY_LEN);
	memzero_explicit(c->cookie_key, NOISE_COOKIE_KEY_LEN);
	memzero_explicit(c->secret, NOISE_COOKIE_SECRET_LEN);
	memzero_explicit(c->prev_secret, NOISE_COOKIE_SECRET_LEN);
	c->has_key = false;
	c->has_prev = false;
	write_sequnlock_bh(&c->lock);
}

/* A new secret now; cookies of the one before stay valid (see above). */
void noise_cookie_checker_rotate(struct noise_cookie_checker *c)
{
	write_seqlock_bh(&c->lock);
	checker_rotate_locked(c, checker_now(c));
	write_sequnlock_bh(&c->lock);
}

static bool cookie_mac2_ok(const u8 secret[NOISE_COOKIE_SECRET_LEN],
			   const u8 *msg, size_t mac_off,
			   const struct sockaddr *src)
{
	u8 cookie[NOISE_COOKIE_LEN], mac[NOISE_COOKIE_MAC_LEN];
	bool ok;

	if (!cookie_compute(cookie, secret, src))
		return false;
	blake2s(mac, msg, cookie, NOISE_COOKIE_MAC_LEN,
		mac_off + NOISE_COOKIE_MAC_LEN, NOISE_COOKIE_LEN);
	ok = !crypto_memneq(mac, msg + mac_off + NOISE_COOKIE_MAC_LEN,
			    NOISE_COOKIE_MAC_LEN);
	memzero_explicit(cookie, sizeof(cookie));
	return ok;
}

enum noise_cookie_verdict
noise_cookie_validate(struct noise_cookie_checker *c, const u8 *msg,
		      size_t mac_off, const struct sockaddr *src,
		      bool check_mac2)
{
	u8 mac[NOISE_COOKIE_MAC_LEN];
	unsigned int seq;
	bool ok, prev;
	u64 now;

	/* The cheap part: one keyed hash, whatever the message is. */
	do {
		seq = read_seqbegin(&c->lock);
		ok = c->has_key;
		if (ok)
			blake2s(mac, msg, c->mac1_key, NOISE_COOKIE_MAC_LEN,
				mac_off, NOISE_COOKIE_KEY_LEN);
	} while (read_seqretry(&c->lock, seq));
	if (!ok || crypto_memneq(mac, msg + mac_off, NOISE_COOKIE_MAC_LEN))
		return NOISE_COOKIE_BAD_MAC1;
	if (!check_mac2 || !cookie_family_ok(src))
		return NOISE_COOKIE_VALID_MAC1;

	checker_maybe_rotate(c);
	now = checker_now(c);
	do {
		seq = read_seqbegin(&c->lock);
		ok = cookie_mac2_ok(c->secret, msg, mac_off, src);
		prev = c->has_prev && (s64)(now - c->prev_birth) <
				      2 * NOISE_COOKIE_SECRET_MAX_AGE;
		if (!ok && prev)
			ok = cookie_mac2_ok(c->prev_secret, msg, mac_off, src);
	} while (read_seqretry(&c->lock, seq));
	return ok ? NOISE_COOKIE_VALID_MAC2 : NOISE_COOKIE_VALID_MAC1;
}

/* The reply's ciphertext for a given nonce (split out for the KUnit). */
static int cookie_reply_seal(struct noise_cookie_checker *c,
			     const u8 mac1[NOISE_COOKIE_MAC_LEN],
			     const struct sockaddr *src,
			     const u8 nonce[NOISE_COOKIE_NONCE_LEN],
			     u8 encrypted_cookie[NOISE_COOKIE_ENCRYPTED_LEN])
{
	u8 cookie[NOISE_COOKIE_LEN];
	unsigned int seq;
	int ret;

	if (!cookie_family_ok(src))
		return -EAFNOSUPPORT;
	checker_maybe_rotate(c);
	do {
		seq = read_seqbegin(&c->lock);
		ret = -ENOKEY;
		if (!c->has_key)
			continue;
		cookie_compute(cookie, c->secret, src);
		xchacha20poly1305_encrypt(encrypted_cookie, cookie,
					  NOISE_COOKIE_LEN, mac1,
					  NOISE_COOKIE_MAC_LEN, nonce,
					  c->cookie_key);
		ret = 0;
	} while (read_seqretry(&c->lock, seq));
	memzero_explicit(cookie, sizeof(cookie));
	return ret;
}

int noise_cookie_reply_create(struct noise_cookie_checker *c, const u8 *msg,
			      size_t mac_off, const struct sockaddr *src,
			      u8 nonce[NOISE_COOKIE_NONCE_LEN],
			      u8 encrypted_cookie[NOISE_COOKIE_ENCRYPTED_LEN])
{
	get_random_bytes(nonce, NOISE_COOKIE_NONCE_LEN);
	return cookie_reply_seal(c, msg + mac_off, src, nonce,
				 encrypted_cookie);
}

void noise_cookie_maker_init(struct noise_cookie_maker *m,
			     const char *label_mac1,
			     const char *label_cookie,
			     const u8 *peer_pub, size_t pub_len)
{
	memset(m, 0, sizeof(*m));
	spin_lock_init(&m->lock);
	cookie_derive_key(m->mac1_key, label_mac1, peer_pub, pub_len);
	cookie_derive_key(m->cookie_key, label_cookie, peer_pub, pub_len);
}

void noise_cookie_maker_uninit(struct noise_cookie_maker *m)
{
	spin_lock_bh(&m->lock);
	memzero_explicit(m->mac1_key, NOISE_COOKIE_KEY_LEN);
	memzero_explicit(m->cookie_key, NOISE_COOKIE_KEY_LEN);
	memzero_explicit(m->cookie, NOISE_COOKIE_LEN);
	m->cookie_valid = false;
	m->have_sent_mac1 = false;
	spin_unlock_bh(&m->lock);
}

bool noise_cookie_add_macs(struct noise_cookie_maker *m, u8 *msg,
			   size_t mac_off)
{
	u8 *mac1 = msg + mac_off, *mac2 = mac1 + NOISE_COOKIE_MAC_LEN;
	u64 now = maker_now(m);
	bool with_mac2;

	blake2s(mac1, msg, m->mac1_key, NOISE_COOKIE_MAC_LEN, mac_off,
		NOISE_COOKIE_KEY_LEN);
	spin_lock_bh(&m->lock);
	memcpy(m->last_mac1, mac1, NOISE_COOKIE_MAC_LEN);
	m->have_sent_mac1 = true;
	with_mac2 = m->cookie_valid &&
		    (s64)(now - m->cookie_birth) <
		    NOISE_COOKIE_SECRET_MAX_AGE - NOISE_COOKIE_LATENCY;
	if (with_mac2)
		blake2s(mac2, msg, m->cookie, NOISE_COOKIE_MAC_LEN,
			mac_off + NOISE_COOKIE_MAC_LEN, NOISE_COOKIE_LEN);
	else
		memset(mac2, 0, NOISE_COOKIE_MAC_LEN);
	spin_unlock_bh(&m->lock);
	return with_mac2;
}

int noise_cookie_reply_consume(struct noise_cookie_maker *m,
			       const u8 nonce[NOISE_COOKIE_NONCE_LEN],
			       const u8 encrypted_cookie[NOISE_COOKIE_ENCRYPTED_LEN])
{
	u8 mac1[NOISE_COOKIE_MAC_LEN], cookie[NOISE_COOKIE_LEN];
	bool ok;

	spin_lock_bh(&m->lock);
	ok = m->have_sent_mac1;
	memcpy(mac1, m->last_mac1, NOISE_COOKIE_MAC_LEN);
	spin_unlock_bh(&m->lock);
	if (!ok)
		return -ENOENT;

	/* The cookie key is constant after init: no lock needed here. */
	if (!xchacha20poly1305_decrypt(cookie, encrypted_cookie,
				       NOISE_COOKIE_ENCRYPTED_LEN, mac1,
				       NOISE_COOKIE_MAC_LEN, nonce,
				       m->cookie_key))
		return -EBADMSG;

	spin_lock_bh(&m->lock);
	memcpy(m->cookie, cookie, NOISE_COOKIE_LEN);
	m->cookie_birth = maker_now(m);
	m->cookie_valid = true;
	/* One reply per message sent, unless a new one went out meanwhile. */
	if (!memcmp(m->last_mac1, mac1, NOISE_COOKIE_MAC_LEN))
		m->have_sent_mac1 = false;
	spin_unlock_bh(&m->lock);
	memzero_explicit(cookie, sizeof(cookie));
	return 0;
}

/**
 * noise_cookie_maker_mac1_ok() - check mac1 of a message keyed like ours.
 * @m: the maker of the peer that sent it.
 * @msg: the whole message; mac1 at @msg + @mac_off.
 * @mac_off: where mac1 is (it covers @msg[0..@mac_off)).
 *
 * For framings where a message is MACed with the key of its *sender*'s
 * static key (ours: a responder's even messages carry mac1 keyed by its
 * own key, which the initiator knows as the peer's): one keyed hash and a
 * crypto_memneq, no lock (the keys are constant after init).
 *
 * Context: any.
 * Return: true if mac1 is valid.
 */
bool noise_cookie_maker_mac1_ok(const struct noise_cookie_maker *m,
				const u8 *msg, size_t mac_off)
{
	u8 mac[NOISE_COOKIE_MAC_LEN];
	bool ok;

	blake2s(mac, msg, m->mac1_key, NOISE_COOKIE_MAC_LEN, mac_off,
		NOISE_COOKIE_KEY_LEN);
	ok = !crypto_memneq(mac, msg + mac_off, NOISE_COOKIE_MAC_LEN);
	memzero_explicit(mac, sizeof(mac));
	return ok;
}

/**
 * noise_cookie_checker_add_mac1() - mac1 with our own key, mac2 zero.
 * @c: the checker (keyed with our static key).
 * @msg: the whole message; the MACs are written at @msg + @mac_off.
 * @mac_off: where mac1 goes.
 *
 * The sender side of noise_cookie_maker_mac1_ok(). Without a key (no
 * set_key yet) both MACs are zero, which no receiver accepts.
 *
 * Context: any.
 */
void noise_cookie_checker_add_mac1(struct noise_cookie_checker *c, u8 *msg,
				   size_t mac_off)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&c->lock);
		if (c->has_key)
			blake2s(msg + mac_off, msg, c->mac1_key,
				NOISE_COOKIE_MAC_LEN, mac_off,
				NOISE_COOKIE_KEY_LEN);
		else
			memset(msg + mac_off, 0, NOISE_COOKIE_MAC_LEN);
	} while (read_seqretry(&c->lock, seq));
	memset(msg + mac_off + NOISE_COOKIE_MAC_LEN, 0, NOISE_COOKIE_MAC_LEN);
}

/**
 * noise_cookie_admit() - the receive decision for one handshake message.
 * @c: the device's checker.
 * @rl: the device's rate limiter.
 * @msg: the whole message (at least @mac_off + 32 bytes).
 * @mac_off: where mac1 is; mac2 follows it.
 * @src: the outer source address and port.
 * @net: the namespace of the receiving socket (rate limiter key).
 * @under_load: the caller's handshake queue is busy.
 *
 * The order of Documentation/cookies.rst: mac1 (one keyed hash); not under
 * load, a valid mac1 is enough; under load, mac2 must be valid (else the
 * caller sends a cookie reply and stops) and then the source must be
 * within its rate.
 *
 * Context: any (softirq); never sleeps.
 * Return: what to do with the message.
 */
enum noise_cookie_admission
noise_cookie_admit(struct noise_cookie_checker *c, struct noise_ratelimiter *rl,
		   const u8 *msg, size_t mac_off, const struct sockaddr *src,
		   const struct net *net, bool under_load)
{
	switch (noise_cookie_validate(c, msg, mac_off, src, under_load)) {
	case NOISE_COOKIE_BAD_MAC1:
		return NOISE_ADMIT_BAD_MAC1;
	case NOISE_COOKIE_VALID_MAC1:
		return under_load ? NOISE_ADMIT_SEND_COOKIE : NOISE_ADMIT_OK;
	case NOISE_COOKIE_VALID_MAC2:
		break;
	}
	if (!under_load)
		return NOISE_ADMIT_OK;
	if (!noise_ratelimiter_allow(rl, src, net))
		return NOISE_ADMIT_RATELIMITED;
	return NOISE_ADMIT_OK_MAC2;
}
