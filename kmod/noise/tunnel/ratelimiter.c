// SPDX-License-Identifier: GPL-2.0
/*
 * Per-source rate limiter for handshake work.
 *
 * A source is an IPv4 address or an IPv6 /64 (a v4-mapped IPv6 address is
 * its IPv4 address): one host or site usually holds a whole /64, so a
 * finer key would give it 2^64 buckets to rotate through.
 *
 * Each source has one u64, its theoretical arrival time (GCRA, the
 * token bucket written as a time): a packet at @now is allowed when
 * max(tat, now) + cost - now <= burst * cost, and then tat = max(tat, now)
 * + cost. That is one cmpxchg, so the fast path (RCU lookup, cmpxchg) takes
 * no lock. Insertion of a new source takes the table lock (BH disabled) and
 * allocates with GFP_ATOMIC, bounded by max_entries; a full table refuses
 * new sources. A deferrable work removes sources idle for a second (their
 * bucket is full again, so forgetting them changes nothing); it is queued
 * by the first insertion and requeues itself while entries remain.
 */
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/timekeeping.h>
#include <net/ipv6.h>

#include "tunnel/ratelimiter.h"

#define NOISE_RATELIMIT_TOLERANCE					\
	((NOISE_RATELIMIT_BURST - 1) * NOISE_RATELIMIT_COST)

struct noise_rl_entry {
	struct hlist_node node;
	const struct net *net;
	u64 prefix;		/* IPv4 address or IPv6 /64, network order */
	atomic64_t tat;		/* boottime ns */
	sa_family_t family;
	struct rcu_head rcu;
};

static u64 rl_now(const struct noise_ratelimiter *rl)
{
	u64 now = ktime_get_coarse_boottime_ns();

#if IS_ENABLED(CONFIG_KUNIT)
	now += rl->test_clock_offset;
#endif
	return now;
}

/* Reduce @src to (family, prefix); false for other families. */
static bool rl_source(const struct sockaddr *src, sa_family_t *family,
		      u64 *prefix)
{
	const struct sockaddr_in6 *sin6;
	const struct sockaddr_in *sin;

	switch (src->sa_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)src;
		*family = AF_INET;
		*prefix = (__force u32)sin->sin_addr.s_addr;
		return true;
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)src;
		if (ipv6_addr_v4mapped(&sin6->sin6_addr)) {
			*family = AF_INET;
			*prefix = (__force u32)sin6->sin6_addr.s6_addr32[3];
		} else {
			*family = AF_INET6;
			memcpy(prefix, sin6->sin6_addr.s6_addr, sizeof(*prefix));
		}
		return true;
	default:
		return false;
	}
}

static struct hlist_head *rl_bucket(struct noise_ratelimiter *rl,
				    const struct net *net, sa_family_t family,
				    u64 prefix)
{
	u32 h = hsiphash_4u32((u32)(unsigned long)net, family,
			      (u32)(prefix >> 32), (u32)prefix, &rl->key);

	return &rl->table[h & rl->mask];
}

/* One packet from the source of @e at @now: allowed? */
static bool rl_take(struct noise_rl_entry *e, u64 now)
{
	s64 old = atomic64_read(&e->tat), t;

	do {
		t = max_t(s64, old, now);
		if (t - (s64)now > NOISE_RATELIMIT_TOLERANCE)
			return false;
	} while (!atomic64_try_cmpxchg(&e->tat, &old,
				       t + NOISE_RATELIMIT_COST));
	return true;
}

static struct noise_rl_entry *rl_find(struct hlist_head *bucket,
				      const struct net *net,
				      sa_family_t family, u64 prefix)
{
	struct noise_rl_entry *e;

	hlist_for_each_entry_rcu(e, bucket, node) {
		if (e->prefix == prefix && e->net == net &&
		    e->family == family)
			return e;
	}
	return NULL;
}

bool noise_ratelimiter_allow(struct noise_ratelimiter *rl,
			     const struct sockaddr *src, const struct net *net)
{
	struct noise_rl_entry *e, *found;
	struct hlist_head *bucket;
	sa_family_t family;
	u64 prefix, now;
	bool ret = false;

	if (!rl_source(src, &family, &prefix))
		return false;
	bucket = rl_bucket(rl, net, family, prefix);
	now = rl_now(rl);

	rcu_read_lock();
	e = rl_find(bucket, net, family, prefix);
	if (likely(e)) {
		ret = rl_take(e, now);
		goto out;
	}

	/* A new source: bounded, and refused when the table is full. */
	if (atomic_inc_return(&rl->entries) > rl->max_entries)
		goto out_dec;
	e = kmalloc(sizeof(*e), GFP_ATOMIC | __GFP_NOWARN);
	if (unlikely(!e))
		goto out_dec;
	e->net = net;
	e->prefix = prefix;
	e->family = family;
	atomic64_set(&e->tat, now + NOISE_RATELIMIT_COST);

	spin_lock_bh(&rl->lock);
	found = rl_find(bucket, net, family, prefix);	/* lost a race? */
	if (!found)
		hlist_add_head_rcu(&e->node, bucket);
	spin_unlock_bh(&rl->lock);
	if (found) {
		kfree(e);
		atomic_dec(&rl->entries);
		ret = rl_take(found, now);
		goto out;
	}
	queue_delayed_work(system_power_efficient_wq, &rl->gc,
			   NOISE_RATELIMIT_GC_INTERVAL);
	ret = true;
	goto out;

out_dec:
	atomic_dec(&rl->entries);
out:
	rcu_read_unlock();
	return ret;
}

/* Remove the entries idle at @now (all of them if @all). */
static void rl_sweep(struct noise_ratelimiter *rl, u64 now, bool all)
{
	struct noise_rl_entry *e;
	struct hlist_node *tmp;
	unsigned int i;

	for (i = 0; i <= rl->mask; i++) {
		spin_lock_bh(&rl->lock);
		hlist_for_each_entry_safe(e, tmp, &rl->table[i], node) {
			if (all || (s64)(now - atomic64_read(&e->tat)) >
				   (s64)NOISE_RATELIMIT_IDLE) {
				hlist_del_rcu(&e->node);
				kfree_rcu(e, rcu);
				atomic_dec(&rl->entries);
			}
		}
		spin_unlock_bh(&rl->lock);
		if (!all && !(i & 63))
			cond_resched();
	}
}

static void rl_gc(struct work_struct *work)
{
	struct noise_ratelimiter *rl = container_of(to_delayed_work(work),
						    struct noise_ratelimiter,
						    gc);

	rl_sweep(rl, rl_now(rl), false);
	if (atomic_read(&rl->entries))
		queue_delayed_work(system_power_efficient_wq, &rl->gc,
				   NOISE_RATELIMIT_GC_INTERVAL);
}

static int rl_init_sized(struct noise_ratelimiter *rl, unsigned int buckets,
			 unsigned int max_entries)
{
	memset(rl, 0, sizeof(*rl));
	rl->table = kvcalloc(buckets, sizeof(*rl->table), GFP_KERNEL);
	if (!rl->table)
		return -ENOMEM;
	rl->mask = buckets - 1;
	rl->max_entries = max_entries;
	atomic_set(&rl->entries, 0);
	spin_lock_init(&rl->lock);
	get_random_bytes(&rl->key, sizeof(rl->key));
	INIT_DEFERRABLE_WORK(&rl->gc, rl_gc);
	return 0;
}

/*
 * One bucket per MiB of RAM, a power of two in [64, 4096], 8 entries per
 * bucket: at most 32768 sources (about 2 MiB) per device.
 */
int noise_ratelimiter_init(struct noise_ratelimiter *rl)
{
	unsigned long mib = totalram_pages() >> (20 - PAGE_SHIFT);
	unsigned int buckets;

	buckets = clamp_t(unsigned long, mib, NOISE_RATELIMIT_MIN_BUCKETS,
			  NOISE_RATELIMIT_MAX_BUCKETS);
	buckets = rounddown_pow_of_two(buckets);
	return rl_init_sized(rl, buckets, buckets * NOISE_RATELIMIT_PER_BUCKET);
}

void noise_ratelimiter_uninit(struct noise_ratelimiter *rl)
{
	cancel_delayed_work_sync(&rl->gc);
	rl_sweep(rl, 0, true);
	synchronize_rcu();	/* no reader left in the table */
	kvfree(rl->table);
	rl->table = NULL;
}
