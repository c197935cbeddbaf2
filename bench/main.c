// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: in-kernel benchmark of the noise engine and of its bounds.
 *
 * Loading the module runs the groups named by the "groups" parameter in a
 * kernel thread bound to one CPU, prints one parseable line per figure to the
 * kernel log ("noise_bench: <kind> key=value..."), then ends with
 * "noise_bench: done errors=N". bench/report turns the lines into a Markdown
 * table, a JSON file and a chart. Timing never makes the load fail; only an
 * error of an operation under test is counted.
 */

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include "bench.h"

unsigned int bench_hs_iters = 200;
module_param_named(hs_iters, bench_hs_iters, uint, 0444);
MODULE_PARM_DESC(hs_iters, "timed samples per handshake row");

unsigned int bench_dh_iters = 500;
module_param_named(dh_iters, bench_dh_iters, uint, 0444);
MODULE_PARM_DESC(dh_iters, "timed samples per scalar multiplication / key generation row");

unsigned int bench_tr_iters = 300;
module_param_named(tr_iters, bench_tr_iters, uint, 0444);
MODULE_PARM_DESC(tr_iters, "timed samples per transport / raw AEAD row");

unsigned int bench_min_sample_us = 20;
module_param_named(min_sample_us, bench_min_sample_us, uint, 0444);
MODULE_PARM_DESC(min_sample_us, "batch fast operations so one sample lasts at least this long");

unsigned int bench_aead_size;
module_param_named(aead_size, bench_aead_size, uint, 0444);
MODULE_PARM_DESC(aead_size, "raw AEAD group: only this plaintext size in bytes (0: the standard sizes)");

char *bench_hs_match;
module_param_named(hs_match, bench_hs_match, charp, 0444);
MODULE_PARM_DESC(hs_match, "run only the handshake rows whose protocol name contains this");

bool bench_static_pub = true;
module_param_named(static_pub, bench_static_pub, bool, 0444);
MODULE_PARM_DESC(static_pub, "pass each static public key to the engine (0: it derives it per handshake)");

bool bench_hs_parts = true;
module_param_named(hs_parts, bench_hs_parts, bool, 0444);
MODULE_PARM_DESC(hs_parts, "also time handshake parts (create, messages, split) for the breakdown");

static char *groups = "prim,kem,hs,transport";
module_param(groups, charp, 0444);
MODULE_PARM_DESC(groups, "comma-separated groups to run: prim, kem (ML-KEM beside X25519), aead (raw AEAD alone), hs, transport (with its raw AEAD bound)");

static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU the benchmark thread is bound to");

const unsigned int bench_sizes[] = { 64, 256, 1024, 4096, 16384, BENCH_MAX_PLAINTEXT };
const unsigned int bench_nsizes = ARRAY_SIZE(bench_sizes);

static const struct {
	const char *name;
	int (*run)(void);
} bench_groups[] = {
	{ "prim", bench_prim_run },
	{ "kem", bench_kem_run },
	{ "aead", bench_aead_raw_run },
	{ "hs", bench_handshake_run },
	{ "transport", bench_transport_run },
};

static bool group_wanted(const char *name)
{
	size_t len = strlen(name);
	const char *p = groups;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static int bench_errors;
static DECLARE_COMPLETION(bench_finished);

static int bench_thread(void *unused)
{
	unsigned int i;
	int err;

	bench_note("start kernel=%s machine=%s cpu=%u groups=%s",
		   init_utsname()->release, init_utsname()->machine, cpu, groups);
	bench_note("params hs_iters=%u dh_iters=%u tr_iters=%u min_sample_us=%u hs_parts=%d",
		   bench_hs_iters, bench_dh_iters, bench_tr_iters,
		   bench_min_sample_us, bench_hs_parts);
	if (bench_aead_size)
		bench_note("params aead_size=%u", bench_aead_size);
	for (i = 0; i < ARRAY_SIZE(bench_groups); i++) {
		if (!group_wanted(bench_groups[i].name))
			continue;
		err = bench_groups[i].run();
		if (err) {
			bench_note("group_error group=%s err=%d", bench_groups[i].name, err);
			bench_errors++;
		}
	}
	bench_note("done errors=%d", bench_errors);
	/* Never return into this module's text once init may have returned. */
	kthread_complete_and_exit(&bench_finished, 0);
}

static int __init noise_bench_init(void)
{
	struct task_struct *t;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu) ||
	    bench_aead_size > BENCH_MAX_PLAINTEXT)
		return -EINVAL;
	t = kthread_create(bench_thread, NULL, "noise_bench");
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&bench_finished);
	return 0;
}

static void __exit noise_bench_exit(void)
{
}

module_init(noise_bench_init);
module_exit(noise_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Benchmark of the noise engine: handshakes, transport and their bounds");
