// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for kmod/noise/tunnel/cookie.c and ratelimiter.c: WireGuard
 * byte compatibility (vectors from gen_cookie_vectors.py), MAC2 with and
 * without a cookie, cookie replies (round trip, tampering, wrong source),
 * secret rotation, cookie expiry, the rate limiter (burst, refusal, refill,
 * prefixes, many sources, GC), softirq use, and the cost of the checks.
 *
 *   insmod tests/kunit/noise_cookie_kunit.ko
 *
 * The module compiles the two sources itself (#include below), so the
 * tests reach their static helpers and test clocks; nothing is exported.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/timer.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <crypto/curve25519.h>

#include "tunnel/cookie.c"
#include "tunnel/ratelimiter.c"
#include "cookie_vectors.h"

/* Our framing's labels, as tunnel/messages.h has them. */
#define OUR_LABEL_MAC1		"noise-tunnel mac1"
#define OUR_LABEL_COOKIE	"noise-tunnel cookie"

#define WG_INIT_MAC_OFF	116
#define WG_INIT_LEN	148
#define WG_RESP_MAC_OFF	60
#define WG_RESP_LEN	92

static struct sockaddr_in sin4(const char *ip, u16 port)
{
	struct sockaddr_in s = { .sin_family = AF_INET,
				 .sin_port = htons(port) };

	in4_pton(ip, -1, (u8 *)&s.sin_addr, -1, NULL);
	return s;
}

static struct sockaddr_in6 sin6(const char *ip, u16 port)
{
	struct sockaddr_in6 s = { .sin6_family = AF_INET6,
				  .sin6_port = htons(port) };

	in6_pton(ip, -1, s.sin6_addr.s6_addr, -1, NULL);
	return s;
}

#define SA(x) ((const struct sockaddr *)&(x))

static struct noise_cookie_checker *checker_alloc(struct kunit *test)
{
	struct noise_cookie_checker *c = kunit_kzalloc(test, sizeof(*c),
							GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	return c;
}

static struct noise_cookie_maker *maker_alloc(struct kunit *test)
{
	struct noise_cookie_maker *m = kunit_kzalloc(test, sizeof(*m),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	return m;
}

static void wg_checker(struct noise_cookie_checker *c, bool fixed_secret)
{
	noise_cookie_checker_init(c);
	noise_cookie_checker_set_key(c, NOISE_COOKIE_WG_LABEL_MAC1,
				     NOISE_COOKIE_WG_LABEL_COOKIE, cv_s_r_pub,
				     sizeof(cv_s_r_pub));
	if (fixed_secret)
		memcpy(c->secret, cv_secret, sizeof(cv_secret));
}

static void wg_maker(struct noise_cookie_maker *m)
{
	noise_cookie_maker_init(m, NOISE_COOKIE_WG_LABEL_MAC1,
				NOISE_COOKIE_WG_LABEL_COOKIE, cv_s_r_pub,
				sizeof(cv_s_r_pub));
}

/* Keys: BLAKE2s-256("mac1----" || S_r), BLAKE2s-256("cookie--" || S_r). */
static void cookie_test_wg_keys(struct kunit *test)
{
	struct noise_cookie_checker *c = checker_alloc(test);
	struct noise_cookie_maker *m = maker_alloc(test);

	wg_maker(m);
	wg_checker(c, false);
	KUNIT_EXPECT_MEMEQ(test, m->mac1_key, cv_mac1_key, 32);
	KUNIT_EXPECT_MEMEQ(test, m->cookie_key, cv_cookie_key, 32);
	KUNIT_EXPECT_MEMEQ(test, c->mac1_key, cv_mac1_key, 32);
	KUNIT_EXPECT_MEMEQ(test, c->cookie_key, cv_cookie_key, 32);
	/* Our framing's labels: strings of another length. */
	noise_cookie_checker_set_key(c, OUR_LABEL_MAC1, OUR_LABEL_COOKIE,
				     cv_s_r_pub, sizeof(cv_s_r_pub));
	KUNIT_EXPECT_MEMEQ(test, c->mac1_key, cv_our_mac1_key, 32);
	KUNIT_EXPECT_MEMEQ(test, c->cookie_key, cv_our_cookie_key, 32);
	noise_cookie_maker_uninit(m);
	noise_cookie_checker_uninit(c);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(c->secret, 0, sizeof(c->secret)));
	KUNIT_EXPECT_TRUE(test, !memchr_inv(m->mac1_key, 0, sizeof(m->mac1_key)));
}

/* A real WireGuard initiation: our mac1 is WireGuard's, mac2 zero. */
static void cookie_test_wg_mac1_initiation(struct kunit *test)
{
	struct noise_cookie_checker *c = checker_alloc(test);
	struct noise_cookie_maker *m = maker_alloc(test);
	struct sockaddr_in src = sin4("192.0.2.1", 51820);
	u8 msg[WG_INIT_LEN];

	wg_maker(m);
	memcpy(msg, cv_init_nocookie, WG_INIT_MAC_OFF);
	memset(msg + WG_INIT_MAC_OFF, 0xaa, 32);
	noise_cookie_add_macs(m, msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_MEMEQ(test, msg, cv_init_nocookie, WG_INIT_LEN);

	wg_checker(c, true);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, msg, WG_INIT_MAC_OFF,
						    SA(src), false),
			NOISE_COOKIE_VALID_MAC1);
	/* Under load, a zero mac2 is simply not a valid one. */
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, msg, WG_INIT_MAC_OFF,
						    SA(src), true),
			NOISE_COOKIE_VALID_MAC1);
	noise_cookie_maker_uninit(m);
	noise_cookie_checker_uninit(c);
}

/* The 92-byte response layout: mac1 at 60. */
static void cookie_test_wg_mac1_response(struct kunit *test)
{
	struct noise_cookie_checker *c = checker_alloc(test);
	struct noise_cookie_maker *m = maker_alloc(test);
	u8 msg[WG_RESP_LEN];

	wg_maker(m);
	memcpy(msg, cv_resp, WG_RESP_MAC_OFF);
	noise_cookie_add_macs(m, msg, WG_RESP_MAC_OFF);
	KUNIT_EXPECT_MEMEQ(test, msg + WG_RESP_MAC_OFF, cv_resp_mac1, 16);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(msg + WG_RESP_MAC_OFF + 16, 0, 16));
	wg_checker(c, false);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, msg, WG_RESP_MAC_OFF,
						    NULL, false),
			NOISE_COOKIE_VALID_MAC1);
	noise_cookie_maker_uninit(m);
	noise_cookie_checker_uninit(c);
}

/* Every byte under mac1, and mac1 itself, matters; so do key and label. */
static void cookie_test_bad_mac1(struct kunit *test)
{
	struct noise_cookie_checker *c = checker_alloc(test);
	struct noise_cookie_checker *ours = checker_alloc(test);
	struct noise_cookie_checker *nokey = checker_alloc(test);
	u8 msg[WG_INIT_LEN];
	unsigned int i;

	wg_checker(c, false);
	memcpy(msg, cv_init_nocookie, sizeof(msg));
	for (i = 0; i < WG_INIT_MAC_OFF + 16; i++) {
		msg[i] ^= 1 << (i & 7);
		KUNIT_EXPECT_EQ_MSG(test,
				    noise_cookie_validate(c, msg,
							  WG_INIT_MAC_OFF,
							  NULL, false),
				    NOISE_COOKIE_BAD_MAC1, "byte %u", i);
		msg[i] ^= 1 << (i & 7);
	}
	/* mac2 is not under mac1. */
	msg[WG_INIT_LEN - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, msg, WG_INIT_MAC_OFF,
						    NULL, false),
			NOISE_COOKIE_VALID_MAC1);

	noise_cookie_checker_init(ours);
	noise_cookie_checker_set_key(ours, OUR_LABEL_MAC1,
				     OUR_LABEL_COOKIE, cv_s_r_pub,
				     sizeof(cv_s_r_pub));
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(ours, cv_init_nocookie,
						    WG_INIT_MAC_OFF, NULL,
						    false),
			NOISE_COOKIE_BAD_MAC1);
	noise_cookie_checker_set_key(ours, NOISE_COOKIE_WG_LABEL_MAC1,
				     NOISE_COOKIE_WG_LABEL_COOKIE, cv_s_i_pub,
				     sizeof(cv_s_i_pub));
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(ours, cv_init_nocookie,
						    WG_INIT_MAC_OFF, NULL,
						    false),
			NOISE_COOKIE_BAD_MAC1);

	noise_cookie_checker_init(nokey);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(nokey, cv_init_nocookie,
						    WG_INIT_MAC_OFF, NULL,
						    false),
			NOISE_COOKIE_BAD_MAC1);
	noise_cookie_checker_uninit(c);
	noise_cookie_checker_uninit(ours);
	noise_cookie_checker_uninit(nokey);
}

/* WireGuard's cookie over ip || port, and the mac2 it keys. */
static void cookie_test_wg_cookie_mac2(struct kunit *test)
{
	struct sockaddr_in src = sin4("192.0.2.1", 51820);
	struct sockaddr_in6 src6 = sin6("2001:db8::1", 51820);
	struct sockaddr_in6 mapped = sin6("::ffff:192.0.2.1", 51820);
	struct noise_cookie_checker *c = checker_alloc(test);
	u8 cookie[NOISE_COOKIE_LEN];

	KUNIT_ASSERT_TRUE(test, cookie_compute(cookie, cv_secret, SA(src)));
	KUNIT_EXPECT_MEMEQ(test, cookie, cv_cookie4, 16);
	KUNIT_ASSERT_TRUE(test, cookie_compute(cookie, cv_secret, SA(src6)));
	KUNIT_EXPECT_MEMEQ(test, cookie, cv_cookie6, 16);
	KUNIT_ASSERT_TRUE(test, cookie_compute(cookie, cv_secret, SA(mapped)));
	KUNIT_EXPECT_MEMEQ(test, cookie, cv_cookie4, 16);

	wg_checker(c, true);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, cv_init_cookie,
						    WG_INIT_MAC_OFF, SA(src),
						    true),
			NOISE_COOKIE_VALID_MAC2);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, cv_init_cookie,
						    WG_INIT_MAC_OFF,
						    SA(mapped), true),
			NOISE_COOKIE_VALID_MAC2);
	/* Not asked for: not looked at. */
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(c, cv_init_cookie,
						    WG_INIT_MAC_OFF, SA(src),
						    false),
			NOISE_COOKIE_VALID_MAC1);
	noise_cookie_checker_uninit(c);
}

/* The reply's ciphertext for a fixed nonce is WireGuard's. */
static void cookie_test_wg_reply_bytes(struct kunit *test)
{
	struct sockaddr_in src = sin4("192.0.2.1", 51820);
	struct noise_cookie_checker *c = checker_alloc(test);
	u8 enc[NOISE_COOKIE_ENCRYPTED_LEN];

	wg_checker(c, true);
	KUNIT_ASSERT_EQ(test, cookie_reply_seal(c, cv_init_cookie +
						WG_INIT_MAC_OFF, SA(src),
						cv_reply_nonce, enc), 0);
	KUNIT_EXPECT_MEMEQ(test, enc, cv_reply, sizeof(cv_reply));
	noise_cookie_checker_uninit(c);
}

/* Maker side with WireGuard's bytes: send, consume the reply, resend. */
static void cookie_test_wg_consume(struct kunit *test)
{
	struct noise_cookie_maker *m = maker_alloc(test);
	u8 msg[WG_INIT_LEN];

	wg_maker(m);
	memcpy(msg, cv_init_nocookie, WG_INIT_MAC_OFF);
	noise_cookie_add_macs(m, msg, WG_INIT_MAC_OFF);
	KUNIT_ASSERT_EQ(test, noise_cookie_reply_consume(m, cv_reply_nonce,
							 cv_reply), 0);
	KUNIT_EXPECT_MEMEQ(test, m->cookie, cv_cookie4, 16);
	noise_cookie_add_macs(m, msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_MEMEQ(test, msg, cv_init_cookie, WG_INIT_LEN);
	noise_cookie_maker_uninit(m);
}

struct cookie_pair {
	struct noise_cookie_checker c;
	struct noise_cookie_maker m;
	u8 msg[WG_INIT_LEN];
	u8 pub[56];
};

/* Our labels, a random 56-byte (X448-sized) key, random message. */
static struct cookie_pair *pair_new(struct kunit *test)
{
	struct cookie_pair *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	get_random_bytes(p->pub, sizeof(p->pub));
	noise_cookie_checker_init(&p->c);
	noise_cookie_checker_set_key(&p->c, OUR_LABEL_MAC1,
				     OUR_LABEL_COOKIE, p->pub,
				     sizeof(p->pub));
	noise_cookie_maker_init(&p->m, OUR_LABEL_MAC1,
				OUR_LABEL_COOKIE, p->pub, sizeof(p->pub));
	get_random_bytes(p->msg, WG_INIT_MAC_OFF);
	return p;
}

static void pair_free(struct cookie_pair *p)
{
	noise_cookie_checker_uninit(&p->c);
	noise_cookie_maker_uninit(&p->m);
}

/* Full exchange: send, cookie reply, consume, resend with a valid mac2. */
static bool pair_get_cookie(struct kunit *test, struct cookie_pair *p,
			    const struct sockaddr *src)
{
	u8 nonce[NOISE_COOKIE_NONCE_LEN], enc[NOISE_COOKIE_ENCRYPTED_LEN];

	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(&p->c, p->msg,
						    WG_INIT_MAC_OFF, src,
						    true),
			NOISE_COOKIE_VALID_MAC1);
	if (noise_cookie_reply_create(&p->c, p->msg, WG_INIT_MAC_OFF, src,
				      nonce, enc))
		return false;
	if (noise_cookie_reply_consume(&p->m, nonce, enc))
		return false;
	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	return true;
}

static enum noise_cookie_verdict pair_check(struct cookie_pair *p,
					    const struct sockaddr *src)
{
	return noise_cookie_validate(&p->c, p->msg, WG_INIT_MAC_OFF, src,
				     true);
}

static void cookie_test_round_trip(struct kunit *test)
{
	struct sockaddr_in src = sin4("198.51.100.7", 4242);
	struct sockaddr_in6 src6 = sin6("2001:db8:1:2::3", 65535);
	struct cookie_pair *p = pair_new(test);
	u8 nonce[NOISE_COOKIE_NONCE_LEN], enc[NOISE_COOKIE_ENCRYPTED_LEN];

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);
	/* A new message keeps the cookie: mac2 over the new bytes. */
	p->msg[0] ^= 0xff;
	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src6)));
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src6)), NOISE_COOKIE_VALID_MAC2);

	/* Wrong family: no reply, never mac2. */
	src.sin_family = AF_UNSPEC;
	KUNIT_EXPECT_EQ(test, noise_cookie_reply_create(&p->c, p->msg,
							WG_INIT_MAC_OFF,
							SA(src), nonce, enc),
			-EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC1);
	pair_free(p);
}

/*
 * An hfs message 1 (IKhfs, X448 and ML-KEM-1024: 1,816 bytes on the wire)
 * takes the same path as a 148-byte one: mac1 over all that precedes it,
 * under load a cookie reply, then mac2; a bit flipped anywhere in its
 * 1.7 KiB of key and ciphertext fails mac1.
 */
static void cookie_test_hfs_length(struct kunit *test)
{
	struct sockaddr_in6 src = sin6("2001:db8::7", 51820);
	const size_t mac_off = 1816 - 32;
	struct cookie_pair *p = pair_new(test);
	u8 nonce[NOISE_COOKIE_NONCE_LEN], enc[NOISE_COOKIE_ENCRYPTED_LEN];
	u8 *msg = kunit_kzalloc(test, mac_off + 32, GFP_KERNEL);
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, msg);
	get_random_bytes(msg, mac_off);
	noise_cookie_add_macs(&p->m, msg, mac_off);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(&p->c, msg, mac_off, SA(src), true),
			NOISE_COOKIE_VALID_MAC1);
	KUNIT_ASSERT_EQ(test, noise_cookie_reply_create(&p->c, msg, mac_off, SA(src),
							nonce, enc), 0);
	KUNIT_ASSERT_EQ(test, noise_cookie_reply_consume(&p->m, nonce, enc), 0);
	noise_cookie_add_macs(&p->m, msg, mac_off);
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(&p->c, msg, mac_off, SA(src), true),
			NOISE_COOKIE_VALID_MAC2);
	for (i = 0; i < mac_off; i += 97) {
		msg[i] ^= 0x10;
		KUNIT_EXPECT_EQ_MSG(test, noise_cookie_validate(&p->c, msg, mac_off,
								SA(src), true),
				    NOISE_COOKIE_BAD_MAC1, "byte %zu", i);
		msg[i] ^= 0x10;
	}
	pair_free(p);
}

static void cookie_test_tampered_reply(struct kunit *test)
{
	struct sockaddr_in src = sin4("198.51.100.7", 4242);
	u8 nonce[NOISE_COOKIE_NONCE_LEN], enc[NOISE_COOKIE_ENCRYPTED_LEN];
	struct cookie_pair *p = pair_new(test), *other = pair_new(test);
	unsigned int bit;

	/* Nothing sent yet: nothing to accept. */
	KUNIT_EXPECT_EQ(test, noise_cookie_reply_consume(&p->m, nonce, enc),
			-ENOENT);

	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_ASSERT_EQ(test, noise_cookie_reply_create(&p->c, p->msg,
							WG_INIT_MAC_OFF,
							SA(src), nonce, enc),
			0);
	for (bit = 0; bit < 8 * (sizeof(nonce) + sizeof(enc)); bit++) {
		u8 *b = bit < 8 * sizeof(nonce) ? &nonce[bit / 8] :
			&enc[bit / 8 - sizeof(nonce)];

		*b ^= 1 << (bit & 7);
		KUNIT_EXPECT_EQ_MSG(test,
				    noise_cookie_reply_consume(&p->m, nonce,
							       enc),
				    -EBADMSG, "bit %u", bit);
		*b ^= 1 << (bit & 7);
	}
	KUNIT_EXPECT_FALSE(test, p->m.cookie_valid);

	/* Another responder's (another key's) reply. */
	noise_cookie_add_macs(&other->m, other->msg, WG_INIT_MAC_OFF);
	{
		u8 n2[NOISE_COOKIE_NONCE_LEN], e2[NOISE_COOKIE_ENCRYPTED_LEN];

		KUNIT_ASSERT_EQ(test,
				noise_cookie_reply_create(&other->c, p->msg,
							  WG_INIT_MAC_OFF,
							  SA(src), n2, e2), 0);
		KUNIT_EXPECT_EQ(test, noise_cookie_reply_consume(&p->m, n2, e2),
				-EBADMSG);
	}

	/* A reply to an older message (its mac1 is not the last sent). */
	p->msg[5] ^= 1;
	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_EQ(test, noise_cookie_reply_consume(&p->m, nonce, enc),
			-EBADMSG);
	p->msg[5] ^= 1;
	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_FALSE(test, p->m.cookie_valid);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(p->msg + WG_INIT_MAC_OFF + 16, 0,
					    16));

	/* The genuine one, once; its replay finds nothing to answer. */
	KUNIT_EXPECT_EQ(test, noise_cookie_reply_consume(&p->m, nonce, enc), 0);
	KUNIT_EXPECT_EQ(test, noise_cookie_reply_consume(&p->m, nonce, enc),
			-ENOENT);
	pair_free(p);
	pair_free(other);
}

/* The cookie binds the address and the port. */
static void cookie_test_wrong_source(struct kunit *test)
{
	struct sockaddr_in src = sin4("198.51.100.7", 4242);
	struct sockaddr_in other_ip = sin4("198.51.100.8", 4242);
	struct sockaddr_in other_port = sin4("198.51.100.7", 4243);
	struct sockaddr_in6 src6 = sin6("2001:db8::7", 4242);
	struct sockaddr_in6 near6 = sin6("2001:db8::8", 4242);
	struct cookie_pair *p = pair_new(test);

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(other_ip)),
			NOISE_COOKIE_VALID_MAC1);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(other_port)),
			NOISE_COOKIE_VALID_MAC1);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src6)), NOISE_COOKIE_VALID_MAC1);
	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src6)));
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(near6)),
			NOISE_COOKIE_VALID_MAC1);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC1);
	pair_free(p);
}

/* Forced and timed rotation: one rotation keeps cookies, two end them. */
static void cookie_test_rotation(struct kunit *test)
{
	struct sockaddr_in src = sin4("203.0.113.9", 1000);
	struct cookie_pair *p = pair_new(test);
	u8 old[NOISE_COOKIE_SECRET_LEN];

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	memcpy(old, p->c.secret, sizeof(old));
	noise_cookie_checker_rotate(&p->c);
	KUNIT_EXPECT_MEMNEQ(test, old, p->c.secret, sizeof(old));
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);
	noise_cookie_checker_rotate(&p->c);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC1);

	/* Lazy rotation after 120 s, by the first check. */
	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	memcpy(old, p->c.secret, sizeof(old));
	p->c.test_clock_offset += NOISE_COOKIE_SECRET_MAX_AGE - NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);
	KUNIT_EXPECT_MEMEQ(test, old, p->c.secret, sizeof(old));
	p->c.test_clock_offset += 2 * NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);
	KUNIT_EXPECT_MEMNEQ(test, old, p->c.secret, sizeof(old));
	KUNIT_EXPECT_TRUE(test, p->c.has_prev);
	/* The previous secret dies at 240 s of age, a rotation or not. */
	p->c.test_clock_offset += NOISE_COOKIE_SECRET_MAX_AGE - NSEC_PER_SEC / 2;
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC1);
	KUNIT_EXPECT_TRUE(test, p->c.has_prev);

	/* Idle for ages: the rotation keeps no previous secret at all. */
	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	p->c.test_clock_offset += 3 * NOISE_COOKIE_SECRET_MAX_AGE;
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC1);
	KUNIT_EXPECT_FALSE(test, p->c.has_prev);
	pair_free(p);
}

/* The maker drops its cookie 5 s before the responder's secret would. */
static void cookie_test_maker_expiry(struct kunit *test)
{
	struct sockaddr_in src = sin4("203.0.113.9", 1000);
	struct cookie_pair *p = pair_new(test);

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	p->m.test_clock_offset = NOISE_COOKIE_SECRET_MAX_AGE -
				 NOISE_COOKIE_LATENCY - NSEC_PER_SEC;
	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC2);
	p->m.test_clock_offset += 2 * NSEC_PER_SEC;
	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(p->msg + WG_INIT_MAC_OFF + 16, 0,
					    16));
	KUNIT_EXPECT_EQ(test, pair_check(p, SA(src)), NOISE_COOKIE_VALID_MAC1);
	pair_free(p);
}

/* Rate limiter. A fake netns pointer is only compared and hashed. */
static u8 fake_net_a, fake_net_b;
#define NET_A ((const struct net *)&fake_net_a)
#define NET_B ((const struct net *)&fake_net_b)

static struct noise_ratelimiter *rl_new(struct kunit *test,
					unsigned int buckets,
					unsigned int max)
{
	struct noise_ratelimiter *rl = kunit_kzalloc(test, sizeof(*rl),
						     GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rl);
	KUNIT_ASSERT_EQ(test, rl_init_sized(rl, buckets, max), 0);
	return rl;
}

static unsigned int rl_burst(struct noise_ratelimiter *rl,
			     const struct sockaddr *src, const struct net *net,
			     unsigned int tries)
{
	unsigned int i, n = 0;

	for (i = 0; i < tries; i++)
		n += noise_ratelimiter_allow(rl, src, net);
	return n;
}

static void rl_test_burst_refill(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in src = sin4("192.0.2.50", 1);
	struct sockaddr_in port = sin4("192.0.2.50", 2);

	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(src), NET_A, 20),
			NOISE_RATELIMIT_BURST);
	/* The port does not make another source. */
	KUNIT_EXPECT_FALSE(test, noise_ratelimiter_allow(rl, SA(port), NET_A));
	/* One packet's worth of time: one packet. */
	rl->test_clock_offset += NOISE_RATELIMIT_COST;
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(src), NET_A, 5), 1);
	rl->test_clock_offset += NOISE_RATELIMIT_COST / 2;
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(src), NET_A, 5), 0);
	/* Another namespace is another source. */
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(src), NET_B, 20),
			NOISE_RATELIMIT_BURST);
	/* A second's rest: the burst again, not more. */
	rl->test_clock_offset += NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(src), NET_A, 20),
			NOISE_RATELIMIT_BURST);
	/* Sustained: 20 per second over 10 s (+ the burst). */
	{
		unsigned int i, n = 0;

		for (i = 0; i < 1000; i++) {
			rl->test_clock_offset += NSEC_PER_SEC / 100;
			n += rl_burst(rl, SA(src), NET_A, 3);
		}
		KUNIT_EXPECT_GE(test, n, 10 * NOISE_RATELIMIT_PER_SECOND - 1);
		KUNIT_EXPECT_LE(test, n, 10 * NOISE_RATELIMIT_PER_SECOND +
				NOISE_RATELIMIT_BURST);
	}
	noise_ratelimiter_uninit(rl);
}

static void rl_test_prefixes(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in v4 = sin4("192.0.2.60", 1);
	struct sockaddr_in v4b = sin4("192.0.2.61", 1);
	struct sockaddr_in6 mapped = sin6("::ffff:192.0.2.60", 1);
	struct sockaddr_in6 a = sin6("2001:db8:0:1::1", 1);
	struct sockaddr_in6 same64 = sin6("2001:db8:0:1:ffff:ffff:ffff:ffff", 1);
	struct sockaddr_in6 other64 = sin6("2001:db8:0:2::1", 1);
	struct sockaddr_in bad = { .sin_family = AF_UNSPEC };

	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(v4), NET_A, 3), 3);
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(mapped), NET_A, 5), 2);
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(v4b), NET_A, 10), 5);
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(a), NET_A, 3), 3);
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(same64), NET_A, 5), 2);
	KUNIT_EXPECT_EQ(test, rl_burst(rl, SA(other64), NET_A, 10), 5);
	KUNIT_EXPECT_FALSE(test, noise_ratelimiter_allow(rl, SA(bad), NET_A));
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 4);
	noise_ratelimiter_uninit(rl);
}

/* Bounded table: full refuses new sources, keeps old ones; GC frees. */
static void rl_test_many_sources(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 64, 512);
	struct sockaddr_in src = sin4("10.0.0.0", 1);
	unsigned int i, n = 0;

	for (i = 0; i < 600; i++) {
		src.sin_addr.s_addr = htonl(0x0a000000 + i);
		n += noise_ratelimiter_allow(rl, SA(src), NET_A);
	}
	KUNIT_EXPECT_EQ(test, n, 512);
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 512);
	src.sin_addr.s_addr = htonl(0x0a000000 + 3);
	KUNIT_EXPECT_TRUE(test, noise_ratelimiter_allow(rl, SA(src), NET_A));

	/* The real GC work, run now instead of in a second. */
	rl->test_clock_offset += 2 * NOISE_RATELIMIT_IDLE;
	mod_delayed_work(system_power_efficient_wq, &rl->gc, 0);
	flush_delayed_work(&rl->gc);
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 0);
	/* Empty: it does not requeue itself. */
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&rl->gc));
	src.sin_addr.s_addr = htonl(0x0a000000 + 599);
	KUNIT_EXPECT_TRUE(test, noise_ratelimiter_allow(rl, SA(src), NET_A));
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&rl->gc));
	noise_ratelimiter_uninit(rl);
}

/* GC keeps the sources still in use, drops the idle ones. */
static void rl_test_gc(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in6 src = sin6("2001:db8::", 1);
	unsigned int i;

	for (i = 0; i < 10; i++) {
		src.sin6_addr.s6_addr[7] = i;
		KUNIT_EXPECT_TRUE(test, noise_ratelimiter_allow(rl, SA(src),
								NET_A));
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 10);
	rl->test_clock_offset += NSEC_PER_SEC / 2;
	for (i = 0; i < 10; i += 2) {
		src.sin6_addr.s6_addr[7] = i;
		noise_ratelimiter_allow(rl, SA(src), NET_A);
	}
	rl->test_clock_offset += NSEC_PER_SEC * 7 / 10;
	rl_sweep(rl, rl_now(rl), false);
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 5);
	for (i = 0; i < 10; i++) {
		struct hlist_head *b;
		u64 prefix;

		src.sin6_addr.s6_addr[7] = i;
		memcpy(&prefix, src.sin6_addr.s6_addr, 8);
		b = rl_bucket(rl, NET_A, AF_INET6, prefix);
		rcu_read_lock();
		KUNIT_EXPECT_EQ_MSG(test, !!rl_find(b, NET_A, AF_INET6, prefix),
				    !(i & 1), "source %u", i);
		rcu_read_unlock();
	}
	noise_ratelimiter_uninit(rl);
	KUNIT_EXPECT_NULL(test, rl->table);
}

static void rl_test_default_size(struct kunit *test)
{
	struct noise_ratelimiter *rl = kunit_kzalloc(test, sizeof(*rl),
						     GFP_KERNEL);
	struct sockaddr_in src = sin4("192.0.2.1", 1);

	KUNIT_ASSERT_NOT_NULL(test, rl);
	KUNIT_ASSERT_EQ(test, noise_ratelimiter_init(rl), 0);
	KUNIT_EXPECT_TRUE(test, is_power_of_2(rl->mask + 1));
	KUNIT_EXPECT_GE(test, rl->mask + 1, NOISE_RATELIMIT_MIN_BUCKETS);
	KUNIT_EXPECT_LE(test, rl->mask + 1, NOISE_RATELIMIT_MAX_BUCKETS);
	KUNIT_EXPECT_EQ(test, rl->max_entries,
			(rl->mask + 1) * NOISE_RATELIMIT_PER_BUCKET);
	kunit_info(test, "%u buckets, %u entries at most, entry %zu bytes\n",
		   rl->mask + 1, rl->max_entries,
		   sizeof(struct noise_rl_entry));
	KUNIT_EXPECT_TRUE(test, noise_ratelimiter_allow(rl, SA(src), NET_A));
	noise_ratelimiter_uninit(rl);
}

/*
 * Softirq and process context at once: a timer makes MACs, validates
 * (forcing lazy rotations, the writer side) and rate-limits while the test
 * thread rotates, re-keys, makes and consumes cookie replies and
 * rate-limits; lockdep sees every lock in both contexts.
 */
struct softirq_ctx {
	struct timer_list timer;
	struct cookie_pair *p;
	struct noise_ratelimiter *rl;
	struct sockaddr_in src;
	u8 tmsg[WG_INIT_LEN];
	atomic_t runs, mac1, mac2;
	bool stop;
};

static void softirq_fn(struct timer_list *t)
{
	struct softirq_ctx *x = from_timer(x, t, timer);
	enum noise_cookie_verdict v;

	x->p->c.test_clock_offset += NOISE_COOKIE_SECRET_MAX_AGE / 2;
	noise_cookie_add_macs(&x->p->m, x->tmsg, WG_INIT_MAC_OFF);
	v = noise_cookie_validate(&x->p->c, x->tmsg, WG_INIT_MAC_OFF,
				  SA(x->src), true);
	if (v != NOISE_COOKIE_BAD_MAC1)
		atomic_inc(&x->mac1);
	if (v == NOISE_COOKIE_VALID_MAC2)
		atomic_inc(&x->mac2);
	noise_ratelimiter_allow(x->rl, SA(x->src), NET_A);
	atomic_inc(&x->runs);
	if (!READ_ONCE(x->stop))
		mod_timer(&x->timer, jiffies + 1);
}

static void cookie_test_softirq(struct kunit *test)
{
	struct softirq_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, x);
	x->p = pair_new(test);
	x->rl = rl_new(test, 16, 128);
	x->src = sin4("192.0.2.77", 7);
	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, x->p, SA(x->src)));
	memcpy(x->tmsg, x->p->msg, WG_INIT_MAC_OFF);
	timer_setup(&x->timer, softirq_fn, 0);
	mod_timer(&x->timer, jiffies + 1);
	for (i = 0; i < 200; i++) {
		u8 nonce[NOISE_COOKIE_NONCE_LEN];
		u8 enc[NOISE_COOKIE_ENCRYPTED_LEN];

		noise_cookie_checker_rotate(&x->p->c);
		noise_cookie_checker_set_key(&x->p->c, OUR_LABEL_MAC1,
					     OUR_LABEL_COOKIE, x->p->pub,
					     sizeof(x->p->pub));
		noise_cookie_add_macs(&x->p->m, x->p->msg, WG_INIT_MAC_OFF);
		/* Races with the timer's messages: any outcome is fine. */
		if (!noise_cookie_reply_create(&x->p->c, x->p->msg,
					       WG_INIT_MAC_OFF, SA(x->src),
					       nonce, enc))
			noise_cookie_reply_consume(&x->p->m, nonce, enc);
		noise_ratelimiter_allow(x->rl, SA(x->src), NET_A);
		if (!(i % 20))
			msleep(20);
	}
	WRITE_ONCE(x->stop, true);
	del_timer_sync(&x->timer);
	kunit_info(test, "%d softirq runs, %d valid mac1, %d valid mac2\n",
		   atomic_read(&x->runs), atomic_read(&x->mac1),
		   atomic_read(&x->mac2));
	KUNIT_EXPECT_GT(test, atomic_read(&x->runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->mac1), atomic_read(&x->runs));
	pair_free(x->p);
	noise_ratelimiter_uninit(x->rl);
}

/* What the checks cost (debug kernel: KASAN and lockdep inflate it). */
struct cost_ctx {
	struct noise_cookie_checker *c;
	struct noise_ratelimiter *rl;
	struct sockaddr_in src;
	u8 bad[WG_INIT_LEN];
	u8 nonce[NOISE_COOKIE_NONCE_LEN], enc[NOISE_COOKIE_ENCRYPTED_LEN];
	u8 shared[CURVE25519_KEY_SIZE];
	unsigned int wrong;	/* results not as expected */
};

enum { COST_BAD_MAC1, COST_MAC2, COST_REPLY, COST_RL, COST_X25519, COST_N };
static const char * const cost_name[COST_N] = {
	"bad mac1", "mac1 + failing mac2", "cookie reply", "rate limiter hit",
	"X25519 (for scale)",
};

static void cost_op(struct cost_ctx *x, unsigned int op)
{
	switch (op) {
	case COST_BAD_MAC1:
		x->wrong += noise_cookie_validate(x->c, x->bad, WG_INIT_MAC_OFF,
						  SA(x->src), true) !=
			    NOISE_COOKIE_BAD_MAC1;
		break;
	case COST_MAC2:
		x->wrong += noise_cookie_validate(x->c, cv_init_cookie,
						  WG_INIT_MAC_OFF, SA(x->src),
						  true) !=
			    NOISE_COOKIE_VALID_MAC1;
		break;
	case COST_REPLY:
		x->wrong += !!noise_cookie_reply_create(x->c, cv_init_cookie,
							WG_INIT_MAC_OFF,
							SA(x->src), x->nonce,
							x->enc);
		break;
	case COST_RL:
		noise_ratelimiter_allow(x->rl, SA(x->src), NET_A);
		break;
	default:
		x->wrong += !curve25519(x->shared, cv_s_i_priv, cv_s_r_pub);
	}
}

static void cookie_test_cost(struct kunit *test)
{
	struct cost_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	unsigned int op, round, i, n;
	u64 best, t;

	KUNIT_ASSERT_NOT_NULL(test, x);
	x->c = checker_alloc(test);
	x->rl = rl_new(test, 64, 512);
	x->src = sin4("192.0.2.1", 51820);
	wg_checker(x->c, false);	/* random secret: mac2 fails */
	memcpy(x->bad, cv_init_nocookie, sizeof(x->bad));
	x->bad[WG_INIT_MAC_OFF] ^= 1;
	for (op = 0; op < COST_N; op++) {
		/* Short rounds, the best one: the host preempts UML at will. */
		n = op == COST_X25519 ? 2 : 50;
		best = U64_MAX;
		for (round = 0; round < 40; round++) {
			t = ktime_get_ns();
			for (i = 0; i < n; i++)
				cost_op(x, op);
			best = min(best, ktime_get_ns() - t);
			cond_resched();
		}
		kunit_info(test, "%s: %llu ns per call (best of 40 x %u)\n",
			   cost_name[op], best / n, n);
	}
	KUNIT_EXPECT_EQ(test, x->wrong, 0);
	memzero_explicit(x->shared, sizeof(x->shared));
	noise_cookie_checker_uninit(x->c);
	noise_ratelimiter_uninit(x->rl);
}

/*
 * The receive decision (noise_cookie_admit), what receive.c does with every
 * handshake message to a responder: the pair's checker plays the device.
 */
static enum noise_cookie_admission admit(struct cookie_pair *p,
					 struct noise_ratelimiter *rl,
					 const struct sockaddr *src,
					 bool under_load)
{
	return noise_cookie_admit(&p->c, rl, p->msg, WG_INIT_MAC_OFF, src,
				  NET_A, under_load);
}

/* Not under load: a valid mac1 goes on, no cookie reply, no rate limit. */
static void admit_test_not_under_load(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in src = sin4("198.51.100.20", 51820);
	struct cookie_pair *p = pair_new(test);
	unsigned int i, ok = 0;

	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);
	for (i = 0; i < 4 * NOISE_RATELIMIT_BURST; i++)
		ok += admit(p, rl, SA(src), false) == NOISE_ADMIT_OK;
	KUNIT_EXPECT_EQ(test, ok, 4 * NOISE_RATELIMIT_BURST);
	/* The rate limiter was never asked: the source is still unknown. */
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 0);
	/* A bad mac1 is refused either way. */
	p->msg[0] ^= 1;
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), false), NOISE_ADMIT_BAD_MAC1);
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), true), NOISE_ADMIT_BAD_MAC1);
	pair_free(p);
	noise_ratelimiter_uninit(rl);
}

/* Under load, mac2 zero, wrong, or of another source: a cookie reply. */
static void admit_test_cookie_under_load(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in src = sin4("198.51.100.21", 51820);
	struct sockaddr_in other = sin4("198.51.100.22", 51820);
	struct cookie_pair *p = pair_new(test);

	noise_cookie_add_macs(&p->m, p->msg, WG_INIT_MAC_OFF);	/* mac2 zero */
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), true), NOISE_ADMIT_SEND_COOKIE);
	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(other), true), NOISE_ADMIT_SEND_COOKIE);
	p->msg[WG_INIT_MAC_OFF + NOISE_COOKIE_MAC_LEN] ^= 0x80;	/* mac2 */
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), true), NOISE_ADMIT_SEND_COOKIE);
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 0);
	pair_free(p);
	noise_ratelimiter_uninit(rl);
}

/* Under load with the right mac2: accepted (and the source is counted). */
static void admit_test_valid_mac2(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in6 src = sin6("2001:db8:5::1", 4500);
	struct cookie_pair *p = pair_new(test);

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), true), NOISE_ADMIT_OK_MAC2);
	KUNIT_EXPECT_EQ(test, atomic_read(&rl->entries), 1);
	/* Not under load the same message goes on too. */
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), false), NOISE_ADMIT_OK);
	pair_free(p);
	noise_ratelimiter_uninit(rl);
}

/* Under load, valid mac2: the burst passes, then the source is limited. */
static void admit_test_ratelimited(struct kunit *test)
{
	struct noise_ratelimiter *rl = rl_new(test, 16, 128);
	struct sockaddr_in src = sin4("198.51.100.23", 51820);
	struct sockaddr_in other = sin4("198.51.100.24", 51820);
	struct cookie_pair *p = pair_new(test);
	unsigned int i, ok = 0, limited = 0;

	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(src)));
	for (i = 0; i < 3 * NOISE_RATELIMIT_BURST; i++) {
		switch (admit(p, rl, SA(src), true)) {
		case NOISE_ADMIT_OK_MAC2:
			ok++;
			break;
		case NOISE_ADMIT_RATELIMITED:
			limited++;
			break;
		default:
			break;
		}
	}
	/* 15 tries in far less than 50 ms: the burst, at most one refill. */
	KUNIT_EXPECT_GE(test, ok, NOISE_RATELIMIT_BURST);
	KUNIT_EXPECT_LE(test, ok, NOISE_RATELIMIT_BURST + 1);
	KUNIT_EXPECT_EQ(test, ok + limited, 3 * NOISE_RATELIMIT_BURST);
	/* Not under load the limiter does not apply. */
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(src), false), NOISE_ADMIT_OK);
	/* Another source has its own bucket (its mac2 needs its own cookie). */
	KUNIT_ASSERT_TRUE(test, pair_get_cookie(test, p, SA(other)));
	KUNIT_EXPECT_EQ(test, admit(p, rl, SA(other), true), NOISE_ADMIT_OK_MAC2);
	pair_free(p);
	noise_ratelimiter_uninit(rl);
}

/* Our even messages: mac1 keyed by the sender's key, checked on its maker. */
static void admit_test_sender_keyed(struct kunit *test)
{
	struct cookie_pair *p = pair_new(test);
	u8 zero[NOISE_COOKIE_MAC_LEN] = { };
	unsigned int i;

	noise_cookie_checker_add_mac1(&p->c, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_TRUE(test, noise_cookie_maker_mac1_ok(&p->m, p->msg,
							   WG_INIT_MAC_OFF));
	KUNIT_EXPECT_MEMEQ(test, p->msg + WG_INIT_MAC_OFF + NOISE_COOKIE_MAC_LEN,
			   zero, NOISE_COOKIE_MAC_LEN);
	/* The same mac1 the maker writes (one construction). */
	KUNIT_EXPECT_EQ(test, noise_cookie_validate(&p->c, p->msg, WG_INIT_MAC_OFF,
						    NULL, false),
			NOISE_COOKIE_VALID_MAC1);
	for (i = 0; i < WG_INIT_MAC_OFF + NOISE_COOKIE_MAC_LEN; i += 7) {
		bool ok;

		p->msg[i] ^= 4;
		ok = noise_cookie_maker_mac1_ok(&p->m, p->msg, WG_INIT_MAC_OFF);
		KUNIT_EXPECT_FALSE_MSG(test, ok, "byte %u", i);
		p->msg[i] ^= 4;
	}
	/* A checker without a key writes zero MACs, which nothing accepts. */
	noise_cookie_checker_uninit(&p->c);
	noise_cookie_checker_add_mac1(&p->c, p->msg, WG_INIT_MAC_OFF);
	KUNIT_EXPECT_MEMEQ(test, p->msg + WG_INIT_MAC_OFF, zero, NOISE_COOKIE_MAC_LEN);
	KUNIT_EXPECT_FALSE(test, noise_cookie_maker_mac1_ok(&p->m, p->msg,
							    WG_INIT_MAC_OFF));
	pair_free(p);
}

static struct kunit_case cookie_test_cases[] = {
	KUNIT_CASE(cookie_test_wg_keys),
	KUNIT_CASE(cookie_test_wg_mac1_initiation),
	KUNIT_CASE(cookie_test_wg_mac1_response),
	KUNIT_CASE(cookie_test_bad_mac1),
	KUNIT_CASE(cookie_test_wg_cookie_mac2),
	KUNIT_CASE(cookie_test_wg_reply_bytes),
	KUNIT_CASE(cookie_test_wg_consume),
	KUNIT_CASE(cookie_test_round_trip),
	KUNIT_CASE(cookie_test_hfs_length),
	KUNIT_CASE(cookie_test_tampered_reply),
	KUNIT_CASE(cookie_test_wrong_source),
	KUNIT_CASE(cookie_test_rotation),
	KUNIT_CASE(cookie_test_maker_expiry),
	KUNIT_CASE(cookie_test_softirq),
	KUNIT_CASE(cookie_test_cost),
	{}
};

static struct kunit_suite cookie_test_suite = {
	.name = "noise_cookie",
	.test_cases = cookie_test_cases,
};

static struct kunit_case rl_test_cases[] = {
	KUNIT_CASE(rl_test_burst_refill),
	KUNIT_CASE(rl_test_prefixes),
	KUNIT_CASE(rl_test_many_sources),
	KUNIT_CASE(rl_test_gc),
	KUNIT_CASE(rl_test_default_size),
	{}
};

static struct kunit_suite rl_test_suite = {
	.name = "noise_ratelimiter",
	.test_cases = rl_test_cases,
};

static struct kunit_case admit_test_cases[] = {
	KUNIT_CASE(admit_test_not_under_load),
	KUNIT_CASE(admit_test_cookie_under_load),
	KUNIT_CASE(admit_test_valid_mac2),
	KUNIT_CASE(admit_test_ratelimited),
	KUNIT_CASE(admit_test_sender_keyed),
	{}
};

static struct kunit_suite admit_test_suite = {
	.name = "noise_cookie_admit",
	.test_cases = admit_test_cases,
};

kunit_test_suites(&cookie_test_suite, &rl_test_suite, &admit_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the noise tunnel's MACs, cookies and rate limiter");
