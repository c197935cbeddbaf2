/* SPDX-License-Identifier: GPL-2.0 */
/*
 * noise tunnel: timing.c: where the data path's time goes, stage by stage
 * (module parameter stage_timing, off by default; debugfs noise/stages).
 * Off, a stage costs one patched-out branch at each end.
 */
#ifndef _NOISE_TUNNEL_TIMING_H
#define _NOISE_TUNNEL_TIMING_H

#include <linux/fs.h>
#include <linux/jump_label.h>
#include <linux/timekeeping.h>

enum noise_stage {
	NOISE_STAGE_TX_ROUTE,	/* ndo_start_xmit to a peer: allowed-IP lookup */
	NOISE_STAGE_TX_SEGMENT,	/* GSO segmenting, checksums, headroom, staging */
	NOISE_STAGE_TX_PREPARE,	/* writable data, padding, header, scatterlist */
	NOISE_STAGE_TX_ENCRYPT,	/* the AEAD */
	NOISE_STAGE_TX_UDP,	/* UDP, IP and the lower device, per send */
	NOISE_STAGE_RX_PARSE,	/* encap_rcv: checks, index lookup, replay peek */
	NOISE_STAGE_RX_PREPARE,	/* writable data, scatterlist */
	NOISE_STAGE_RX_DECRYPT,	/* the AEAD */
	NOISE_STAGE_RX_DELIVER,	/* replay commit, inner checks, source, GRO cell */
	NOISE_STAGE_HS_ADMIT,	/* softirq: MAC1 (cookies under load), queueing */
	NOISE_STAGE_HS_PROCESS,	/* hs_work: one message, all of what follows */
	NOISE_STAGE_HS_NEW,	/* of which: a handshake's state and index */
	NOISE_STAGE_HS_READ,	/* of which: the engine reads a message */
	NOISE_STAGE_HS_WRITE,	/* of which: the engine writes one, MACs */
	NOISE_STAGE_HS_SESSION,	/* of which: keypair, index, install */
	NOISE_STAGE_HS_SEND,	/* of which: UDP send of what we wrote */
	NOISE_STAGE_COUNT
};

DECLARE_STATIC_KEY_FALSE(noise_timing_on);

/* The start of a stage: now (ns), or 0 when stage timing is off. */
static inline u64 noise_stage_start(void)
{
	return static_branch_unlikely(&noise_timing_on) ? ktime_get_ns() : 0;
}

u64 __noise_stage_end(enum noise_stage st, u64 t0, unsigned int packets);

/* The end of a stage begun at @t0, which handled @packets messages. */
static inline void noise_stage_end(enum noise_stage st, u64 t0, unsigned int packets)
{
	if (static_branch_unlikely(&noise_timing_on) && t0)
		__noise_stage_end(st, t0, packets);
}

/* The end of one stage and the start of the next: one clock read for both. */
static inline u64 noise_stage_next(enum noise_stage st, u64 t0, unsigned int packets)
{
	if (static_branch_unlikely(&noise_timing_on) && t0)
		return __noise_stage_end(st, t0, packets);
	return noise_stage_start();
}

int noise_timing_init(void);
void noise_timing_exit(void);
extern const struct file_operations noise_stages_fops;

#endif /* _NOISE_TUNNEL_TIMING_H */
