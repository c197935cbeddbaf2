/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for tests/ct/: libc string functions and memzero_explicit. */
#ifndef _NOISE_CT_SHIM_STRING_H
#define _NOISE_CT_SHIM_STRING_H

#include <string.h>

/* Like the kernel's: a memset the compiler may not drop. */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

/* Like the kernel's (linux/compiler.h): @ptr's memory is used. */
static inline void barrier_data(void *ptr)
{
	__asm__ __volatile__("" : : "r"(ptr) : "memory");
}

#endif /* _NOISE_CT_SHIM_STRING_H */
