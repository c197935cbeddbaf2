// SPDX-License-Identifier: GPL-2.0
/*
 * DH functions: X25519 from the kernel's curve25519 library and X448 from
 * x448.h. An all-zero shared secret (a low-order public key) is refused
 * with -EINVAL for both curves, so invalid keys are handled uniformly.
 */

#include <crypto/curve25519.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include "dh.h"
#include "x448.h"

/**
 * noise_dh_len() - DHLEN of a DH function.
 * @dh: the DH function.
 * Return: 32 for 25519, 56 for 448.
 */
unsigned int noise_dh_len(enum noise_dh_id dh)
{
	return dh == NOISE_DH_448 ? X448_KEY_SIZE : CURVE25519_KEY_SIZE;
}
EXPORT_SYMBOL_GPL(noise_dh_len);

/**
 * noise_dh_public() - derive the public key of a private key.
 * @dh: the DH function.
 * @pub: DHLEN bytes out.
 * @priv: DHLEN-byte private key.
 *
 * Context: any.
 * Return: 0; -EINVAL if the result is all zero.
 */
int noise_dh_public(enum noise_dh_id dh, u8 *pub, const u8 *priv)
{
	if (dh == NOISE_DH_448)
		return noise_x448_generate_public(pub, priv) ? 0 : -EINVAL;
	return curve25519_generate_public(pub, priv) ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(noise_dh_public);

/**
 * noise_dh_generate() - GENERATE_KEYPAIR(): a fresh random key pair.
 * @dh: the DH function.
 * @priv: DHLEN bytes out, the private key.
 * @pub: DHLEN bytes out, the public key.
 *
 * Context: any.
 * Return: 0 or the error of noise_dh_public(); @priv is wiped on error.
 */
int noise_dh_generate(enum noise_dh_id dh, u8 *priv, u8 *pub)
{
	int err;

	if (dh == NOISE_DH_448)
		noise_x448_generate_secret(priv);
	else
		curve25519_generate_secret(priv);
	err = noise_dh_public(dh, pub, priv);
	if (err)
		memzero_explicit(priv, noise_dh_len(dh));
	return err;
}
EXPORT_SYMBOL_GPL(noise_dh_generate);

/**
 * noise_dh_shared() - DH(priv, pub): a shared secret.
 * @dh: the DH function.
 * @out: DHLEN bytes out.
 * @priv: our private key.
 * @pub: the peer's public key.
 *
 * What the ss token computes from two static keys: a caller that
 * handshakes with one peer often computes it once and passes it
 * (noise_keys.precomputed_ss, noise_handshake_set_precomputed_ss()).
 * Context: any; never sleeps.
 * Return: 0; -EINVAL when the output is all zero (low-order @pub), @out is
 * then zeroed.
 */
int noise_dh_shared(enum noise_dh_id dh, u8 *out, const u8 *priv, const u8 *pub)
{
	bool ok;

	if (dh == NOISE_DH_448)
		ok = noise_x448(out, priv, pub);
	else
		ok = curve25519(out, priv, pub);
	if (!ok) {
		memzero_explicit(out, noise_dh_len(dh));
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(noise_dh_shared);
