// SPDX-License-Identifier: GPL-2.0
/*
 * libcrypto on first use (ossl.h). The handle is never closed: the
 * library stays until the process exits, as a linked one would.
 */
#include <assert.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ossl.h"
#include "util.h"

struct ossl_funcs ossl;

static const struct {
	const char *name;
	size_t offset;		/* of its pointer in struct ossl_funcs */
} ossl_symbols[] = {
	{ "EVP_PKEY_new_raw_private_key",
	  offsetof(struct ossl_funcs, evp_pkey_new_raw_private_key) },
	{ "EVP_PKEY_get_raw_public_key",
	  offsetof(struct ossl_funcs, evp_pkey_get_raw_public_key) },
	{ "EVP_PKEY_free",
	  offsetof(struct ossl_funcs, evp_pkey_free) },
	{ "EVP_MAC_fetch",
	  offsetof(struct ossl_funcs, evp_mac_fetch) },
	{ "EVP_MAC_CTX_new",
	  offsetof(struct ossl_funcs, evp_mac_ctx_new) },
	{ "EVP_MAC_init",
	  offsetof(struct ossl_funcs, evp_mac_init) },
	{ "EVP_MAC_update",
	  offsetof(struct ossl_funcs, evp_mac_update) },
	{ "EVP_MAC_final",
	  offsetof(struct ossl_funcs, evp_mac_final) },
	{ "EVP_MAC_CTX_free",
	  offsetof(struct ossl_funcs, evp_mac_ctx_free) },
	{ "EVP_MAC_free",
	  offsetof(struct ossl_funcs, evp_mac_free) },
	{ "EVP_Digest",
	  offsetof(struct ossl_funcs, evp_digest) },
	{ "EVP_blake2s256",
	  offsetof(struct ossl_funcs, evp_blake2s256) },
};

static_assert(ARRAY_SIZE(ossl_symbols) * sizeof(void *) == sizeof(struct ossl_funcs),
	      "every function of struct ossl_funcs is in ossl_symbols");

static const char *ossl_try(void)
{
	static char why[256];
	size_t i;
	void *h;

	h = dlopen(OSSL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, sizeof(why), "%s", dlerror());
		return why;
	}
	for (i = 0; i < ARRAY_SIZE(ossl_symbols); i++) {
		void *f = dlsym(h, ossl_symbols[i].name);

		if (!f) {
			snprintf(why, sizeof(why), "%s: no symbol %s",
				 OSSL_SONAME, ossl_symbols[i].name);
			return why;
		}
		/* POSIX: a function pointer has the size of a void *. */
		memcpy((char *)&ossl + ossl_symbols[i].offset, &f, sizeof(f));
	}
	return NULL;
}

const char *ossl_load(void)
{
	static const char *outcome;
	static int tried;

	if (!tried) {
		outcome = ossl_try();
		tried = 1;
	}
	return outcome;
}
