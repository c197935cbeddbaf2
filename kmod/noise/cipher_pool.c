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
 * per cipher are kept; the rest are freed as before. Module exit empties
 * the pool (noise_cipher_pool_drain()).
 *
 * Locking: noise_cipher_pool.lock, a leaf spinlock taken in process
 * context only (both ends may sleep), guards the lists and counts.
 */

#include <linux/export.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "cipher.h"
#include "noise_internal.h"

static struct {
	spinlock_t lock;	/* guards the lists and counts */
	struct noise_cipher *head[NOISE_CIPHER_COUNT];
	unsigned int count[NOISE_CIPHER_COUNT];
} noise_cipher_pool = {
	.lock = __SPIN_LOCK_UNLOCKED(noise_cipher_pool.lock),
};

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
 * pool is full, or the re-key failed). Either way @c's transform and
 * layout stay valid for noise_cipher_destroy().
 */
bool noise_cipher_pool_put(struct noise_cipher *c)
{
	static const u8 zeros[NOISE_KEY_LEN];
	struct crypto_aead *tfm = c->tfm;
	unsigned int nreqs = c->nreqs;
	enum noise_cipher_id id = c->id;
	bool kept = false;

	if (READ_ONCE(noise_cipher_pool.count[id]) >= NOISE_CIPHER_POOL_MAX ||
	    crypto_aead_setkey(tfm, zeros, NOISE_KEY_LEN))
		return false;
	memzero_explicit(c, noise_cipher_size(tfm, nreqs));
	noise_cipher_layout(c, id, tfm, nreqs);
	spin_lock(&noise_cipher_pool.lock);
	if (noise_cipher_pool.count[id] < NOISE_CIPHER_POOL_MAX) {
		c->pool_next = noise_cipher_pool.head[id];
		noise_cipher_pool.head[id] = c;
		noise_cipher_pool.count[id]++;
		kept = true;
	}
	spin_unlock(&noise_cipher_pool.lock);
	return kept;
}

/**
 * noise_cipher_pool_drain() - free every state in the pool.
 *
 * Context: process context, may sleep (module exit).
 */
void noise_cipher_pool_drain(void)
{
	struct noise_cipher *list[NOISE_CIPHER_COUNT], *c, *next;
	int id;

	spin_lock(&noise_cipher_pool.lock);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++) {
		list[id] = noise_cipher_pool.head[id];
		noise_cipher_pool.head[id] = NULL;
		noise_cipher_pool.count[id] = 0;
	}
	spin_unlock(&noise_cipher_pool.lock);
	for (id = 0; id < NOISE_CIPHER_COUNT; id++) {
		for (c = list[id]; c; c = next) {
			next = c->pool_next;
			noise_cipher_destroy(c);
		}
	}
}

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
