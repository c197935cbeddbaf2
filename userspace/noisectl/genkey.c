// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl genkey [25519|448]: print a new private key in base64.
 */
#include <stdio.h>
#include <string.h>

#include "dh.h"
#include "encoding.h"
#include "subcommands.h"

int genkey_main(int argc, char *argv[])
{
	u8 key[NOISE_MAX_KEY_LEN];
	char b64[B64_LEN(NOISE_MAX_KEY_LEN) + 1];
	const struct dh_func *dh;

	if (argc > 2) {
		fprintf(stderr, "Usage: %s %s [25519|448]\n", prog, argv[0]);
		return 1;
	}
	dh = dh_by_name(argc == 2 ? argv[1] : "25519");
	if (!dh) {
		fprintf(stderr, "%s: unknown DH function '%s' (25519 or 448)\n", prog, argv[1]);
		return 1;
	}
	if (!dh_generate(dh, key)) {
		perror("getrandom");
		return 1;
	}
	key_to_base64(b64, key, dh->len);
	explicit_bzero(key, sizeof(key));
	puts(b64);
	explicit_bzero(b64, sizeof(b64));
	return 0;
}
