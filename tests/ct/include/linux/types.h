/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim for tests/ct/: just enough of the kernel's types for
 * kmod/noise/x448.c to compile unmodified as a plain program.
 */
#ifndef _NOISE_CT_SHIM_TYPES_H
#define _NOISE_CT_SHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;
#endif

#if defined(__LP64__) && !defined(CONFIG_64BIT)
#define CONFIG_64BIT 1
#endif

#define __must_check __attribute__((warn_unused_result))

#endif /* _NOISE_CT_SHIM_TYPES_H */
