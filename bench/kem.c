// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: ML-KEM-768 and ML-KEM-1024 KeyGen, Encaps and Decaps, the
 * KEM operations of the hfs handshakes, each timed in samples alternating
 * with one bare X25519 scalar multiplication (the unit of the classical
 * handshakes' cost), so that the ratio KEM op / X25519 DH compares two
 * figures of the same moments of the same run.
 *
 * noise.ko does not export its ML-KEM functions, so this group compiles the
 * engine's sources itself (as the ML-KEM KUnit module does): the same
 * code, built with the same flags, called through the same entry points
 * the handshake uses (the random ones: the deterministic forms exist only
 * in test builds).
 */

#include <linux/slab.h>
#include "bench.h"
#include "keccak.c"
#include "mlkem.c"

struct kem_ctx {
	enum noise_mlkem_param param;
	size_t ek_len, dk_len, ct_len;
	u8 ek[NOISE_MLKEM_MAX_EK_SIZE];
	u8 dk[NOISE_MLKEM_MAX_DK_SIZE];
	u8 ct[NOISE_MLKEM_MAX_CT_SIZE];
	u8 ss[NOISE_MLKEM_SS_SIZE];
	/* KeyGen's output, so that Encaps and Decaps keep their key pair. */
	u8 ek2[NOISE_MLKEM_MAX_EK_SIZE];
	u8 dk2[NOISE_MLKEM_MAX_DK_SIZE];
	u8 ct2[NOISE_MLKEM_MAX_CT_SIZE];
	/* A^ of each pair: Decaps re-encrypts with it, as the handshake does. */
	struct noise_mlkem_matrix a, a2;
	struct noise_mlkem_work w;
};

static int kem_keygen(void *p)
{
	struct kem_ctx *k = p;

	return noise_mlkem_keygen(k->param, k->ek2, k->dk2, &k->a2, &k->w);
}

static int kem_encaps(void *p)
{
	struct kem_ctx *k = p;

	return noise_mlkem_encaps(k->param, k->ct2, k->ss, k->ek, k->ek_len, &k->w);
}

static int kem_decaps(void *p)
{
	struct kem_ctx *k = p;

	return noise_mlkem_decaps(k->param, k->ss, k->ct, k->ct_len, k->dk,
				  k->dk_len, &k->a, &k->w);
}

static const struct {
	const char *name;
	bench_fn fn;
} kem_ops[] = {
	{ "keygen", kem_keygen },
	{ "encaps", kem_encaps },
	{ "decaps", kem_decaps },
};

/* One parameter set: a key pair and a ciphertext, then each op timed. */
static int kem_param(struct kem_ctx *k, enum noise_mlkem_param param,
		     const char *name)
{
	struct bench_op op = { .ctx = k }, ref;
	struct bench_stats st, sr;
	char keys[64];
	unsigned int i;
	int err;

	k->param = param;
	k->ek_len = noise_mlkem_ek_size(param);
	k->dk_len = noise_mlkem_dk_size(param);
	k->ct_len = noise_mlkem_ct_size(param);
	err = noise_mlkem_keygen(param, k->ek, k->dk, &k->a, &k->w);
	if (!err)
		err = noise_mlkem_encaps(param, k->ct, k->ss, k->ek, k->ek_len, &k->w);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(kem_ops); i++) {
		snprintf(keys, sizeof(keys), "kem=%s op=%s curve=25519", name,
			 kem_ops[i].name);
		err = bench_dh_ref_op(0, &ref);
		if (err)
			return err;
		op.fn = kem_ops[i].fn;
		err = bench_measure_pair(&op, &ref, bench_dh_iters,
					 bench_min_sample_us * 1000ULL, &st, &sr);
		if (err) {
			bench_note("error kem %s err=%d", keys, err);
			return err;
		}
		bench_report("kem", keys, &st);
		bench_report("kem_ref", keys, &sr);
	}
	return 0;
}

int bench_kem_run(void)
{
	struct kem_ctx *k;
	int err;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	bench_note("kem_sizes kem=MLKEM768 ek=%zu dk=%zu ct=%zu",
		   noise_mlkem_ek_size(NOISE_MLKEM768),
		   noise_mlkem_dk_size(NOISE_MLKEM768),
		   noise_mlkem_ct_size(NOISE_MLKEM768));
	bench_note("kem_sizes kem=MLKEM1024 ek=%zu dk=%zu ct=%zu",
		   noise_mlkem_ek_size(NOISE_MLKEM1024),
		   noise_mlkem_dk_size(NOISE_MLKEM1024),
		   noise_mlkem_ct_size(NOISE_MLKEM1024));
	err = kem_param(k, NOISE_MLKEM768, "MLKEM768");
	if (!err)
		err = kem_param(k, NOISE_MLKEM1024, "MLKEM1024");
	kfree_sensitive(k);
	bench_dh_ref_wipe();
	return err;
}
