/* SPDX-License-Identifier: GPL-2.0 */
/* The suites of noise_tunnel_kunit.ko, one file each. */
#ifndef _NOISE_TUNNEL_TEST_H
#define _NOISE_TUNNEL_TEST_H

#include <kunit/test.h>

extern struct kunit_suite tt_lookup_suite;
extern struct kunit_suite tt_dump_suite;

#endif /* _NOISE_TUNNEL_TEST_H */
