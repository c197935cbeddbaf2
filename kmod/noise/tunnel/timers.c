// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the per-peer timers (constants in messages.h).
 *
 * - retransmit: a handshake message we sent got no answer: hs_work resends
 *   it (or starts over after NOISE_HS_MAX_RETRANSMITS);
 * - keepalive (passive): we received data and sent nothing for
 *   NOISE_KEEPALIVE_TIMEOUT: send an empty message;
 * - new_handshake: we sent data and heard nothing for KEEPALIVE_TIMEOUT +
 *   REKEY_TIMEOUT: the session may be dead, handshake again;
 * - persistent: every keepalive_interval seconds of silence, a keepalive;
 * - zero_keys: 3 * REJECT_AFTER_TIME after the last session was made, the
 *   sessions are dropped (issue 12 completes the lifecycle).
 */

#include <linux/random.h>
#include <linux/timer.h>
#include "device.h"
#include "peer.h"
#include "tunnel.h"

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

	noise_hs_want(peer);
}

static void noise_t_persistent(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_persistent);

	if (READ_ONCE(peer->keepalive_interval))
		noise_send_keepalive(peer);
}

static void noise_t_zero_keys(struct timer_list *t)
{
	struct noise_peer *peer = from_timer(peer, t, timer_zero_keys);

	noise_keypairs_clear(peer);
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

/* A handshake message went out. */
void noise_timers_hs_sent(struct noise_peer *peer)
{
	noise_mod(peer, &peer->timer_retransmit, NOISE_HS_RETRANSMIT +
		  get_random_u32_below(HZ / 3));
}

/* An inner packet (not a keepalive) went out. */
void noise_timers_data_sent(struct noise_peer *peer)
{
	if (!timer_pending(&peer->timer_new_handshake))
		noise_mod(peer, &peer->timer_new_handshake,
			  NOISE_KEEPALIVE_TIMEOUT + NOISE_REKEY_TIMEOUT);
}

/* Any transport message went out (data or keepalive). */
void noise_timers_any_packet_sent(struct noise_peer *peer)
{
	u16 ka = READ_ONCE(peer->keepalive_interval);

	del_timer(&peer->timer_keepalive);
	if (ka)
		noise_mod(peer, &peer->timer_persistent, ka * HZ);
}

/* An inner packet was received. */
void noise_timers_data_received(struct noise_peer *peer)
{
	if (!timer_pending(&peer->timer_keepalive))
		noise_mod(peer, &peer->timer_keepalive, NOISE_KEEPALIVE_TIMEOUT);
}

/* Any authenticated transport message was received. */
void noise_timers_any_packet_received(struct noise_peer *peer)
{
	del_timer(&peer->timer_new_handshake);
}

/* A session was made. */
void noise_timers_session_made(struct noise_peer *peer)
{
	del_timer(&peer->timer_retransmit);
	noise_mod(peer, &peer->timer_zero_keys, 3 * NOISE_REJECT_AFTER_TIME);
}
