/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for tests/ct/: nothing to export in a plain program. */
#ifndef _NOISE_CT_SHIM_EXPORT_H
#define _NOISE_CT_SHIM_EXPORT_H

#include <assert.h>

/* Expands to a harmless declaration, so the ';' after it stays valid. */
#define EXPORT_SYMBOL_GPL(sym) static_assert(1, #sym)
/* The same for an export in a symbol namespace. */
#define EXPORT_SYMBOL_NS_GPL(sym, ns) static_assert(sizeof(#ns), #sym)

#endif /* _NOISE_CT_SHIM_EXPORT_H */
