// SPDX-License-Identifier: GPL-2.0
/*
 * The preshared-key fingerprint, as the kernel computes it for
 * NOISE_A_PEER_PSK_ID (Documentation/netlink.rst):
 *
 *   k      = BLAKE2s-256("noise psk id" || peer public key)
 *   PSK_ID = BLAKE2s(outlen 16, key k, n (one byte) || psk[0] .. psk[n-1])
 *
 * with psk[] one key per psk token of the protocol.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "pskid.h"

#define PSK_ID_LABEL "noise psk id"

bool blake2s_keyed(u8 *out, size_t outlen, const u8 *key, size_t keylen,
		   const u8 *in, size_t inlen)
{
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outlen),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "BLAKE2SMAC", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	size_t got = 0;
	bool ok;

	ok = ctx && EVP_MAC_init(ctx, key, keylen, params) == 1 &&
	     EVP_MAC_update(ctx, in, inlen) == 1 &&
	     EVP_MAC_final(ctx, out, &got, outlen) == 1 && got == outlen;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok;
}

bool psk_id(u8 out[NOISE_PSK_ID_LEN], const u8 *pub, size_t len,
	    const u8 (*psks)[NOISE_PSK_KEY_LEN], int n)
{
	u8 label[sizeof(PSK_ID_LABEL) - 1 + 64];
	u8 msg[1 + NOISE_PEER_PSK_MAX * NOISE_PSK_KEY_LEN];
	u8 k[32];
	unsigned int klen = sizeof(k);
	bool ok;

	if (len > 64 || n < 0 || n > NOISE_PEER_PSK_MAX)
		return false;
	memcpy(label, PSK_ID_LABEL, sizeof(PSK_ID_LABEL) - 1);
	memcpy(label + sizeof(PSK_ID_LABEL) - 1, pub, len);
	if (EVP_Digest(label, sizeof(PSK_ID_LABEL) - 1 + len, k, &klen,
		       EVP_blake2s256(), NULL) != 1 || klen != sizeof(k))
		return false;
	msg[0] = (u8)n;
	memcpy(msg + 1, psks, (size_t)n * NOISE_PSK_KEY_LEN);
	ok = blake2s_keyed(out, NOISE_PSK_ID_LEN, k, sizeof(k), msg,
			   1 + (size_t)n * NOISE_PSK_KEY_LEN);
	explicit_bzero(msg, sizeof(msg));
	explicit_bzero(k, sizeof(k));
	return ok;
}
