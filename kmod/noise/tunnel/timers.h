/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: timers.c: the per-peer timers (Documentation/timers.rst). */
#ifndef _NOISE_TUNNEL_TIMERS_H
#define _NOISE_TUNNEL_TIMERS_H

struct noise_keypair;
struct noise_peer;

void noise_timers_init(struct noise_peer *peer);
void noise_timers_stop(struct noise_peer *peer);
void noise_timers_shutdown(struct noise_peer *peer);
void noise_timers_prefetch(struct noise_peer *peer);
void noise_timers_data_sent(struct noise_peer *peer);
void noise_timers_data_received(struct noise_peer *peer);
void noise_timers_any_packet_sent(struct noise_peer *peer);
void noise_timers_hs_sent(struct noise_peer *peer);
void noise_timers_any_packet_received(struct noise_peer *peer,
				      struct noise_keypair *kp);
void noise_timers_session_made(struct noise_peer *peer);
void noise_timers_hs_given_up(struct noise_peer *peer);

#endif /* _NOISE_TUNNEL_TIMERS_H */
