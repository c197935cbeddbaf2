/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: stats.c: the device's and the peers' counters. */
#ifndef _NOISE_TUNNEL_STATS_H
#define _NOISE_TUNNEL_STATS_H

#include "device.h"

struct noise_peer;

/* Count a drop or an event on the device (and on @peer if not NULL); any context. */
void noise_count_cookie(struct noise_device *nd, struct noise_peer *peer,
			enum noise_cookie_event ev);
void noise_count_drop(struct noise_device *nd, struct noise_peer *peer,
		      enum noise_drop why);
/* A debug line (dynamic debug) on a session of @peer: "session @what". */
void noise_dbg_session(struct noise_peer *peer, const char *what);
/* Count @n messages (@bytes, UDP payload) received or sent; any context. */
void noise_count_rx(struct noise_device *nd, struct noise_peer *peer,
		    unsigned int n, unsigned int bytes);
void noise_count_tx(struct noise_device *nd, struct noise_peer *peer,
		    unsigned int n, unsigned int bytes);
struct noise_pcpu_stats __percpu *noise_stats_alloc(void);
void noise_stats_read(struct noise_device *nd, struct noise_peer *peer,
		      struct noise_stats *out);

#endif /* _NOISE_TUNNEL_STATS_H */
