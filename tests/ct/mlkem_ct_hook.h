/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included first (-include) in the constant-time build of mlkem.c only:
 * rho, public but computed from the secret seed in KeyGen, becomes
 * "defined" for memcheck, so the rejection sampling on it is not reported.
 */
#include <valgrind/memcheck.h>

#define noise_mlkem_declassify(p, len) VALGRIND_MAKE_MEM_DEFINED(p, len)
