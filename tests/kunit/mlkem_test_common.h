/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ML-KEM test code shared by the KUnit module (noise_mlkem_kunit) and the
 * userspace checks (tests/ct/mlkem_vectors.c): the generated vector table's
 * types and the replay of one vector, and the accumulated test of the
 * ML-KEM known-answer suite (a SHAKE-128 stream of inputs, every output
 * absorbed into a second SHAKE-128, one hash at the end). Both builds
 * compile kmod/noise/mlkem.c themselves with NOISE_MLKEM_TESTING.
 */
#ifndef _NOISE_MLKEM_TEST_COMMON_H
#define _NOISE_MLKEM_TEST_COMMON_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "keccak.h"
#include "mlkem.h"

enum mlkem_vec_kind {
	MLKEM_VEC_KEYGEN,	/* seed -> ek, dk */
	MLKEM_VEC_ENCAPS,	/* ek, m -> c, K (or refused) */
	MLKEM_VEC_DECAPS,	/* dk, c -> K (or refused; K may be absent) */
	MLKEM_VEC_KEYGEN_DECAPS, /* seed -> ek (if given), dk; dk, c -> K */
};

enum mlkem_vec_result {
	MLKEM_VEC_VALID,
	MLKEM_VEC_INVALID,
	MLKEM_VEC_ACCEPTABLE,	/* either outcome, but a success must match */
};

struct mlkem_bytes {
	const u8 *p;
	u32 len;
};

/*
 * One vector. The encapsulation key may be given as a patch on the one
 * of an earlier vector (the modulus files differ in a few bytes per key):
 * when ek_base.len != 0, ek holds (offset low, offset high, byte) triples.
 */
struct mlkem_vec {
	const char *name;
	u8 kind, param, result;
	struct mlkem_bytes seed, ek, dk, m, c, k, ek_base;
};

/* A file's vectors: mlkem_vecs[first, first + count); skipped: ML-KEM-512. */
struct mlkem_vec_file {
	const char *name;
	unsigned int first, count, skipped;
};

/* Accumulated test: the expected hash of @count runs, per parameter set. */
struct mlkem_acc_expect {
	u8 param;
	unsigned int count;
	u8 hash[32];
};

extern const struct mlkem_vec mlkem_vecs[];
extern const struct mlkem_vec_file mlkem_vec_files[];
extern const unsigned int mlkem_vec_file_count;
extern const struct mlkem_acc_expect mlkem_acc_expects[];
extern const unsigned int mlkem_acc_expect_count;

/*
 * Called between runs of the accumulated test: the kernel module defines
 * it as cond_resched() (a minute of work on a debug kernel without
 * preemption starves RCU otherwise).
 */
#ifndef MLKEM_TEST_YIELD
#define MLKEM_TEST_YIELD() do { } while (0)
#endif

/* Buffers of one replay or accumulated run (heap in the kernel). */
struct mlkem_test_bufs {
	struct noise_mlkem_work w;
	struct noise_mlkem_matrix a;
	u8 ek[NOISE_MLKEM_MAX_EK_SIZE], dk[NOISE_MLKEM_MAX_DK_SIZE];
	u8 ct[NOISE_MLKEM_MAX_CT_SIZE], ct2[NOISE_MLKEM_MAX_CT_SIZE];
	u8 ek_in[NOISE_MLKEM_MAX_EK_SIZE + 64];
	u8 ss[NOISE_MLKEM_SS_SIZE], ss2[NOISE_MLKEM_SS_SIZE];
	u8 seed[NOISE_MLKEM_SEED_SIZE], m[NOISE_MLKEM_MSG_SIZE];
	struct noise_keccak rng, acc;
};

static inline bool mlkem_bytes_eq(const struct mlkem_bytes *want, const u8 *got,
				  size_t len)
{
	return want->len == len && !memcmp(want->p, got, len);
}

/* The vector's ek in b->ek_in (patched onto its base when it has one). */
static inline const u8 *mlkem_vec_ek(const struct mlkem_vec *v,
				     struct mlkem_test_bufs *b, u32 *len)
{
	u32 i, off;

	if (!v->ek_base.len) {
		*len = v->ek.len;
		return v->ek.p;
	}
	if (v->ek_base.len > sizeof(b->ek_in))
		return NULL;
	memcpy(b->ek_in, v->ek_base.p, v->ek_base.len);
	for (i = 0; i + 3 <= v->ek.len; i += 3) {
		off = v->ek.p[i] | (u32)v->ek.p[i + 1] << 8;
		if (off < v->ek_base.len)
			b->ek_in[off] = v->ek.p[i + 2];
	}
	*len = v->ek_base.len;
	return b->ek_in;
}

/* An outcome against the expected result: NULL when it is right. */
static inline const char *mlkem_vec_judge(const struct mlkem_vec *v, int err,
					  bool match)
{
	if (v->result == MLKEM_VEC_VALID)
		return err ? "refused a valid input" :
		       match ? NULL : "output differs";
	if (v->result == MLKEM_VEC_INVALID)
		return err ? NULL : "accepted an invalid input";
	return err || match ? NULL : "accepted, and the output differs";
}

static inline const char *mlkem_vec_keygen(const struct mlkem_vec *v,
					   struct mlkem_test_bufs *b)
{
	enum noise_mlkem_param p = v->param;
	bool match;
	int err;

	if (v->seed.len != NOISE_MLKEM_SEED_SIZE)
		return mlkem_vec_judge(v, -EINVAL, false);
	err = noise_mlkem_keygen_derand(p, b->ek, b->dk, v->seed.p, NULL, &b->w);
	match = !err && mlkem_bytes_eq(&v->ek, b->ek, noise_mlkem_ek_size(p)) &&
		mlkem_bytes_eq(&v->dk, b->dk, noise_mlkem_dk_size(p));
	return mlkem_vec_judge(v, err, match);
}

static inline const char *mlkem_vec_encaps(const struct mlkem_vec *v,
					   struct mlkem_test_bufs *b)
{
	const u8 *ek;
	bool match;
	u32 ek_len;
	int err;

	ek = mlkem_vec_ek(v, b, &ek_len);
	if (!ek)
		return "bad ek patch";
	if (v->m.len != NOISE_MLKEM_MSG_SIZE)
		return mlkem_vec_judge(v, -EINVAL, false);
	err = noise_mlkem_encaps_derand(v->param, b->ct, b->ss, ek, ek_len,
					v->m.p, &b->w);
	match = !err && mlkem_bytes_eq(&v->c, b->ct, noise_mlkem_ct_size(v->param)) &&
		mlkem_bytes_eq(&v->k, b->ss, NOISE_MLKEM_SS_SIZE);
	return mlkem_vec_judge(v, err, match);
}

/*
 * Decaps of v->c with @dk (and @a, A^ from its KeyGen, or NULL); a vector
 * without K only checks acceptance.
 */
static inline const char *mlkem_vec_decaps_with(const struct mlkem_vec *v,
						struct mlkem_test_bufs *b,
						const u8 *dk, size_t dk_len,
						const struct noise_mlkem_matrix *a)
{
	bool match;
	int err;

	err = noise_mlkem_decaps(v->param, b->ss, v->c.p, v->c.len, dk, dk_len,
				 a, &b->w);
	match = !err && (!v->k.len || mlkem_bytes_eq(&v->k, b->ss, NOISE_MLKEM_SS_SIZE));
	return mlkem_vec_judge(v, err, match);
}

static inline const char *mlkem_vec_keygen_decaps(const struct mlkem_vec *v,
						  struct mlkem_test_bufs *b)
{
	enum noise_mlkem_param p = v->param;

	if (v->seed.len != NOISE_MLKEM_SEED_SIZE)
		return mlkem_vec_judge(v, -EINVAL, false);
	if (noise_mlkem_keygen_derand(p, b->ek, b->dk, v->seed.p, &b->a, &b->w))
		return "KeyGen failed";
	if (v->ek.len && !mlkem_bytes_eq(&v->ek, b->ek, noise_mlkem_ek_size(p)))
		return v->result == MLKEM_VEC_VALID ? "KeyGen: ek differs" : NULL;
	return mlkem_vec_decaps_with(v, b, b->dk, noise_mlkem_dk_size(p), &b->a);
}

/* Replay one vector: NULL when it passes, else why not. */
static inline const char *mlkem_vec_run(const struct mlkem_vec *v,
					struct mlkem_test_bufs *b)
{
	switch (v->kind) {
	case MLKEM_VEC_KEYGEN:
		return mlkem_vec_keygen(v, b);
	case MLKEM_VEC_ENCAPS:
		return mlkem_vec_encaps(v, b);
	case MLKEM_VEC_DECAPS:
		return mlkem_vec_decaps_with(v, b, v->dk.p, v->dk.len, NULL);
	case MLKEM_VEC_KEYGEN_DECAPS:
		return mlkem_vec_keygen_decaps(v, b);
	}
	return "unknown vector kind";
}

/*
 * The accumulated test: @count runs of KeyGen(d || z), Encaps(ek, m),
 * Decaps of that ct (must give the same K) and Decaps of a random ct
 * (implicit rejection), inputs from SHAKE-128(""), ek || dk || ct || K ||
 * K_reject absorbed into a second SHAKE-128; @hash is its first 32 bytes.
 * Return: 0, or -1 when a step failed or the two K differ.
 */
static inline int mlkem_accumulated(enum noise_mlkem_param p, unsigned int count,
				    u8 hash[32], struct mlkem_test_bufs *b)
{
	size_t ek_len = noise_mlkem_ek_size(p), dk_len = noise_mlkem_dk_size(p);
	size_t ct_len = noise_mlkem_ct_size(p);
	unsigned int i;

	noise_shake128_init(&b->rng);
	noise_shake128_init(&b->acc);
	for (i = 0; i < count; i++) {
		noise_keccak_squeeze(&b->rng, b->seed, NOISE_MLKEM_SEED_SIZE);
		noise_keccak_squeeze(&b->rng, b->m, NOISE_MLKEM_MSG_SIZE);
		noise_keccak_squeeze(&b->rng, b->ct2, ct_len);
		if (noise_mlkem_keygen_derand(p, b->ek, b->dk, b->seed, &b->a, &b->w) ||
		    noise_mlkem_encaps_derand(p, b->ct, b->ss, b->ek, ek_len, b->m, &b->w))
			return -1;
		noise_keccak_absorb(&b->acc, b->ek, ek_len);
		noise_keccak_absorb(&b->acc, b->dk, dk_len);
		noise_keccak_absorb(&b->acc, b->ct, ct_len);
		noise_keccak_absorb(&b->acc, b->ss, NOISE_MLKEM_SS_SIZE);
		if (noise_mlkem_decaps(p, b->ss2, b->ct, ct_len, b->dk, dk_len, &b->a,
				       &b->w) ||
		    memcmp(b->ss, b->ss2, NOISE_MLKEM_SS_SIZE))
			return -1;
		if (noise_mlkem_decaps(p, b->ss, b->ct2, ct_len, b->dk, dk_len, &b->a,
				       &b->w))
			return -1;
		noise_keccak_absorb(&b->acc, b->ss, NOISE_MLKEM_SS_SIZE);
		MLKEM_TEST_YIELD();
	}
	noise_keccak_squeeze(&b->acc, hash, 32);
	return 0;
}

#endif /* _NOISE_MLKEM_TEST_COMMON_H */
