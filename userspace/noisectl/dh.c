// SPDX-License-Identifier: GPL-2.0
/*
 * X25519 and X448 through OpenSSL's EVP_PKEY raw-key interface; private
 * keys come straight from getrandom().
 */
#include <string.h>
#include <sys/random.h>
#include <openssl/evp.h>

#include "dh.h"
#include "encoding.h"

static const struct dh_func dh_funcs[] = {
	{ "25519", 32, EVP_PKEY_X25519 },
	{ "448", 56, EVP_PKEY_X448 },
};

const struct dh_func *dh_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dh_funcs); i++)
		if (!strcmp(dh_funcs[i].name, name))
			return &dh_funcs[i];
	return NULL;
}

const struct dh_func *dh_by_b64_len(size_t chars)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dh_funcs); i++)
		if (B64_LEN(dh_funcs[i].len) == chars)
			return &dh_funcs[i];
	return NULL;
}

bool dh_generate(const struct dh_func *dh, u8 *priv)
{
	size_t got = 0;

	while (got < dh->len) {
		ssize_t r = getrandom(priv + got, dh->len - got, 0);

		if (r < 0)
			return false;
		got += r;
	}
	return true;
}

bool dh_public(const struct dh_func *dh, u8 *pub, const u8 *priv)
{
	EVP_PKEY *key;
	size_t len = dh->len;
	bool ok;

	key = EVP_PKEY_new_raw_private_key(dh->pkey_type, NULL, priv, dh->len);
	if (!key)
		return false;
	ok = EVP_PKEY_get_raw_public_key(key, pub, &len) == 1 && len == dh->len;
	EVP_PKEY_free(key);
	return ok;
}
