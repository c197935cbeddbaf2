// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: per-stage timings of the data path, for the bench (make
 * bench, --stages) and for anyone asking where a packet's time goes.
 *
 * Each stage (timing.h) is a stretch of code timed with ktime_get_ns() at
 * both ends and added to per-CPU sums: time, calls, messages. A data-path
 * stage ends before the next one starts (but once a session: the packet
 * that confirms it sends what waited for it from inside rx_deliver), so
 * their sums add up to the tunnel's own share of a packet; what lies
 * outside them (the inner stack, the outer UDP receive, softirq
 * scheduling, the locks and nonces between stages) is not counted. The
 * handshake's hs_process holds hs_new .. hs_send, which do not overlap;
 * the rest of it is the glue's own checks (timestamp, flood, binding).
 * With an asynchronous AEAD driver the crypto stages time the submission,
 * not the work.
 *
 * stage_timing=1 (module parameter) turns it on; reading debugfs
 * noise/stages prints one line per stage, "name calls messages ns"; any
 * write zeroes the sums (while traffic runs, a sum may keep a few
 * nanoseconds of a stage that straddled the write).
 */

#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include "timing.h"

struct noise_stage_sum {
	u64 ns[NOISE_STAGE_COUNT];
	u64 calls[NOISE_STAGE_COUNT];
	u64 packets[NOISE_STAGE_COUNT];
};

static const char * const noise_stage_names[NOISE_STAGE_COUNT] = {
	[NOISE_STAGE_TX_ROUTE] = "tx_route",
	[NOISE_STAGE_TX_SEGMENT] = "tx_segment",
	[NOISE_STAGE_TX_PREPARE] = "tx_prepare",
	[NOISE_STAGE_TX_ENCRYPT] = "tx_encrypt",
	[NOISE_STAGE_TX_UDP] = "tx_udp",
	[NOISE_STAGE_RX_PARSE] = "rx_parse",
	[NOISE_STAGE_RX_PREPARE] = "rx_prepare",
	[NOISE_STAGE_RX_DECRYPT] = "rx_decrypt",
	[NOISE_STAGE_RX_DELIVER] = "rx_deliver",
	[NOISE_STAGE_HS_ADMIT] = "hs_admit",
	[NOISE_STAGE_HS_PROCESS] = "hs_process",
	[NOISE_STAGE_HS_NEW] = "hs_new",
	[NOISE_STAGE_HS_READ] = "hs_read",
	[NOISE_STAGE_HS_WRITE] = "hs_write",
	[NOISE_STAGE_HS_SESSION] = "hs_session",
	[NOISE_STAGE_HS_SEND] = "hs_send",
};

DEFINE_STATIC_KEY_FALSE(noise_timing_on);
static struct noise_stage_sum __percpu *noise_stage_sums;
static bool stage_timing;

/* Return: now, the start of whatever stage follows. */
u64 __noise_stage_end(enum noise_stage st, u64 t0, unsigned int packets)
{
	u64 now = ktime_get_ns();
	struct noise_stage_sum *s = get_cpu_ptr(noise_stage_sums);

	s->ns[st] += now - t0;
	s->calls[st]++;
	s->packets[st] += packets;
	put_cpu_ptr(noise_stage_sums);
	return now;
}

static int noise_stage_timing_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err)
		return err;
	WRITE_ONCE(stage_timing, on);
	/* At insmod the sums do not exist yet: noise_timing_init() turns it on. */
	if (!noise_stage_sums)
		return 0;
	if (on)
		static_branch_enable(&noise_timing_on);
	else
		static_branch_disable(&noise_timing_on);
	return 0;
}

static const struct kernel_param_ops noise_stage_timing_ops = {
	.set = noise_stage_timing_set,
	.get = param_get_bool,
};
module_param_cb(stage_timing, &noise_stage_timing_ops, &stage_timing, 0644);
MODULE_PARM_DESC(stage_timing,
		 "time each stage of the send and receive paths (debugfs noise/stages; default 0: off, no cost)");

static int noise_stages_show(struct seq_file *m, void *v)
{
	u64 ns, calls, packets;
	int st, cpu;

	for (st = 0; st < NOISE_STAGE_COUNT; st++) {
		ns = 0;
		calls = 0;
		packets = 0;
		for_each_possible_cpu(cpu) {
			struct noise_stage_sum *s = per_cpu_ptr(noise_stage_sums, cpu);

			ns += READ_ONCE(s->ns[st]);
			calls += READ_ONCE(s->calls[st]);
			packets += READ_ONCE(s->packets[st]);
		}
		seq_printf(m, "%s %llu %llu %llu\n", noise_stage_names[st],
			   calls, packets, ns);
	}
	return 0;
}

static int noise_stages_open(struct inode *inode, struct file *file)
{
	return single_open(file, noise_stages_show, NULL);
}

static ssize_t noise_stages_write(struct file *file, const char __user *buf,
				  size_t len, loff_t *pos)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(noise_stage_sums, cpu), 0, sizeof(struct noise_stage_sum));
	return len;
}

const struct file_operations noise_stages_fops = {
	.owner = THIS_MODULE,
	.open = noise_stages_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = noise_stages_write,
	.release = single_release,
};

int noise_timing_init(void)
{
	noise_stage_sums = alloc_percpu(struct noise_stage_sum);
	if (!noise_stage_sums)
		return -ENOMEM;
	if (stage_timing)
		static_branch_enable(&noise_timing_on);
	return 0;
}

/* Context: process, no device left (no stage can be running). */
void noise_timing_exit(void)
{
	static_branch_disable(&noise_timing_on);
	free_percpu(noise_stage_sums);
	noise_stage_sums = NULL;
}
