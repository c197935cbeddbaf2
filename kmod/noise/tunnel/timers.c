// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the per-peer timers, the state machine of
 * Documentation/timers.rst (constants in messages.h).
 *
 * - retransmit: a handshake message we sent got no answer: hs_work resends
 *   it (1 s + jitter), starts over after NOISE_HS_MAX_RETRANSMITS, and
 *   gives up when nothing asked for a handshake for REKEY_ATTEMPT_TIME;
 * - keepalive (passive): we received data and sent nothing for
 *   KEEPALIVE_TIMEOUT: send an empty message;
 * - new_handshake: we sent data and heard nothing for KEEPALIVE_TIMEOUT +
 *   REKEY_TIMEOUT (+ jitter): the session may be dead, handshake again;
 * - persistent: keepalive_interval seconds without any packet either way:
 *   a keepalive;
 * - zero_keys: ZERO_KEYS_AFTER (3 * REJECT_AFTER_TIME) after the last
 *   session was made (or a handshake was given up), every session and the
 *   handshake state are dropped and wiped.
 */

#include <linux/cache.h>
#include <linux/moduleparam.h>
#include <linux/prefetch.h>
#include <linux/random.h>
#include <linux/timer.h>
#include "device.h"
#include "peer.h"
#include "send.h"
#include "timers.h"

/*
 * Test only: divide the session lifetimes and idle times by this (1..3600),
 * so that selftests see rekeys, rejections and zeroing in seconds
 * (Documentation/timers.rst). 1 (the default) means the real values.
 */
unsigned int noise_time_scale = 1;

static int noise_time_scale_set(const char *val, const struct kernel_param *kp)
{
	int err = param_set_uint_minmax(val, kp, 1, NOISE_MAX_TIME_SCALE);

	if (!err && READ_ONCE(noise_time_scale) != 1)
		pr_warn_once("noise: debug_time_scale=%u: session lifetimes shortened, for tests only\n",
			     READ_ONCE(noise_time_scale));
	return err;
}

static const struct kernel_param_ops noise_time_scale_ops = {
	.set = noise_time_scale_set,
	.get = param_get_uint,
};

module_param_cb(debug_time_scale, &noise_time_scale_ops, &noise_time_scale, 0644);
MODULE_PARM_DESC(debug_time_scale,
		 "TEST ONLY: divide rekey/reject/keepalive/zeroing times by this (1..3600; 1: real)");

static bool noise_timers_live(struct noise_peer *peer)
{
	return !READ_ONCE(peer->dead) && netif_running(peer->nd->dev);
}

static void noise_mod(struct noise_peer *peer, struct timer_list *t, unsigned long d)
{
	if (noise_timers_live(peer))
		mod_timer(t, jiffies + d);
}

static void noise_t_retransmit(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_retransmit);

	noise_peer_queue_hs_work(peer);
}

static void noise_t_keepalive(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_keepalive);

	noise_send_keepalive(peer);
}

static void noise_t_new_handshake(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_new_handshake);

	noise_peer_want_handshake(peer);
}

static void noise_t_persistent(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_persistent);

	if (READ_ONCE(peer->keepalive_interval))
		noise_send_keepalive(peer);
}

/* The sessions go now; the handshake state from hs_work (hs_lock). */
static void noise_t_zero_keys(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_zero_keys);

	noise_keypairs_clear(peer);
	set_bit(NOISE_PEER_ZERO_KEYS, &peer->flags);
	noise_peer_queue_hs_work(peer);
}

void noise_timers_init(struct noise_peer *peer)
{
	timer_setup(&peer->timer_retransmit, noise_t_retransmit, 0);
	timer_setup(&peer->timer_keepalive, noise_t_keepalive, 0);
	timer_setup(&peer->timer_new_handshake, noise_t_new_handshake, 0);
	timer_setup(&peer->timer_persistent, noise_t_persistent, 0);
	timer_setup(&peer->timer_zero_keys, noise_t_zero_keys, 0);
}

/* Context: process. The peer must be dead or the device down. */
void noise_timers_stop(struct noise_peer *peer)
{
	del_timer_sync(&peer->timer_retransmit);
	del_timer_sync(&peer->timer_keepalive);
	del_timer_sync(&peer->timer_new_handshake);
	del_timer_sync(&peer->timer_persistent);
	del_timer_sync(&peer->timer_zero_keys);
}

/*
 * For good: a dead peer's timers stop and no later mod_timer() arms them
 * again (one the work or the crypto still running makes is ignored), so
 * that its teardown stops them once. Context: process; the peer is dead.
 */
void noise_timers_shutdown(struct noise_peer *peer)
{
	timer_shutdown_sync(&peer->timer_retransmit);
	timer_shutdown_sync(&peer->timer_keepalive);
	timer_shutdown_sync(&peer->timer_new_handshake);
	timer_shutdown_sync(&peer->timer_persistent);
	timer_shutdown_sync(&peer->timer_zero_keys);
}

/*
 * Ask for a peer's timers ahead of noise_timers_shutdown(): a device's
 * teardown stops thousands of peers in a row, long after it last read
 * them, and timer_shutdown_sync() first reads each timer's flags.
 */
void noise_timers_prefetch(struct noise_peer *peer)
{
	const char *p = (const char *)&peer->timer_retransmit;
	const char *end = (const char *)(&peer->timer_zero_keys + 1);

	for (; p < end; p += L1_CACHE_BYTES)
		prefetchw(p);
}

/* A handshake message went out. */
void noise_timers_hs_sent(struct noise_peer *peer)
{
	noise_mod(peer, &peer->timer_retransmit, NOISE_HS_RETRANSMIT +
		  get_random_u32_below(NOISE_HS_JITTER));
}

/* An inner packet (not a keepalive) went out. */
void noise_timers_data_sent(struct noise_peer *peer)
{
	if (!timer_pending(&peer->timer_new_handshake))
		noise_mod(peer, &peer->timer_new_handshake,
			  noise_scaled(NOISE_KEEPALIVE_TIMEOUT) + NOISE_REKEY_TIMEOUT +
			  get_random_u32_below(NOISE_HS_JITTER));
}

static void noise_timers_traffic(struct noise_peer *peer)
{
	u16 ka = READ_ONCE(peer->keepalive_interval);

	if (ka)
		noise_mod(peer, &peer->timer_persistent, ka * HZ);
}

/* Any transport message went out (data or keepalive). */
void noise_timers_any_packet_sent(struct noise_peer *peer)
{
	del_timer(&peer->timer_keepalive);
	noise_timers_traffic(peer);
}

/* An inner packet was received. */
void noise_timers_data_received(struct noise_peer *peer)
{
	if (!timer_pending(&peer->timer_keepalive))
		noise_mod(peer, &peer->timer_keepalive,
			  noise_scaled(NOISE_KEEPALIVE_TIMEOUT));
}

/**
 * noise_timers_any_packet_received() - an authenticated transport message
 *	(data or keepalive) arrived.
 * @peer: its peer.
 * @kp: the session it came on.
 *
 * The peer is alive (no new handshake for want of an answer); a current
 * session near its end gets a new one now, whichever side made it, so
 * that neither side ever has to stop on a rejected key.
 * Context: softirq or BH disabled.
 */
void noise_timers_any_packet_received(struct noise_peer *peer,
				      struct noise_keypair *kp)
{
	atomic64_set(&peer->last_auth_rx, get_jiffies_64());
	del_timer(&peer->timer_new_handshake);
	noise_timers_traffic(peer);
	if (get_jiffies_64() - kp->birth >= noise_scaled(NOISE_REKEY_LAST_MINUTE) &&
	    rcu_access_pointer(peer->keypairs.current_kp) == kp)
		noise_peer_want_handshake(peer);
}

/* A session was made. */
void noise_timers_session_made(struct noise_peer *peer)
{
	del_timer(&peer->timer_retransmit);
	noise_mod(peer, &peer->timer_zero_keys, noise_scaled(NOISE_ZERO_KEYS_AFTER));
}

/*
 * We gave up a handshake: nothing the peer sent or we sent before may start
 * another (no keepalive, no new handshake for want of an answer: the next
 * packet starts over); wipe what is left after the usual time.
 */
void noise_timers_hs_given_up(struct noise_peer *peer)
{
	del_timer(&peer->timer_keepalive);
	del_timer(&peer->timer_new_handshake);
	if (!timer_pending(&peer->timer_zero_keys))
		noise_mod(peer, &peer->timer_zero_keys,
			  noise_scaled(NOISE_ZERO_KEYS_AFTER));
}
