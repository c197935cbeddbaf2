// SPDX-License-Identifier: GPL-2.0
/*
 * Placeholder until the X448 implementation lands: every call fails, so the
 * engine refuses 448 suites rather than mis-running them.
 */
#include <linux/export.h>
#include <linux/random.h>
#include <linux/string.h>
#include "x448.h"

bool noise_x448(u8 out[X448_KEY_SIZE], const u8 scalar[X448_KEY_SIZE],
		const u8 point[X448_KEY_SIZE])
{
	memset(out, 0, X448_KEY_SIZE);
	return false;
}
EXPORT_SYMBOL_GPL(noise_x448);

bool noise_x448_generate_public(u8 pub[X448_KEY_SIZE], const u8 secret[X448_KEY_SIZE])
{
	memset(pub, 0, X448_KEY_SIZE);
	return false;
}
EXPORT_SYMBOL_GPL(noise_x448_generate_public);

void noise_x448_generate_secret(u8 secret[X448_KEY_SIZE])
{
	get_random_bytes(secret, X448_KEY_SIZE);
}
EXPORT_SYMBOL_GPL(noise_x448_generate_secret);
