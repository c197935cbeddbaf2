/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for tests/ct/: get_random_bytes() from getrandom(2). */
#ifndef _NOISE_CT_SHIM_RANDOM_H
#define _NOISE_CT_SHIM_RANDOM_H

#include <stdlib.h>
#include <sys/random.h>

static inline void get_random_bytes(void *buf, size_t len)
{
	if (getrandom(buf, len, 0) != (ssize_t)len)
		abort();
}

#endif /* _NOISE_CT_SHIM_RANDOM_H */
