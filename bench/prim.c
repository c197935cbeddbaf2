// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: the bare Diffie-Hellman primitives, called directly. One
 * scalar multiplication is the unit of every handshake's DH bound; key pair
 * generation (random secret + one fixed-base multiplication) is also
 * reported on its own, and the X448 stack wipe that follows each X448
 * scalar multiplication (noise_x448_wipe_stack(), NOISE_INTERNAL).
 */

#include <crypto/curve25519.h>
#include <linux/kernel.h>
#include <linux/slab.h>
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

int bench_measure_beside_dh(const struct bench_op *op, unsigned int curve,
			    u32 samples, const char *kind, const char *keys)
{
	struct bench_stats st, sr;
	struct bench_op ref;
	bool paired;
	int err;

	paired = !bench_dh_ref_op(curve, &ref);
	err = bench_measure_pair(op, paired ? &ref : NULL, samples,
				 bench_min_sample_us * 1000ULL, &st, &sr);
	if (err)
		return err;
	bench_report(kind, keys, &st);
	if (paired)
		bench_report("dh_ref", keys, &sr);
	return 0;
}

/* The bare scalar multiplication and a key pair, in alternating samples. */
static int bench_prim_curve(unsigned int curve)
{
	const char *name = curve ? "448" : "25519";
	struct bench_op dh, kg = { .fn = curve ? keygen448 : keygen25519 };
	struct bench_stats sd, sk;
	struct dh_ctx *c;
	char keys[48];
	int err;

	err = bench_dh_ref_op(curve, &dh);
	if (err == -EOPNOTSUPP) {
		bench_note("unavailable dh curve=%s reason=448_unavailable", name);
		bench_note("unavailable keygen curve=%s impl=lib reason=448_unavailable", name);
		return 0;
	}
	if (err)
		return err;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	kg.ctx = c;
	err = bench_measure_pair(&dh, &kg, bench_dh_iters,
				 bench_min_sample_us * 1000ULL, &sd, &sk);
	kfree_sensitive(c);
	if (err) {
		bench_note("error dh curve=%s err=%d", name, err);
		return err;
	}
	snprintf(keys, sizeof(keys), "curve=%s", name);
	bench_report("dh", keys, &sd);
	snprintf(keys, sizeof(keys), "curve=%s impl=lib", name);
	bench_report("keygen", keys, &sk);
	return 0;
}

static int wipe448(void *p)
{
	noise_x448_wipe_stack();
	return 0;
}

/*
 * What the X448 stack wipe adds to each scalar multiplication (noise_x448()
 * calls it), timed alone in samples alternating with a scalar mult.
 */
static int bench_prim_wipe(void)
{
	struct bench_op dh, wipe = { .fn = wipe448 };
	struct bench_stats sd, sw;
	int err;

	err = bench_dh_ref_op(1, &dh);
	if (err == -EOPNOTSUPP)
		return 0;
	if (err)
		return err;
	err = bench_measure_pair(&wipe, &dh, bench_dh_iters,
				 bench_min_sample_us * 1000ULL, &sw, &sd);
	if (err) {
		bench_note("error x448_wipe err=%d", err);
		return err;
	}
	bench_report("x448_wipe", "curve=448 op=stack_wipe", &sw);
	return 0;
}

int bench_prim_run(void)
{
	int err;

	err = bench_prim_curve(0);
	if (!err)
		err = bench_prim_curve(1);
	if (!err)
		err = bench_prim_wipe();
	bench_dh_ref_wipe();
	return err;
}
