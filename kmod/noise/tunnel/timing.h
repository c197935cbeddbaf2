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
	NOISE_STAGE_TX_ENCRYPT,	/* padding, header, scatterlist, the AEAD */
	NOISE_STAGE_TX_UDP,	/* UDP, IP and the lower device, per send */
	NOISE_STAGE_RX_PARSE,	/* encap_rcv: checks, index lookup, replay peek */
	NOISE_STAGE_RX_DECRYPT,	/* scatterlist, the AEAD */
	NOISE_STAGE_RX_DELIVER,	/* replay commit, inner checks, source, GRO cell */
	NOISE_STAGE_COUNT
};

DECLARE_STATIC_KEY_FALSE(noise_timing_on);

/* The start of a stage: now (ns), or 0 when stage timing is off. */
static inline u64 noise_stage_start(void)
{
	return static_branch_unlikely(&noise_timing_on) ? ktime_get_ns() : 0;
}

void __noise_stage_end(enum noise_stage st, u64 t0, unsigned int packets);

/* The end of a stage begun at @t0, which handled @packets messages. */
static inline void noise_stage_end(enum noise_stage st, u64 t0, unsigned int packets)
{
	if (static_branch_unlikely(&noise_timing_on) && t0)
		__noise_stage_end(st, t0, packets);
}

int noise_timing_init(void);
void noise_timing_exit(void);
extern const struct file_operations noise_stages_fops;

#endif /* _NOISE_TUNNEL_TIMING_H */
