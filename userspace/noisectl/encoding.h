/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base64 for keys, decoded in constant time: no branch or table index
 * depends on the key's characters.
 */
#ifndef NOISECTL_ENCODING_H
#define NOISECTL_ENCODING_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

#define NOISE_MAX_KEY_LEN 56
#define B64_LEN(n) ((((n) + 2) / 3) * 4)

void key_to_base64(char *out, const u8 *key, size_t len);
bool key_from_base64(u8 *key, size_t len, const char *in);
/*
 * The constant-time part: in holds exactly B64_LEN(len) characters (the
 * length is public); what it returns (valid or not) is public too.
 */
bool key_from_base64_ct(u8 *key, size_t len, const char *in);

#endif
