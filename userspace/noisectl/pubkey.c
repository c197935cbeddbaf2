// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl pubkey [--dh 25519|448]: read a base64 private key on stdin,
 * print its public key. Without --dh the DH function follows from the
 * key's length (44 characters: 25519, 76: 448).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dh.h"
#include "encoding.h"
#include "ossl.h"
#include "subcommands.h"

int pubkey_main(int argc, char *argv[])
{
	u8 priv[NOISE_MAX_KEY_LEN], pub[NOISE_MAX_KEY_LEN];
	char b64[B64_LEN(NOISE_MAX_KEY_LEN) + 2];
	const struct dh_func *dh, *want;
	int ret = 1;
	size_t n;
	int bad;

	want = dh_arg(argc, argv, &bad);
	if (bad == 1)
		fprintf(stderr, "Usage: %s %s [--dh 25519|448] < private.key\n",
			prog, argv[0]);
	if (bad)
		return 1;
	n = fread(b64, 1, sizeof(b64) - 1, stdin);
	b64[n] = '\0';
	while (n && isspace((unsigned char)b64[n - 1]))
		b64[--n] = '\0';
	dh = dh_by_b64_len(n);
	if (!dh || !key_from_base64(priv, dh->len, b64)) {
		fprintf(stderr, "%s: stdin is not a base64 25519 or 448 private key\n",
			prog);
		goto out;
	}
	if (want && want != dh) {
		fprintf(stderr, "%s: stdin is a %s private key, not %s\n", prog,
			dh->name, want->name);
		goto out;
	}
	if (ossl_load()) {
		fprintf(stderr, "%s: cannot derive the %s public key: %s\n", prog,
			dh->name, ossl_load());
		goto out;
	}
	if (!dh_public(dh, pub, priv)) {
		fprintf(stderr, "%s: cannot derive the %s public key\n", prog,
			dh->name);
		goto out;
	}
	key_to_base64(b64, pub, dh->len);
	puts(b64);
	ret = 0;
out:
	explicit_bzero(priv, sizeof(priv));
	explicit_bzero(b64, sizeof(b64));
	return ret;
}
