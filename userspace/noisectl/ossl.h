/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OpenSSL's libcrypto, loaded the first time a command needs it (public
 * keys, BLAKE2s): most runs (set, show, a device's whole config) never
 * do, and a short-lived noisectl then starts without mapping and
 * relocating it.
 */
#ifndef NOISECTL_OSSL_H
#define NOISECTL_OSSL_H

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/* Every libcrypto function noisectl calls, by its name in lower case. */
struct ossl_funcs {
	typeof(EVP_PKEY_new_raw_private_key) *evp_pkey_new_raw_private_key;
	typeof(EVP_PKEY_get_raw_public_key) *evp_pkey_get_raw_public_key;
	typeof(EVP_PKEY_free) *evp_pkey_free;
	typeof(EVP_MAC_fetch) *evp_mac_fetch;
	typeof(EVP_MAC_CTX_new) *evp_mac_ctx_new;
	typeof(EVP_MAC_init) *evp_mac_init;
	typeof(EVP_MAC_update) *evp_mac_update;
	typeof(EVP_MAC_final) *evp_mac_final;
	typeof(EVP_MAC_CTX_free) *evp_mac_ctx_free;
	typeof(EVP_MAC_free) *evp_mac_free;
	typeof(EVP_Digest) *evp_digest;
	typeof(EVP_blake2s256) *evp_blake2s256;
};

extern struct ossl_funcs ossl;

/* The library's file name, as the dynamic loader finds it. */
#define OSSL_SONAME "libcrypto.so.3"

/*
 * Load libcrypto and fill in ossl (the first call does; later calls
 * return its outcome). Return: NULL, or why it cannot be used.
 */
const char *ossl_load(void);

#endif
