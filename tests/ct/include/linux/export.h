/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for tests/ct/: symbol exports are plain declarations. */
#ifndef _NOISE_CT_SHIM_EXPORT_H
#define _NOISE_CT_SHIM_EXPORT_H

#define EXPORT_SYMBOL_GPL(sym) extern __typeof__(sym) sym

#endif /* _NOISE_CT_SHIM_EXPORT_H */
