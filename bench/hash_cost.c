// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: unit costs of a handshake's SymmetricState work, for the
 * counted breakdown: the engine's own HASH and HKDF code (noise_hash() and
 * noise_hkdf(), exported to the project's modules in the NOISE_INTERNAL
 * namespace, noise_internal.h, on the engine's shared hash tfms), the
 * engine's cipher state sealing a handshake-sized message, and a new key on
 * the engine's AEAD driver.
 */

#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "noise_internal.h"

#include "bench.h"
#include "bench_engine.h"

MODULE_IMPORT_NS(NOISE_INTERNAL);

static const char * const hash_names[NOISE_HASH_COUNT] = {
	[NOISE_HASH_SHA256] = "SHA256", [NOISE_HASH_SHA512] = "SHA512",
	[NOISE_HASH_BLAKE2S] = "BLAKE2s", [NOISE_HASH_BLAKE2B] = "BLAKE2b",
};

struct hash_ctx {
	u8 id;
	u8 h[NOISE_MAX_HASHLEN], ck[NOISE_MAX_HASHLEN], in[NOISE_MAX_DHLEN];
	u8 o1[NOISE_MAX_HASHLEN], o2[NOISE_MAX_HASHLEN], o3[NOISE_MAX_HASHLEN];
};

/* MixHash of a 32-byte public key: h = HASH(h || data). */
static int hash_mixhash(void *p)
{
	struct hash_ctx *c = p;

	noise_hash(c->id, c->h, c->h, noise_hash_len(c->id), c->in, 32);
	return 0;
}

/* MixKey's HKDF(ck, 32-byte DH output, 2). */
static int hash_hkdf2(void *p)
{
	struct hash_ctx *c = p;

	noise_hkdf(c->id, c->ck, c->in, 32, c->o1, c->o2, NULL);
	return 0;
}

/* MixKeyAndHash's HKDF(ck, psk, 3). */
static int hash_hkdf3(void *p)
{
	struct hash_ctx *c = p;

	noise_hkdf(c->id, c->ck, c->in, 32, c->o1, c->o2, c->o3);
	return 0;
}

static int hash_one(struct hash_ctx *c, const char *op, bench_fn fn)
{
	struct bench_stats st;
	char keys[48];
	int err;

	snprintf(keys, sizeof(keys), "hash=%s op=%s", hash_names[c->id], op);
	err = bench_measure_fn(fn, c, bench_dh_iters, &st);
	if (err) {
		bench_note("error prim_hash %s err=%d", keys, err);
		return err;
	}
	bench_report("prim_hash", keys, &st);
	return 0;
}

int bench_hash_prims_run(void)
{
	struct hash_ctx *c;
	int err = 0;
	u8 id;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	get_random_bytes(c, sizeof(*c));
	for (id = 0; id < NOISE_HASH_COUNT && !err; id++) {
		if (!noise_hash_available(id)) {
			bench_note("unavailable prim_hash hash=%s", hash_names[id]);
			continue;
		}
		c->id = id;
		err = hash_one(c, "mixhash", hash_mixhash);
		if (!err)
			err = hash_one(c, "hkdf2", hash_hkdf2);
		if (!err)
			err = hash_one(c, "hkdf3", hash_hkdf3);
	}
	kfree_sensitive(c);
	return err;
}
