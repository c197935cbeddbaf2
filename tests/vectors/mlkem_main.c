// SPDX-License-Identifier: GPL-2.0
/*
 * noise_mlkem_vectors.ko: replay every compiled-in ML-KEM known-answer
 * vector at insmod, for kernels without KUnit (the KUnit module is
 * noise_mlkem_kunit). The vectors and their replay are the KUnit suite's:
 * the table gen_mlkem_vectors.py makes from the files of files.mk and
 * mlkem_test_common.h. Like it, the module compiles kmod/noise/mlkem.c and
 * keccak.c itself with NOISE_MLKEM_TESTING (the deterministic KeyGen and
 * Encaps), so it is built in the test build only (Kbuild). Prints a line
 * per file, one per failure (the first 20 of a file) and a summary:
 *   noise_mlkem_vectors: N passed, M failed, K skipped
 * K counts the ML-KEM-512 vectors (not implemented); a file with no
 * ML-KEM-768 or ML-KEM-1024 vector counts as a failure.
 *
 *   insmod noise_mlkem_vectors.ko [accumulated=N]
 *
 * accumulated=N also runs the accumulated test with N runs per parameter
 * set (10000 or 1000000, which have an expected hash). It is off by
 * default: 10000 runs take minutes on a real CPU's generic C and far too
 * long under emulation (QEMU TCG); the KUnit suite runs it.
 */
#define NOISE_MLKEM_TESTING 1
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "keccak.c"
#include "mlkem.c"
#define MLKEM_TEST_YIELD() cond_resched()
#include "mlkem_test_common.h"

static unsigned int accumulated;
module_param(accumulated, uint, 0444);
MODULE_PARM_DESC(accumulated, "runs of the accumulated test per parameter set (0: skip, the default)");

struct mlkem_tally {
	unsigned int pass, fail, skip;
};

static void mlkem_vectors_file(const struct mlkem_vec_file *f,
			       struct mlkem_test_bufs *b, struct mlkem_tally *t)
{
	unsigned int i, passed = 0;
	const char *why;

	for (i = f->first; i < f->first + f->count; i++) {
		why = mlkem_vec_run(&mlkem_vecs[i], b);
		if (!why)
			passed++;
		else if (i - f->first - passed < 20)
			pr_err("noise_mlkem_vectors: FAIL %s: %s\n", mlkem_vecs[i].name, why);
		cond_resched();
	}
	pr_info("noise_mlkem_vectors: %s: %u/%u vectors passed, %u ML-KEM-512 vectors skipped\n",
		f->name, passed, f->count, f->skipped);
	t->pass += passed;
	t->fail += f->count - passed;
	t->skip += f->skipped;
	/* As in the KUnit suite: a file must hold vectors of ours. */
	if (!f->count) {
		pr_err("noise_mlkem_vectors: FAIL %s: no ML-KEM-768/1024 vector\n", f->name);
		t->fail++;
	}
}

/* The accumulated test with @accumulated runs for @p, when asked for. */
static void mlkem_vectors_acc(enum noise_mlkem_param p, struct mlkem_test_bufs *b,
			      struct mlkem_tally *t)
{
	const struct mlkem_acc_expect *e = NULL;
	unsigned int i;
	u8 hash[32];

	for (i = 0; i < mlkem_acc_expect_count; i++)
		if (mlkem_acc_expects[i].param == p &&
		    mlkem_acc_expects[i].count == accumulated)
			e = &mlkem_acc_expects[i];
	if (!e) {
		pr_info("noise_mlkem_vectors: SKIP accumulated ML-KEM-%d: no expected hash for %u runs\n",
			p * 256, accumulated);
		t->skip++;
	} else if (mlkem_accumulated(p, accumulated, hash, b) ||
		   memcmp(hash, e->hash, sizeof(hash))) {
		pr_err("noise_mlkem_vectors: FAIL accumulated ML-KEM-%d, %u runs\n",
		       p * 256, accumulated);
		t->fail++;
	} else {
		pr_info("noise_mlkem_vectors: accumulated ML-KEM-%d, %u runs: hash matches\n",
			p * 256, accumulated);
		t->pass++;
	}
}

static int __init noise_mlkem_vectors_init(void)
{
	struct mlkem_tally t = {};
	struct mlkem_test_bufs *b;
	unsigned int i;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	for (i = 0; mlkem_vec_files[i].name; i++)
		mlkem_vectors_file(&mlkem_vec_files[i], b, &t);
	if (!i) {
		pr_err("noise_mlkem_vectors: no vector files at build time (NOISE_SHARED)\n");
		t.skip++;
	}
	if (accumulated) {
		mlkem_vectors_acc(NOISE_MLKEM768, b, &t);
		mlkem_vectors_acc(NOISE_MLKEM1024, b, &t);
	} else {
		pr_info("noise_mlkem_vectors: accumulated test not run (accumulated=0)\n");
	}
	kfree_sensitive(b);
	pr_info("noise_mlkem_vectors: %u passed, %u failed, %u skipped\n",
		t.pass, t.fail, t.skip);
	return 0;
}

static void __exit noise_mlkem_vectors_exit(void)
{
}

module_init(noise_mlkem_vectors_init);
module_exit(noise_mlkem_vectors_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ML-KEM known-answer vectors replayed at load time");
