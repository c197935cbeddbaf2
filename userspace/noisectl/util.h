/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NOISECTL_UTIL_H
#define NOISECTL_UTIL_H

#include <linux/types.h>

typedef __u8 u8;
typedef __u32 u32;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
