// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the counters of a device and of its peers (per-CPU, read
 * summed), and the debug line each counted event makes. Every floor of
 * the tunnel counts here; the device and netlink only read
 * (Documentation/architecture.rst, "Floors of the tunnel").
 */

#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include "device.h"
#include "peer.h"
#include "stats.h"

/* Preemption off: the handshake worker counts too, in process context. */
static void noise_pcpu_drop(struct noise_pcpu_stats __percpu *st, enum noise_drop why)
{
	struct noise_pcpu_stats *s = get_cpu_ptr(st);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->w.syncp);
	u64_stats_inc(&s->drops[why]);
	u64_stats_update_end_irqrestore(&s->w.syncp, flags);
	put_cpu_ptr(st);
}

static void noise_pcpu_wire(struct noise_pcpu_wire __percpu *st, bool rx,
			    unsigned int n, unsigned int bytes)
{
	struct noise_pcpu_wire *s = get_cpu_ptr(st);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(rx ? &s->rx_packets : &s->tx_packets, n);
	u64_stats_add(rx ? &s->rx_bytes : &s->tx_bytes, bytes);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(st);
}

/*
 * What went over the wire between us and @peer, as WireGuard counts it:
 * every message that came from the peer and was taken (a handshake
 * message read, a data message or keepalive authenticated and delivered)
 * and every one sent to it, each by its UDP payload. Context: any.
 */
void noise_count_rx(struct noise_device *nd, struct noise_peer *peer,
		    unsigned int n, unsigned int bytes)
{
	noise_pcpu_wire(&nd->stats->w, true, n, bytes);
	noise_pcpu_wire(peer->stats, true, n, bytes);
}

void noise_count_tx(struct noise_device *nd, struct noise_peer *peer,
		    unsigned int n, unsigned int bytes)
{
	noise_pcpu_wire(&nd->stats->w, false, n, bytes);
	noise_pcpu_wire(peer->stats, false, n, bytes);
}

/* The counters' names (noisectl's drop_<name>), for the debug lines. */
static const char * const noise_drop_names[NOISE_DROP_COUNT] = {
	[NOISE_DROP_BAD_TYPE] = "bad_type",
	[NOISE_DROP_BAD_LENGTH] = "bad_length",
	[NOISE_DROP_UNKNOWN_INDEX] = "unknown_index",
	[NOISE_DROP_AUTH] = "auth",
	[NOISE_DROP_REPLAY] = "replay",
	[NOISE_DROP_SOURCE] = "source",
	[NOISE_DROP_NO_PEER] = "no_peer",
	[NOISE_DROP_HANDSHAKE] = "handshake",
	[NOISE_DROP_NO_KEY] = "no_key",
	[NOISE_DROP_INNER] = "inner",
	[NOISE_DROP_MAC1] = "mac1",
	[NOISE_DROP_COOKIE] = "cookie",
	[NOISE_DROP_RATELIMIT] = "ratelimit",
	[NOISE_DROP_HS_QUEUE] = "hs_queue",
	[NOISE_DROP_LOOP] = "loop",
};

static const char * const noise_cookie_event_names[NOISE_CE_COUNT] = {
	[NOISE_CE_REPLY] = "cookie reply taken",
	[NOISE_CE_MAC2_SENT] = "handshake message sent with MAC2",
	[NOISE_CE_MAC2_OK] = "valid MAC2 under load",
	[NOISE_CE_INITIATION] = "handshake begun",
	[NOISE_CE_HS_RESENT] = "handshake message sent again",
	[NOISE_CE_HS_GIVEN_UP] = "handshake given up",
};

/*
 * Each drop and each handshake event also makes a debug line (dynamic
 * debug: `echo 'module noise +p' > .../dynamic_debug/control`), rate
 * limited, as WireGuard's; a peer is named by its internal id and
 * endpoint. Nothing is built without CONFIG_DYNAMIC_DEBUG (or DEBUG).
 */
static void noise_dbg_event(struct noise_device *nd, struct noise_peer *peer,
			    const char *what, const char *why)
{
	if (peer)
		net_dbg_ratelimited("%s: peer %llu (%pISpfsc): %s%s\n", nd->dev->name,
				    peer->internal_id, &peer->endpoint.addr, what, why);
	else
		net_dbg_ratelimited("%s: %s%s\n", nd->dev->name, what, why);
}

/* Context: any. */
void noise_count_drop(struct noise_device *nd, struct noise_peer *peer,
		      enum noise_drop why)
{
	noise_pcpu_drop(nd->stats, why);
	if (peer)
		atomic64_inc(&peer->drops[why]);
	noise_dbg_event(nd, peer, "message dropped: ", noise_drop_names[why]);
}

/* Context: any. */
void noise_count_cookie(struct noise_device *nd, struct noise_peer *peer,
			enum noise_cookie_event ev)
{
	atomic64_inc(&nd->cookie_events[ev]);
	if (peer)
		atomic64_inc(&peer->cookie_events[ev]);
	noise_dbg_event(nd, peer, noise_cookie_event_names[ev], "");
}

/* Context: any. */
void noise_dbg_session(struct noise_peer *peer, const char *what)
{
	noise_dbg_event(peer->nd, peer, "session ", what);
}

static void noise_wire_sum(struct noise_pcpu_wire __percpu *st, struct noise_stats *out)
{
	unsigned int start;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct noise_pcpu_wire *s = per_cpu_ptr(st, cpu);
		u64 rxb, rxp, txb, txp;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			rxb = u64_stats_read(&s->rx_bytes);
			rxp = u64_stats_read(&s->rx_packets);
			txb = u64_stats_read(&s->tx_bytes);
			txp = u64_stats_read(&s->tx_packets);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		out->rx_bytes += rxb;
		out->rx_packets += rxp;
		out->tx_bytes += txb;
		out->tx_packets += txp;
	}
}

/* The device's drops (per-CPU, under the wire counters' syncp). */
static void noise_drops_sum(struct noise_pcpu_stats __percpu *st, struct noise_stats *out)
{
	unsigned int start, i;
	u64 one[NOISE_DROP_COUNT];
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct noise_pcpu_stats *s = per_cpu_ptr(st, cpu);

		do {
			start = u64_stats_fetch_begin(&s->w.syncp);
			for (i = 0; i < NOISE_DROP_COUNT; i++)
				one[i] = u64_stats_read(&s->drops[i]);
		} while (u64_stats_fetch_retry(&s->w.syncp, start));
		for (i = 0; i < NOISE_DROP_COUNT; i++)
			out->drops[i] += one[i];
	}
}

/* A device's counters, zero. Context: process. Return: them or NULL. */
struct noise_pcpu_stats __percpu *noise_stats_alloc(void)
{
	struct noise_pcpu_stats __percpu *st = alloc_percpu(struct noise_pcpu_stats);
	int cpu;

	if (st)
		for_each_possible_cpu(cpu)
			u64_stats_init(&per_cpu_ptr(st, cpu)->w.syncp);
	return st;
}

/**
 * noise_stats_read() - the counters of a device or a peer.
 * @nd: the device.
 * @peer: the peer, or NULL for the device.
 * @out: filled in.
 *
 * Context: any.
 */
void noise_stats_read(struct noise_device *nd, struct noise_peer *peer,
		      struct noise_stats *out)
{
	atomic64_t *ce = peer ? peer->cookie_events : nd->cookie_events;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (peer) {
		noise_wire_sum(peer->stats, out);
		for (i = 0; i < NOISE_DROP_COUNT; i++)
			out->drops[i] = atomic64_read(&peer->drops[i]);
	} else {
		noise_wire_sum(&nd->stats->w, out);
		noise_drops_sum(nd->stats, out);
	}
	out->handshakes = atomic64_read(peer ? &peer->handshakes : &nd->handshakes);
	for (i = 0; i < NOISE_CE_COUNT; i++)
		out->cookie[i] = atomic64_read(&ce[i]);
}
EXPORT_SYMBOL_NS_GPL(noise_stats_read, NOISE_INTERNAL);
