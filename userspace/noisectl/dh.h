/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DH functions of Noise (25519, 448) for key generation in userspace.
 */
#ifndef NOISECTL_DH_H
#define NOISECTL_DH_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

struct dh_func {
	const char *name;	/* "25519" or "448", as in protocol names */
	size_t len;		/* DHLEN: key length in bytes */
	int pkey_type;		/* OpenSSL EVP_PKEY_X25519 / EVP_PKEY_X448 */
};

const struct dh_func *dh_by_name(const char *name);
const struct dh_func *dh_by_b64_len(size_t chars);
bool random_bytes(u8 *out, size_t len);
bool dh_generate(const struct dh_func *dh, u8 *priv);
bool dh_public(const struct dh_func *dh, u8 *pub, const u8 *priv);
const struct dh_func *dh_by_len(size_t len);

/*
 * From a protocol name Noise_<pattern>_<dh>_<cipher>_<hash>: its DH (NULL
 * if unknown) and its number of psk tokens.
 */
const struct dh_func *dh_by_protocol(const char *protocol);
int protocol_psk_tokens(const char *protocol);

#endif
