// SPDX-License-Identifier: GPL-2.0
/*
 * Replay window for explicit-nonce transports (rev 34 section 11.4), in the
 * manner of RFC 6479 and WireGuard's counter_validate(): a ring of
 * NOISE_REPLAY_BITS bits, one per nonce, of which the word holding the
 * newest nonce is being filled, so NOISE_REPLAY_WINDOW nonces below the
 * newest are remembered exactly. Moving forward clears whole words, never
 * more than the ring. A receiver calls noise_replay_check() before
 * decrypting (cheap, lockless, may let a replay through) and
 * noise_replay_update() after the message authenticated (authoritative:
 * exactly one of several copies of a nonce passes).
 */

#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include "noise.h"

#define NOISE_REPLAY_WORDS (NOISE_REPLAY_BITS / BITS_PER_LONG)

/**
 * noise_replay_init() - an empty window: every nonce is new.
 * @r: the window.
 *
 * Context: any.
 */
void noise_replay_init(struct noise_replay *r)
{
	spin_lock_init(&r->lock);
	r->top = 0;
	memset(r->bits, 0, sizeof(r->bits));
}
EXPORT_SYMBOL_GPL(noise_replay_init);

/* Bit and word of nonce n (counted as n + 1, 0 meaning "none yet"). */
static unsigned long *noise_replay_word(unsigned long *bits, u64 c)
{
	return &bits[(c / BITS_PER_LONG) & (NOISE_REPLAY_WORDS - 1)];
}

/**
 * noise_replay_check() - may nonce @n be new? (before authentication)
 * @r: the window.
 * @n: the nonce of a received message.
 *
 * Lockless on 64-bit (it takes the lock on 32-bit, where a 64-bit read is
 * not atomic). A true answer is not final: a concurrent update may accept
 * @n first; noise_replay_update() decides after authentication. Use it to
 * drop replays and stale messages before spending a decryption on them.
 * Context: any (the lock is taken with spin_lock_bh() on 32-bit).
 * Return: false if @n is 2^64-1, older than the window, or already
 * accepted; true otherwise.
 */
bool noise_replay_check(const struct noise_replay *r, u64 n)
{
	u64 top, c = n + 1;
	bool seen;

	if (n == U64_MAX)
		return false;
#if BITS_PER_LONG == 64
	top = READ_ONCE(r->top);
	if (c > top)
		return true;
	if (top - c >= NOISE_REPLAY_WINDOW)
		return false;
	seen = test_bit(c % BITS_PER_LONG,
			noise_replay_word((unsigned long *)r->bits, c));
	return !seen;
#else
	spin_lock_bh((spinlock_t *)&r->lock);
	top = r->top;
	seen = c <= top && (top - c >= NOISE_REPLAY_WINDOW ||
			    test_bit(c % BITS_PER_LONG,
				     noise_replay_word((unsigned long *)r->bits, c)));
	spin_unlock_bh((spinlock_t *)&r->lock);
	return !seen;
#endif
}
EXPORT_SYMBOL_GPL(noise_replay_check);

/**
 * noise_replay_update() - accept nonce @n (after authentication).
 * @r: the window.
 * @n: the nonce of a message that authenticated.
 *
 * Marks @n seen and moves the window forward if @n is the newest. Takes
 * @r->lock with spin_lock_bh(): call it from process or softirq context,
 * not with the lock held or in hard-irq.
 * Return: true if @n was new (deliver the message); false if it was
 * already accepted, is older than the window, or is 2^64-1 (drop it).
 */
bool noise_replay_update(struct noise_replay *r, u64 n)
{
	u64 c = n + 1, i, words;
	bool ok = false;

	if (n == U64_MAX)
		return false;
	spin_lock_bh(&r->lock);
	if (c <= r->top && r->top - c >= NOISE_REPLAY_WINDOW)
		goto out;
	if (c > r->top) {
		/* Clear the words between the old newest and the new one. */
		words = min_t(u64, c / BITS_PER_LONG - r->top / BITS_PER_LONG,
			      NOISE_REPLAY_WORDS);
		for (i = 1; i <= words; i++)
			*noise_replay_word(r->bits, r->top + i * BITS_PER_LONG) = 0;
		WRITE_ONCE(r->top, c);
	}
	ok = !__test_and_set_bit(c % BITS_PER_LONG, noise_replay_word(r->bits, c));
out:
	spin_unlock_bh(&r->lock);
	return ok;
}
EXPORT_SYMBOL_GPL(noise_replay_update);
