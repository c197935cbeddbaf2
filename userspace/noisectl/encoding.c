// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time base64 of keys. Each character is mapped with arithmetic on
 * range masks instead of lookups or comparisons, so that the time taken
 * says nothing about the key.
 */
#include <string.h>

#include "encoding.h"

/* All ones if lo <= c <= hi, else zero; c, lo and hi are small. */
static int in_range(int c, int lo, int hi)
{
	return ((lo - 1 - c) & (c - (hi + 1))) >> 8;
}

static char encode_6bits(int v)
{
	int c = v + 'A';

	c += in_range(v, 26, 51) & ('a' - 'A' - 26);
	c += in_range(v, 52, 61) & ('0' - 'A' - 52);
	c += in_range(v, 62, 62) & ('+' - 'A' - 62);
	c += in_range(v, 63, 63) & ('/' - 'A' - 63);
	return (char)c;
}

/* The 6-bit value of c, or -1 for a character outside the alphabet. */
static int decode_6bits(int c)
{
	int v = -1;

	v += in_range(c, 'A', 'Z') & (c - 'A' + 1);
	v += in_range(c, 'a', 'z') & (c - 'a' + 26 + 1);
	v += in_range(c, '0', '9') & (c - '0' + 52 + 1);
	v += in_range(c, '+', '+') & (62 + 1);
	v += in_range(c, '/', '/') & (63 + 1);
	return v;
}

void key_to_base64(char *out, const u8 *key, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i += 3) {
		u32 w = (u32)key[i] << 16;
		size_t left = len - i;

		if (left > 1)
			w |= (u32)key[i + 1] << 8;
		if (left > 2)
			w |= key[i + 2];
		out[o++] = encode_6bits((w >> 18) & 63);
		out[o++] = encode_6bits((w >> 12) & 63);
		out[o++] = left > 1 ? encode_6bits((w >> 6) & 63) : '=';
		out[o++] = left > 2 ? encode_6bits(w & 63) : '=';
	}
	out[o] = '\0';
}

/*
 * Decode exactly B64_LEN(len) characters into len bytes. The length and the
 * padding are public; only the key characters are treated as secret.
 */
bool key_from_base64(u8 *key, size_t len, const char *in)
{
	if (strlen(in) != B64_LEN(len))
		return false;
	return key_from_base64_ct(key, len, in);
}

bool key_from_base64_ct(u8 *key, size_t len, const char *in)
{
	size_t i, o = 0, pad = (3 - len % 3) % 3;
	size_t chars = B64_LEN(len);
	int bad = 0;

	for (i = 0; i < chars; i += 4) {
		int v[4], k;
		u32 w;

		for (k = 0; k < 4; k++) {
			if (i + k >= chars - pad) {
				v[k] = 0;
				bad |= in[i + k] != '=';
				continue;
			}
			v[k] = decode_6bits((unsigned char)in[i + k]);
			bad |= v[k] >> 31;
		}
		w = (u32)v[0] << 18 | (u32)v[1] << 12 |
		    (u32)v[2] << 6 | (u32)v[3];
		key[o++] = (w >> 16) & 0xff;
		if (o < len)
			key[o++] = (w >> 8) & 0xff;
		else
			bad |= (w >> 8) & 0xff;	/* non-canonical: stray bits */
		if (o < len)
			key[o++] = w & 0xff;
		else
			bad |= w & 0xff;
	}
	return !bad;
}
