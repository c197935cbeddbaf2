// SPDX-License-Identifier: GPL-2.0
/*
 * The pool of retired transport cipher states. A session's two states
 * cost more to make and to free than to key: each holds a crypto API
 * transform (rfc7539 with a chacha20 child of its own), allocated with
 * the state and destroyed with it. A freed state comes here instead, and
 * the next state of the same cipher takes it and only sets its key.
 *
 * Nothing secret stays in the pool: before a state is kept, its transform
 * is re-keyed with 32 zero bytes (setkey replaces every key-derived value
 * an AEAD driver holds), and the state with its requests (nonces, the
 * request contexts of the last operations, Rekey's scratch) is wiped. A
 * state whose re-key fails is freed. At most NOISE_CIPHER_POOL_MAX states
 * per cipher are kept; the rest are freed as before.
 *
 * A kept transform holds its driver (and the driver's module), and keeps
 * the driver chosen when it was made. So nothing stays long: a state
 * unused for NOISE_CIPHER_POOL_IDLE is freed by a delayed work (the pool
 * of an idle tunnel empties, and the crypto modules can be unloaded), and
 * a transform older than NOISE_CIPHER_TFM_MAX_AGE is not kept (a driver
 * registered later is used within that time, even under constant
 * handshakes). Module exit empties the pool (noise_cipher_pool_drain()).
 *
 * Locking: noise_cipher_pool.lock, a leaf spinlock taken in process
 * context only (both ends may sleep), guards the lists and counts.
 */

#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "cipher.h"
#include "noise_internal.h"

static struct {
	spinlock_t lock;	/* guards the lists and counts */
	struct noise_cipher *head[NOISE_CIPHER_COUNT];
	unsigned int count[NOISE_CIPHER_COUNT];
	unsigned long idle, max_age;	/* in jiffies */
} noise_cipher_pool = {
	.lock = __SPIN_LOCK_UNLOCKED(noise_cipher_pool.lock),
	.idle = NOISE_CIPHER_POOL_IDLE,
	.max_age = NOISE_CIPHER_TFM_MAX_AGE,
};

static void noise_cipher_pool_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(noise_cipher_pool_reaper, noise_cipher_pool_reap);

static void noise_cipher_free_list(struct noise_cipher *c)
{
	struct noise_cipher *next;

	for (; c; c = next) {
		next = c->pool_next;
		noise_cipher_destroy(c);
	}
}

/* Detach, under the lock, the states of @id kept since before @cutoff. */
static struct noise_cipher *noise_cipher_pool_cut(int id, unsigned long cutoff)
{
	struct noise_cipher **pp = &noise_cipher_pool.head[id], *old;
	unsigned int kept = 0;

	lockdep_assert_held(&noise_cipher_pool.lock);
	/* Most recent first: the first one too old starts the old tail. */
	while (*pp && time_after_eq((*pp)->pooled, cutoff)) {
		pp = &(*pp)->pool_next;
		kept++;
	}
	old = *pp;
	*pp = NULL;
	noise_cipher_pool.count[id] = kept;
	return old;
}

/* Free the states unused for the idle time; again later while any is left. */
static void noise_cipher_pool_reap(struct work_struct *work)
{
	struct noise_cipher *old[NOISE_CIPHER_COUNT];
	unsigned long idle;
	bool left = false;
	int id;

	spin_lock(&noise_cipher_pool.lock);
	idle = noise_cipher_pool.idle;
	for (id = 0; id < NOISE_CIPHER_COUNT; id++) {
		old[id] = noise_cipher_pool_cut(id, jiffies - idle);
		left |= noise_cipher_pool.count[id];
	}
	spin_unlock(&noise_cipher_pool.lock);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++)
		noise_cipher_free_list(old[id]);
	if (left)
		queue_delayed_work(system_unbound_wq, &noise_cipher_pool_reaper, idle);
}

atomic_t noise_stat_reuses = ATOMIC_INIT(0);
EXPORT_SYMBOL_NS_GPL(noise_stat_reuses, NOISE_INTERNAL);

/**
 * noise_cipher_pool_get() - a retired state of cipher @id, laid out anew.
 * @id: the cipher.
 *
 * Context: process context.
 * Return: the state, its transform keyed with zeros and its memory zeroed
 * but for the layout, or NULL if the pool has none.
 */
struct noise_cipher *noise_cipher_pool_get(enum noise_cipher_id id)
{
	struct noise_cipher *c;

	spin_lock(&noise_cipher_pool.lock);
	c = noise_cipher_pool.head[id];
	if (c) {
		noise_cipher_pool.head[id] = c->pool_next;
		noise_cipher_pool.count[id]--;
	}
	spin_unlock(&noise_cipher_pool.lock);
	if (!c)
		return NULL;
	c->pool_next = NULL;
	c->pooled = 0;
	noise_cipher_layout(c, id, c->tfm, c->nreqs);
	atomic_inc(&noise_stat_reuses);
	return c;
}

/**
 * noise_cipher_pool_put() - wipe a state and keep it, if there is room.
 * @c: the state; no operation in flight on it.
 *
 * Context: process context, may sleep (setkey).
 * Return: true if the pool took @c; false if the caller must free it (the
 * pool is full, the transform is too old, or the re-key failed). Either
 * way @c's transform stays valid for noise_cipher_destroy(); a kept state
 * holds only its transform, cipher, request count and times, and is laid
 * out again when taken.
 */
bool noise_cipher_pool_put(struct noise_cipher *c)
{
	static const u8 zeros[NOISE_KEY_LEN];
	struct crypto_aead *tfm = c->tfm;
	unsigned int nreqs = c->nreqs;
	enum noise_cipher_id id = c->id;
	unsigned long born = c->born;
	bool kept = false;

	if (READ_ONCE(noise_cipher_pool.count[id]) >= NOISE_CIPHER_POOL_MAX ||
	    time_after_eq(jiffies, born + READ_ONCE(noise_cipher_pool.max_age)) ||
	    crypto_aead_setkey(tfm, zeros, NOISE_KEY_LEN))
		return false;
	memzero_explicit(c, noise_cipher_size(tfm, nreqs));
	/* What noise_cipher_destroy() and noise_cipher_pool_get() need. */
	c->tfm = tfm;
	c->id = id;
	c->nreqs = nreqs;
	c->born = born;
	c->pooled = jiffies;
	spin_lock(&noise_cipher_pool.lock);
	if (noise_cipher_pool.count[id] < NOISE_CIPHER_POOL_MAX) {
		c->pool_next = noise_cipher_pool.head[id];
		noise_cipher_pool.head[id] = c;
		noise_cipher_pool.count[id]++;
		kept = true;
	}
	spin_unlock(&noise_cipher_pool.lock);
	/* Already queued (the common case): a test of its pending bit. */
	if (kept)
		queue_delayed_work(system_unbound_wq, &noise_cipher_pool_reaper,
				   READ_ONCE(noise_cipher_pool.idle));
	return kept;
}

/**
 * noise_cipher_pool_drain() - free every state in the pool.
 *
 * At module exit; and where a new AEAD driver must be used at once, or
 * one is to be unregistered (a test's): the pool's transforms hold theirs.
 * Context: process context, may sleep.
 */
void noise_cipher_pool_drain(void)
{
	struct noise_cipher *list[NOISE_CIPHER_COUNT];
	int id;

	cancel_delayed_work_sync(&noise_cipher_pool_reaper);
	spin_lock(&noise_cipher_pool.lock);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++) {
		list[id] = noise_cipher_pool.head[id];
		noise_cipher_pool.head[id] = NULL;
		noise_cipher_pool.count[id] = 0;
	}
	spin_unlock(&noise_cipher_pool.lock);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++)
		noise_cipher_free_list(list[id]);
}
EXPORT_SYMBOL_NS_GPL(noise_cipher_pool_drain, NOISE_INTERNAL);

/**
 * noise_cipher_pooled() - how many states of cipher @id the pool keeps.
 * @id: the cipher.
 * @next: if not NULL, set to the transform of the state the next
 *	noise_cipher_new() of @id takes (NULL if none). Only for looking at
 *	while nothing else makes or frees states of @id.
 *
 * Context: process context.
 * Return: the count.
 */
unsigned int noise_cipher_pooled(enum noise_cipher_id id, struct crypto_aead **next)
{
	unsigned int n;

	spin_lock(&noise_cipher_pool.lock);
	n = noise_cipher_pool.count[id];
	if (next)
		*next = n ? noise_cipher_pool.head[id]->tfm : NULL;
	spin_unlock(&noise_cipher_pool.lock);
	return n;
}
EXPORT_SYMBOL_NS_GPL(noise_cipher_pooled, NOISE_INTERNAL);

#ifdef NOISE_TESTING
/**
 * noise_cipher_pool_set_ages_for_testing() - change the pool's times.
 * @idle: jiffies a state may stay unused (default NOISE_CIPHER_POOL_IDLE).
 * @max_age: jiffies a transform may live to be kept (default
 *	NOISE_CIPHER_TFM_MAX_AGE).
 *
 * Context: process context.
 */
void noise_cipher_pool_set_ages_for_testing(unsigned long idle, unsigned long max_age)
{
	spin_lock(&noise_cipher_pool.lock);
	WRITE_ONCE(noise_cipher_pool.idle, idle);
	WRITE_ONCE(noise_cipher_pool.max_age, max_age);
	spin_unlock(&noise_cipher_pool.lock);
	mod_delayed_work(system_unbound_wq, &noise_cipher_pool_reaper, idle);
}
EXPORT_SYMBOL_NS_GPL(noise_cipher_pool_set_ages_for_testing, NOISE_INTERNAL);
#endif
