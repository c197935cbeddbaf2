/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for tests/ct/: the kernel's value barrier. */
#ifndef _NOISE_CT_SHIM_COMPILER_H
#define _NOISE_CT_SHIM_COMPILER_H

/* Like the kernel's: the compiler forgets what it knew of @var's value. */
#define OPTIMIZER_HIDE_VAR(var) ({ __asm__ ("" : "+r" (var)); })

#endif /* _NOISE_CT_SHIM_COMPILER_H */
