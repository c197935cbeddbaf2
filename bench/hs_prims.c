// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: the unit costs beside the handshake rows: key pair generation
 * through the engine, and the handshake's AEAD operations (one seal, one new
 * key, one transport cipher state made and freed).
 */

#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "bench.h"
#include "bench_engine.h"
#include "noise.h"
#include "noise_internal.h"
#include "symmetric.h"

static const char * const prim_dh_names[] = { "25519", "448" };

struct keygen_ctx {
	enum noise_dh_id dh;
	u8 priv[NOISE_MAX_DHLEN], pub[NOISE_MAX_DHLEN];
};

static int keygen_once(void *p)
{
	struct keygen_ctx *k = p;

	return noise_dh_generate(k->dh, k->priv, k->pub);
}

int bench_hs_keygen(unsigned int curve)
{
	enum noise_dh_id dh = curve ? NOISE_DH_448 : NOISE_DH_25519;
	struct keygen_ctx k = { .dh = dh };
	struct bench_op op = { .fn = keygen_once, .ctx = &k };
	char keys[48];
	int err;

	snprintf(keys, sizeof(keys), "curve=%s impl=engine", prim_dh_names[!!curve]);
	err = bench_measure_beside_dh(&op, !!curve, bench_dh_iters, "keygen", keys);
	memzero_explicit(&k, sizeof(k));
	if (err == -EOPNOTSUPP) {
		bench_note("unavailable keygen %s reason=448_unavailable", keys);
		return 0;
	}
	return err;
}

struct seal_ctx {
	struct noise_hs_cipher cs;
	u8 key[NOISE_KEY_LEN];
	u8 ad[NOISE_MAX_HASHLEN];
	u8 buf[NOISE_MAX_DHLEN + NOISE_TAG_LEN];
};

/* EncryptAndHash of a 32-byte static key: AD = h, in place. */
static int seal_once(void *p)
{
	struct seal_ctx *s = p;

	s->cs.n = 0;
	return noise_hs_cipher_crypt(&s->cs, true, s->ad, 32, s->buf, s->buf, 32);
}

/* InitializeKey() of the handshake's CipherState: the key is copied. */
static int hs_setkey_once(void *p)
{
	struct seal_ctx *s = p;

	memcpy(s->cs.k, s->key, NOISE_KEY_LEN);
	s->cs.n = 0;
	s->cs.has_key = true;
	return 0;
}

/* A transport cipher state made and freed, as Split() makes two per side. */
static int state_once(void *p)
{
	struct seal_ctx *s = p;
	struct noise_cipher *c;

	c = noise_cipher_new(s->cs.id, s->key, GFP_KERNEL);
	if (IS_ERR(c))
		return PTR_ERR(c);
	noise_cipher_free(c);
	return 0;
}

/*
 * The handshake's AEAD unit costs, per cipher: one seal and one new key of
 * the handshake's CipherState, which runs on the crypto library
 * (hs_cipher.c, exported to the project's modules in NOISE_INTERNAL).
 */
int bench_hs_aead_prims(unsigned int id)
{
	struct bench_op seal = { .fn = seal_once }, setkey = { .fn = hs_setkey_once };
	struct bench_op state = { .fn = state_once };
	struct bench_stats st, sk, sn;
	struct seal_ctx *s;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	get_random_bytes(s->key, sizeof(s->key));
	s->cs.id = id ? NOISE_CIPHER_AESGCM : NOISE_CIPHER_CHACHAPOLY;
	hs_setkey_once(s);
	seal.ctx = s;
	setkey.ctx = s;
	state.ctx = s;
	err = bench_measure_pair(&seal, &setkey, bench_dh_iters,
				 bench_min_sample_us * 1000ULL, &st, &sk);
	if (!err)
		err = bench_measure_pair(&state, NULL, bench_dh_iters,
					 bench_min_sample_us * 1000ULL, &sn, NULL);
	kfree_sensitive(s);
	if (err)
		return err;
	bench_report("prim_aead", id ? "cipher=AESGCM op=seal32" : "cipher=ChaChaPoly op=seal32",
		     &st);
	bench_report("prim_aead", id ? "cipher=AESGCM op=setkey" : "cipher=ChaChaPoly op=setkey",
		     &sk);
	bench_report("prim_aead", id ? "cipher=AESGCM op=state" : "cipher=ChaChaPoly op=state",
		     &sn);
	return 0;
}
