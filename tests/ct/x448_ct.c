// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check of kmod/noise/x448.c under valgrind memcheck (the
 * "ctgrind" technique): the secret inputs are marked undefined, so memcheck
 * reports every conditional jump and every memory address computed from
 * them. Run it only as
 *
 *   valgrind --tool=memcheck --error-exitcode=99 x448_ct real|control
 *
 * real:    noise_x448() and noise_x448_generate_public() with an undefined
 *          scalar and point; memcheck must report nothing. The outputs must
 *          come back undefined (the taint went through the whole ladder,
 *          so the check really looked at it) and, once marked defined
 *          again, equal a run on defined inputs.
 * control: a deliberately leaky function (a branch and a table index on
 *          the secret); memcheck MUST report it, or the method is broken.
 *
 * tests/ct/ct-check interprets the exit codes and the valgrind log.
 */
#include <stdio.h>
#include <valgrind/memcheck.h>
#include <linux/types.h>
#include <linux/random.h>
#include <linux/string.h>
#include "x448.h"

#define ROUNDS 4

/*
 * Filled at run time (so the lookups cannot be folded away), and the
 * branch holds an asm statement (so it cannot become a conditional move):
 * the leaks must survive into the binary.
 */
u8 ct_leak_table[256];

/* The control: a secret-dependent branch and a secret-dependent index. */
static noinline u32 ct_control_leak(const u8 *secret, size_t len)
{
	u32 acc = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (secret[i] & 1)
			asm volatile("" : "+r" (acc));
		acc += ct_leak_table[secret[i]];
	}
	return acc;
}

/* 1 if every bit of @p[0..len) is undefined for memcheck. */
static int all_undefined(const void *p, size_t len)
{
	u8 vbits[X448_KEY_SIZE];
	size_t i;

	if (len > sizeof(vbits) || VALGRIND_GET_VBITS(p, vbits, len) != 1)
		return 0;
	for (i = 0; i < len; i++)
		if (vbits[i] != 0xff)
			return 0;
	return 1;
}

static int run_real(void)
{
	u8 k[X448_KEY_SIZE], u[X448_KEY_SIZE], out[X448_KEY_SIZE];
	u8 pub[X448_KEY_SIZE], want[X448_KEY_SIZE], want_pub[X448_KEY_SIZE];
	int round, bad = 0;
	bool ok, ok_pub;

	for (round = 0; round < ROUNDS; round++) {
		get_random_bytes(k, sizeof(k));
		get_random_bytes(u, sizeof(u));
		if (round == ROUNDS - 1)
			memset(u, 0, sizeof(u));	/* low-order path too */
		if (!noise_x448(want, k, u) != (round == ROUNDS - 1) ||
		    !noise_x448_generate_public(want_pub, k))
			bad++;

		VALGRIND_MAKE_MEM_UNDEFINED(k, sizeof(k));
		VALGRIND_MAKE_MEM_UNDEFINED(u, sizeof(u));
		ok = noise_x448(out, k, u);
		ok_pub = noise_x448_generate_public(pub, k);

		/* The secret reached the outputs: the ladder was tracked. */
		if (!all_undefined(out, sizeof(out)) ||
		    !all_undefined(pub, sizeof(pub))) {
			printf("x448_ct: outputs not tainted by the secret inputs\n");
			bad++;
		}

		/* Declassify the results only now, to compare them. */
		VALGRIND_MAKE_MEM_DEFINED(out, sizeof(out));
		VALGRIND_MAKE_MEM_DEFINED(pub, sizeof(pub));
		VALGRIND_MAKE_MEM_DEFINED(&ok, sizeof(ok));
		VALGRIND_MAKE_MEM_DEFINED(&ok_pub, sizeof(ok_pub));
		VALGRIND_MAKE_MEM_DEFINED(k, sizeof(k));
		VALGRIND_MAKE_MEM_DEFINED(u, sizeof(u));
		if (memcmp(out, want, sizeof(out)) || memcmp(pub, want_pub, sizeof(pub)) ||
		    ok != (round != ROUNDS - 1) || !ok_pub) {
			printf("x448_ct: round %d: results differ\n", round);
			bad++;
		}
	}
	printf("x448_ct real: %d rounds, %s\n", ROUNDS, bad ? "BROKEN" : "done");
	return bad ? 1 : 0;
}

static int run_control(void)
{
	u8 k[X448_KEY_SIZE];
	u32 r;
	int i;

	for (i = 0; i < 256; i++)
		ct_leak_table[i] = (u8)(i * 7);
	get_random_bytes(k, sizeof(k));
	VALGRIND_MAKE_MEM_UNDEFINED(k, sizeof(k));
	r = ct_control_leak(k, sizeof(k));
	VALGRIND_MAKE_MEM_DEFINED(&r, sizeof(r));
	printf("x448_ct control: %u\n", r);
	return 0;
}

int main(int argc, char **argv)
{
	if (!RUNNING_ON_VALGRIND) {
		printf("x448_ct: must run under valgrind --tool=memcheck\n");
		return 2;
	}
	if (argc == 2 && !strcmp(argv[1], "real"))
		return run_real();
	if (argc == 2 && !strcmp(argv[1], "control"))
		return run_control();
	printf("usage: valgrind --tool=memcheck x448_ct real|control\n");
	return 2;
}
