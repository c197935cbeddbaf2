/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NOISECTL_UTIL_H
#define NOISECTL_UTIL_H

#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef unsigned long long u64;	/* printed with %llu */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The program's name in messages ("noisectl"). */
extern const char *prog;

/* Print "out of memory" and exit(1). */
void die_oom(void);

#endif
