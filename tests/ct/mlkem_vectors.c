// SPDX-License-Identifier: GPL-2.0
/*
 * ML-KEM known answers in userspace: kmod/noise/mlkem.c and keccak.c
 * compiled unmodified against the shim headers, with the vector table that
 * tests/kunit/gen_mlkem_vectors.py generated (mk/mlkem.mk).
 *
 *   mlkem_vectors                    replay every vector, per file
 *   mlkem_vectors --accumulated N    the accumulated test, N runs per
 *                                    parameter set, against the expected
 *                                    hash for N (exit 1 when none is known)
 *
 * Exit status 0 when everything passed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "mlkem_test_common.h"

static struct mlkem_test_bufs bufs;

static int run_vectors(void)
{
	const struct mlkem_vec_file *f;
	unsigned int i, passed, bad = 0;
	const char *why;

	if (!mlkem_vec_file_count) {
		printf("mlkem_vectors: no vector files\n");
		return 1;
	}
	for (f = mlkem_vec_files; f->name; f++) {
		passed = 0;
		for (i = f->first; i < f->first + f->count; i++) {
			why = mlkem_vec_run(&mlkem_vecs[i], &bufs);
			if (!why) {
				passed++;
				continue;
			}
			if (bad++ < 20)
				printf("FAIL %s: %s\n", mlkem_vecs[i].name, why);
		}
		printf("%s: %u/%u passed, %u ML-KEM-512 skipped\n", f->name, passed,
		       f->count, f->skipped);
	}
	return bad ? 1 : 0;
}

static int run_accumulated(unsigned int count)
{
	const struct mlkem_acc_expect *e;
	int p, bad = 0, found;
	u8 hash[32];

	for (p = NOISE_MLKEM768; p <= NOISE_MLKEM1024; p++) {
		found = 0;
		for (e = mlkem_acc_expects; e < mlkem_acc_expects + mlkem_acc_expect_count; e++)
			if (e->param == p && e->count == count)
				found = 1;
		if (!found) {
			printf("ML-KEM-%d: no expected hash for %u runs\n", p * 256, count);
			bad++;
			continue;
		}
		if (mlkem_accumulated(p, count, hash, &bufs)) {
			printf("ML-KEM-%d: a run failed (Decaps disagreed)\n", p * 256);
			bad++;
			continue;
		}
		for (e = mlkem_acc_expects; e->count; e++)
			if (e->param == p && e->count == count)
				break;
		printf("ML-KEM-%d accumulated x%u: %02x%02x%02x%02x... %s\n", p * 256,
		       count, hash[0], hash[1], hash[2], hash[3],
		       memcmp(hash, e->hash, 32) ? "DIFFERS" : "matches");
		bad += !!memcmp(hash, e->hash, 32);
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 1)
		return run_vectors();
	if (argc == 3 && !strcmp(argv[1], "--accumulated"))
		return run_accumulated((unsigned int)strtoul(argv[2], NULL, 10));
	printf("usage: mlkem_vectors [--accumulated N]\n");
	return 2;
}
