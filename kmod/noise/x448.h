/* SPDX-License-Identifier: GPL-2.0 */
/*
 * X448 (RFC 7748) Diffie-Hellman on Curve448, constant time.
 */
#ifndef _NOISE_X448_H
#define _NOISE_X448_H

#include <linux/types.h>

#define X448_KEY_SIZE 56

/**
 * noise_x448() - X448 scalar multiplication: @out = X448(@scalar, @point).
 * @out: 56-byte u-coordinate result.
 * @scalar: 56-byte secret, clamped internally as RFC 7748 says.
 * @point: 56-byte u-coordinate, decoded modulo p as RFC 7748 says.
 *
 * Constant time in @scalar and @point. @out may alias either input.
 *
 * Return: false when the result is all zero (a low-order @point); @out then
 * holds zeros and must not be used as a shared secret.
 */
bool __must_check noise_x448(u8 out[X448_KEY_SIZE], const u8 scalar[X448_KEY_SIZE],
			     const u8 point[X448_KEY_SIZE]);

/**
 * noise_x448_generate_public() - the public key of @secret (X448 with u = 5).
 * @pub: 56-byte public key.
 * @secret: 56-byte secret key.
 *
 * Return: false if the result is all zero (cannot happen: 5 has large order).
 */
bool __must_check noise_x448_generate_public(u8 pub[X448_KEY_SIZE],
					     const u8 secret[X448_KEY_SIZE]);

/**
 * noise_x448_generate_secret() - a fresh random secret key, already clamped.
 * @secret: 56 bytes to fill.
 */
void noise_x448_generate_secret(u8 secret[X448_KEY_SIZE]);

/* Zero the stack the last scalar multiplication used (NOISE_INTERNAL). */
void noise_x448_wipe_stack(void);

#endif /* _NOISE_X448_H */
