/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim for tests/ct/: just enough of the kernel's types and
 * compiler attributes for kmod/noise/x448.c to compile unmodified as a
 * plain program. The system's <linux/types.h> gives the __uN types.
 */
#ifndef _NOISE_CT_SHIM_TYPES_H
#define _NOISE_CT_SHIM_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/cdefs.h>	/* __always_inline, __attribute_noinline__ */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#ifdef __SIZEOF_INT128__
/* A macro, not a typedef: the kernel's own u128 is the same type. */
#define u128 unsigned __int128
#endif

#if defined(__LP64__) && !defined(CONFIG_64BIT)
#define CONFIG_64BIT 1
#endif

#define __must_check __attribute__((__warn_unused_result__))
#define noinline __attribute_noinline__
#define noinline_for_stack noinline
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* _NOISE_CT_SHIM_TYPES_H */
