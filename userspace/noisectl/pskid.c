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

#include "ossl.h"
#include "pskid.h"

#define PSK_ID_LABEL "noise psk id"

bool blake2s_keyed(u8 *out, size_t outlen, const u8 *key, size_t keylen,
		   const u8 *in, size_t inlen)
{
	OSSL_PARAM params[] = {
		OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, &outlen),
		OSSL_PARAM_END
	};
	EVP_MAC_CTX *ctx = NULL;
	EVP_MAC *mac;
	size_t got = 0;
	bool ok;

	if (ossl_load())
		return false;
	mac = ossl.evp_mac_fetch(NULL, "BLAKE2SMAC", NULL);
	if (mac)
		ctx = ossl.evp_mac_ctx_new(mac);
	ok = ctx && ossl.evp_mac_init(ctx, key, keylen, params) == 1 &&
	     ossl.evp_mac_update(ctx, in, inlen) == 1 &&
	     ossl.evp_mac_final(ctx, out, &got, outlen) == 1 && got == outlen;
	ossl.evp_mac_ctx_free(ctx);
	ossl.evp_mac_free(mac);
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

	if (len > 64 || n < 0 || n > NOISE_PEER_PSK_MAX || ossl_load())
		return false;
	memcpy(label, PSK_ID_LABEL, sizeof(PSK_ID_LABEL) - 1);
	memcpy(label + sizeof(PSK_ID_LABEL) - 1, pub, len);
	if (ossl.evp_digest(label, sizeof(PSK_ID_LABEL) - 1 + len, k, &klen,
			    ossl.evp_blake2s256(), NULL) != 1 || klen != sizeof(k))
		return false;
	msg[0] = (u8)n;
	memcpy(msg + 1, psks, (size_t)n * NOISE_PSK_KEY_LEN);
	ok = blake2s_keyed(out, NOISE_PSK_ID_LEN, k, sizeof(k), msg,
			   1 + (size_t)n * NOISE_PSK_KEY_LEN);
	explicit_bzero(msg, sizeof(msg));
	explicit_bzero(k, sizeof(k));
	return ok;
}
