/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DH functions (rev 34 sections 4.1, 12.1, 12.2): 25519 and 448.
 */
#ifndef _NOISE_DH_H
#define _NOISE_DH_H

#include "noise.h"

/* noise_dh_shared() and the key pair calls are declared in noise.h. */

#endif /* _NOISE_DH_H */
