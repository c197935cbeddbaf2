// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: the bare Diffie-Hellman primitives, called directly. One
 * scalar multiplication is the unit of every handshake's DH bound; key pair
 * generation (random secret + one fixed-base multiplication) is also
 * reported on its own.
 */

#include <crypto/curve25519.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "bench.h"
#include "x448.h"

struct dh_ctx {
	u8 secret[X448_KEY_SIZE];
	u8 point[X448_KEY_SIZE];
	u8 out[X448_KEY_SIZE];
};

static int dh25519(void *p)
{
	struct dh_ctx *c = p;

	return curve25519(c->out, c->secret, c->point) ? 0 : -EINVAL;
}

static int keygen25519(void *p)
{
	struct dh_ctx *c = p;

	curve25519_generate_secret(c->secret);
	return curve25519_generate_public(c->out, c->secret) ? 0 : -EINVAL;
}

static int dh448(void *p)
{
	struct dh_ctx *c = p;

	return noise_x448(c->out, c->secret, c->point) ? 0 : -EINVAL;
}

static int keygen448(void *p)
{
	struct dh_ctx *c = p;

	noise_x448_generate_secret(c->secret);
	return noise_x448_generate_public(c->out, c->secret) ? 0 : -EINVAL;
}

/* X448 works here when a fresh key pair comes out non-zero. */
bool bench_x448_available(void)
{
	u8 s[X448_KEY_SIZE], p[X448_KEY_SIZE];
	bool ok;

	noise_x448_generate_secret(s);
	ok = noise_x448_generate_public(p, s);
	memzero_explicit(s, sizeof(s));
	return ok;
}

static int bench_one(const char *kind, const char *keys, bench_fn fn,
		     struct dh_ctx *c)
{
	struct bench_stats st;
	int err;

	err = bench_measure_fn(fn, c, bench_dh_iters, &st);
	if (err) {
		bench_note("error %s %s err=%d", kind, keys, err);
		return err;
	}
	bench_report(kind, keys, &st);
	return 0;
}

static int bench_prim_25519(struct dh_ctx *c)
{
	u8 peer[CURVE25519_KEY_SIZE];
	int err;

	curve25519_generate_secret(peer);
	curve25519_generate_secret(c->secret);
	if (!curve25519_generate_public(c->point, peer))
		return -EINVAL;
	memzero_explicit(peer, sizeof(peer));
	err = bench_one("dh", "curve=25519", dh25519, c);
	if (!err)
		err = bench_one("keygen", "curve=25519 impl=lib", keygen25519, c);
	return err;
}

static int bench_prim_448(struct dh_ctx *c)
{
	u8 peer[X448_KEY_SIZE];
	int err;

	if (!bench_x448_available()) {
		bench_note("unavailable dh curve=448 reason=448_unavailable");
		bench_note("unavailable keygen curve=448 impl=lib reason=448_unavailable");
		return 0;
	}
	noise_x448_generate_secret(peer);
	noise_x448_generate_secret(c->secret);
	if (!noise_x448_generate_public(c->point, peer))
		return -EINVAL;
	memzero_explicit(peer, sizeof(peer));
	err = bench_one("dh", "curve=448", dh448, c);
	if (!err)
		err = bench_one("keygen", "curve=448 impl=lib", keygen448, c);
	return err;
}

/* The scalar multiplication timed beside each handshake (its bound's unit). */
static struct dh_ctx bench_ref[2];

int bench_dh_ref_op(unsigned int curve, struct bench_op *op)
{
	struct dh_ctx *c = &bench_ref[!!curve];
	u8 peer[X448_KEY_SIZE];
	bool ok;

	if (curve) {
		if (!bench_x448_available())
			return -EOPNOTSUPP;
		noise_x448_generate_secret(peer);
		noise_x448_generate_secret(c->secret);
		ok = noise_x448_generate_public(c->point, peer);
	} else {
		curve25519_generate_secret(peer);
		curve25519_generate_secret(c->secret);
		ok = curve25519_generate_public(c->point, peer);
	}
	memzero_explicit(peer, sizeof(peer));
	if (!ok)
		return -EINVAL;
	*op = (struct bench_op) { .fn = curve ? dh448 : dh25519, .ctx = c };
	return 0;
}

void bench_dh_ref_wipe(void)
{
	memzero_explicit(bench_ref, sizeof(bench_ref));
}

int bench_prim_run(void)
{
	struct dh_ctx c;
	int err;

	err = bench_prim_25519(&c);
	if (!err)
		err = bench_prim_448(&c);
	memzero_explicit(&c, sizeof(c));
	return err;
}
