// SPDX-License-Identifier: GPL-2.0
/*
 * X25519 and X448 through OpenSSL's EVP_PKEY raw-key interface (libcrypto
 * loaded on first use, ossl.h); private keys come straight from
 * getrandom().
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>
#include "dh.h"
#include "encoding.h"
#include "ossl.h"

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

bool random_bytes(u8 *out, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = getrandom(out + got, len - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return false;
		got += r;
	}
	return true;
}

bool dh_generate(const struct dh_func *dh, u8 *priv)
{
	return random_bytes(priv, dh->len);
}

bool dh_public(const struct dh_func *dh, u8 *pub, const u8 *priv)
{
	EVP_PKEY *key;
	size_t len = dh->len;
	bool ok;

	if (ossl_load())
		return false;
	key = ossl.evp_pkey_new_raw_private_key(dh->pkey_type, NULL, priv, dh->len);
	if (!key)
		return false;
	ok = ossl.evp_pkey_get_raw_public_key(key, pub, &len) == 1 && len == dh->len;
	ossl.evp_pkey_free(key);
	return ok;
}

const struct dh_func *dh_by_len(size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dh_funcs); i++)
		if (dh_funcs[i].len == len)
			return &dh_funcs[i];
	return NULL;
}

/* Copy the n-th '_'-separated field of protocol into out. A profile
 * ("WireGuard") stands for the Noise protocol it runs.
 */
static bool protocol_field(const char *protocol, int n, char *out, size_t len)
{
	const char *p = protocol, *end;

	if (!strcmp(protocol, PROFILE_WIREGUARD))
		p = PROFILE_WIREGUARD_NOISE;

	while (n--) {
		p = strchr(p, '_');
		if (!p)
			return false;
		p++;
	}
	end = strchr(p, '_');
	if (!end)
		end = p + strlen(p);
	if ((size_t)(end - p) >= len)
		return false;
	memcpy(out, p, end - p);
	out[end - p] = '\0';
	return true;
}

const struct dh_func *dh_by_protocol(const char *protocol)
{
	char field[32], *kem;

	if (!protocol_field(protocol, 2, field, sizeof(field)))
		return NULL;
	kem = strchr(field, '+');	/* hfs: "<dh>+<kem>"; keys are the DH's */
	if (kem)
		*kem = '\0';
	return dh_by_name(field);
}

int protocol_psk_tokens(const char *protocol)
{
	char pattern[64];
	const char *p;
	int n = 0;

	if (!protocol_field(protocol, 1, pattern, sizeof(pattern)))
		return 0;
	for (p = pattern; (p = strstr(p, "psk")); p += 3)
		n++;
	return n;
}
