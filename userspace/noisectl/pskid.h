/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NOISE_A_PEER_PSK_ID computed locally, to compare a config's preshared
 * keys with the kernel's write-only ones (syncconf).
 */
#ifndef NOISECTL_PSKID_H
#define NOISECTL_PSKID_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/noise.h>

#include "util.h"

/*
 * The fingerprint of psks (n keys, already one per psk token) of the peer
 * with public key pub (len bytes). False if the hash is unavailable.
 */
bool psk_id(u8 out[NOISE_PSK_ID_LEN], const u8 *pub, size_t len,
	    const u8 (*psks)[NOISE_PSK_KEY_LEN], int n);

/* BLAKE2s with a key (keylen 1..32) and an output of outlen (1..32) bytes. */
bool blake2s_keyed(u8 *out, size_t outlen, const u8 *key, size_t keylen,
		   const u8 *in, size_t inlen);

#endif
