/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-source rate limiter for handshake work: a token bucket per IPv4
 * address and per IPv6 /64, in a bounded hash table with a random siphash
 * key. One per device. See Documentation/cookies.rst.
 */
#ifndef _NOISE_TUNNEL_RATELIMITER_H
#define _NOISE_TUNNEL_RATELIMITER_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/time64.h>

struct net;
struct sockaddr;

/* 20 handshakes per second per source, bursts of 5 (WireGuard's values). */
#define NOISE_RATELIMIT_PER_SECOND	20
#define NOISE_RATELIMIT_BURST		5
#define NOISE_RATELIMIT_COST		(NSEC_PER_SEC / NOISE_RATELIMIT_PER_SECOND)
/* A source idle this long has a full bucket again and is forgotten. */
#define NOISE_RATELIMIT_IDLE		NSEC_PER_SEC
#define NOISE_RATELIMIT_GC_INTERVAL	HZ
#define NOISE_RATELIMIT_MIN_BUCKETS	64
#define NOISE_RATELIMIT_MAX_BUCKETS	4096
#define NOISE_RATELIMIT_PER_BUCKET	8	/* entries per bucket, at most */

struct noise_ratelimiter {
	struct hlist_head *table;	/* RCU readers; @lock for writers */
	unsigned int mask;		/* buckets - 1 */
	unsigned int max_entries;
	atomic_t entries;
	spinlock_t lock;		/* insertion and GC; BH disabled */
	hsiphash_key_t key;
	struct delayed_work gc;
#if IS_ENABLED(CONFIG_KUNIT)
	s64 test_clock_offset;		/* KUnit only: added to the clock */
#endif
};

int noise_ratelimiter_init(struct noise_ratelimiter *rl);
void noise_ratelimiter_uninit(struct noise_ratelimiter *rl);
bool noise_ratelimiter_allow(struct noise_ratelimiter *rl,
			     const struct sockaddr *src, const struct net *net);

#endif /* _NOISE_TUNNEL_RATELIMITER_H */
