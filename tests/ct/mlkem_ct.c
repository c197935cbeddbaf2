// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check of kmod/noise/mlkem.c (and keccak.c) under valgrind
 * memcheck, as tests/ct/x448_ct.c does for X448: the secret inputs are
 * marked undefined, so memcheck reports every conditional jump and every
 * memory address computed from them. Run it only as
 *
 *   valgrind --tool=memcheck --error-exitcode=99 mlkem_ct real|control
 *
 * real: for ML-KEM-768 and ML-KEM-1024, KeyGen with an undefined seed
 *       d || z, Encaps with an undefined m, Decaps with the secret part of
 *       dk (s^ and z) undefined, on the good ciphertext and on a bad one
 *       (implicit rejection); memcheck must report nothing. The outputs
 *       must come back undefined (the taint went all the way through) and,
 *       marked defined again, agree with each other.
 * control: a deliberately leaky function; memcheck MUST report it.
 *
 * Only rho is declassified inside mlkem.c (tests/ct/mlkem_ct_hook.h): it
 * is public, and rejection sampling from it branches by design.
 */
#include <stdio.h>
#include <valgrind/memcheck.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/random.h>
#include <linux/string.h>
#include "mlkem.h"

u8 ct_leak_table[256];

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

static u8 vbits[NOISE_MLKEM_MAX_DK_SIZE];

/* 1 if some bit of @p[0..len) is undefined for memcheck. */
static int any_undefined(const void *p, size_t len)
{
	size_t i;

	if (len > sizeof(vbits) || VALGRIND_GET_VBITS(p, vbits, len) != 1)
		return 0;
	for (i = 0; i < len; i++)
		if (vbits[i])
			return 1;
	return 0;
}

static struct noise_mlkem_work w;
static u8 ek[NOISE_MLKEM_MAX_EK_SIZE], dk[NOISE_MLKEM_MAX_DK_SIZE];
static u8 ct[NOISE_MLKEM_MAX_CT_SIZE], bad_ct[NOISE_MLKEM_MAX_CT_SIZE];
static u8 seed[NOISE_MLKEM_SEED_SIZE], m[NOISE_MLKEM_MSG_SIZE];
static u8 ss[NOISE_MLKEM_SS_SIZE], ss2[NOISE_MLKEM_SS_SIZE], ss3[NOISE_MLKEM_SS_SIZE];
static u8 ss4[NOISE_MLKEM_SS_SIZE], ss5[NOISE_MLKEM_SS_SIZE];
static struct noise_mlkem_matrix a;

static int run_one(enum noise_mlkem_param p)
{
	size_t ek_len = noise_mlkem_ek_size(p), dk_len = noise_mlkem_dk_size(p);
	size_t ct_len = noise_mlkem_ct_size(p), pke_len = 384 * p;
	int bad = 0, e1, e2, e3, e4;

	get_random_bytes(seed, sizeof(seed));
	get_random_bytes(m, sizeof(m));
	get_random_bytes(bad_ct, ct_len);

	VALGRIND_MAKE_MEM_UNDEFINED(seed, sizeof(seed));
	e1 = noise_mlkem_keygen_derand(p, ek, dk, seed, &a, &w);
	bad += !any_undefined(ek, ek_len) || !any_undefined(dk, pke_len);
	VALGRIND_MAKE_MEM_DEFINED(ek, ek_len);		/* public */
	VALGRIND_MAKE_MEM_DEFINED(dk + pke_len, ek_len + 32);	/* ek || H(ek) */

	VALGRIND_MAKE_MEM_UNDEFINED(m, sizeof(m));
	e2 = noise_mlkem_encaps_derand(p, ct, ss, ek, ek_len, m, &w);
	bad += !any_undefined(ct, ct_len) || !any_undefined(ss, sizeof(ss));
	VALGRIND_MAKE_MEM_DEFINED(ct, ct_len);		/* sent in clear */

	VALGRIND_MAKE_MEM_UNDEFINED(dk, pke_len);
	VALGRIND_MAKE_MEM_UNDEFINED(dk + dk_len - 32, 32);
	/* The handshake's path (KeyGen's A^), and A^ sampled again. */
	e3 = noise_mlkem_decaps(p, ss2, ct, ct_len, dk, dk_len, &a, &w);
	e4 = noise_mlkem_decaps(p, ss3, bad_ct, ct_len, dk, dk_len, &a, &w);
	e3 |= noise_mlkem_decaps(p, ss4, ct, ct_len, dk, dk_len, NULL, &w);
	e4 |= noise_mlkem_decaps(p, ss5, bad_ct, ct_len, dk, dk_len, NULL, &w);
	bad += !any_undefined(ss2, sizeof(ss2)) || !any_undefined(ss3, sizeof(ss3));
	if (bad)
		printf("mlkem_ct: ML-KEM-%d: outputs not tainted by the secrets\n", p * 256);

	/* Declassify the results only now, to compare them. */
	VALGRIND_MAKE_MEM_DEFINED(ss, sizeof(ss));
	VALGRIND_MAKE_MEM_DEFINED(ss2, sizeof(ss2));
	VALGRIND_MAKE_MEM_DEFINED(ss3, sizeof(ss3));
	VALGRIND_MAKE_MEM_DEFINED(ss4, sizeof(ss4));
	VALGRIND_MAKE_MEM_DEFINED(ss5, sizeof(ss5));
	VALGRIND_MAKE_MEM_DEFINED(dk, dk_len);
	if (e1 || e2 || e3 || e4 || memcmp(ss, ss2, sizeof(ss)) ||
	    !memcmp(ss, ss3, sizeof(ss)) || memcmp(ss, ss4, sizeof(ss)) ||
	    memcmp(ss3, ss5, sizeof(ss))) {
		printf("mlkem_ct: ML-KEM-%d: results wrong\n", p * 256);
		bad++;
	}
	return bad;
}

static int run_real(void)
{
	int round, bad = 0;

	for (round = 0; round < 2; round++) {
		bad += run_one(NOISE_MLKEM768);
		bad += run_one(NOISE_MLKEM1024);
	}
	printf("mlkem_ct real: 2 rounds x 2 parameter sets, %s\n", bad ? "BROKEN" : "done");
	return bad ? 1 : 0;
}

static int run_control(void)
{
	u32 r;
	int i;

	for (i = 0; i < 256; i++)
		ct_leak_table[i] = (u8)(i * 7);
	get_random_bytes(seed, sizeof(seed));
	VALGRIND_MAKE_MEM_UNDEFINED(seed, sizeof(seed));
	r = ct_control_leak(seed, sizeof(seed));
	VALGRIND_MAKE_MEM_DEFINED(&r, sizeof(r));
	printf("mlkem_ct control: %u\n", r);
	return 0;
}

int main(int argc, char **argv)
{
	if (!RUNNING_ON_VALGRIND) {
		printf("mlkem_ct: must run under valgrind --tool=memcheck\n");
		return 2;
	}
	if (argc == 2 && !strcmp(argv[1], "real"))
		return run_real();
	if (argc == 2 && !strcmp(argv[1], "control"))
		return run_control();
	printf("usage: valgrind --tool=memcheck mlkem_ct real|control\n");
	return 2;
}
