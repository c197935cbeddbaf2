// SPDX-License-Identifier: GPL-2.0
/*
 * HASH, HMAC and HKDF. SHA256, SHA512 and BLAKE2b go through crypto shash
 * tfms allocated once at module init and shared: an unkeyed shash tfm is
 * reentrant, every computation keeps its state in an on-stack descriptor.
 * BLAKE2s uses the kernel's blake2s library (6.12 has no blake2s shash).
 * HMAC is RFC 2104 for every hash, BLAKE2 included (section 4.3).
 *
 * HKDF with BLAKE2s keys HMAC once per temp_key (RFC 2104, section 4):
 * its inner and outer padded blocks are compressed when temp_key is made,
 * and each output starts from those two states: two compressions per
 * output instead of four. The blocks are compressed with the compression
 * function the library exports (the architecture's, or the generic one),
 * to the state blake2s_update() reaches once input follows them.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/string.h>
#include <crypto/internal/blake2s.h>
#include "hash.h"

struct noise_hash_alg {
	const char *shash;	/* NULL: BLAKE2s library */
	unsigned int len;	/* HASHLEN */
	unsigned int block;	/* BLOCKLEN */
};

static const struct noise_hash_alg noise_hash_algs[NOISE_HASH_COUNT] = {
	[NOISE_HASH_SHA256] = { "sha256", 32, 64 },
	[NOISE_HASH_SHA512] = { "sha512", 64, 128 },
	[NOISE_HASH_BLAKE2S] = { NULL, 32, 64 },
	[NOISE_HASH_BLAKE2B] = { "blake2b-512", 64, 128 },
};

static struct crypto_shash *noise_hash_tfms[NOISE_HASH_COUNT];

#define NOISE_MAX_BLOCKLEN 128

/**
 * noise_hash_init_tfms() - allocate the shared shash tfms (module init).
 *
 * A hash whose tfm cannot be allocated is reported unavailable and protocol
 * names using it are refused with -EOPNOTSUPP.
 * Context: process context.
 * Return: 0.
 */
int noise_hash_init_tfms(void)
{
	int i;

	for (i = 0; i < NOISE_HASH_COUNT; i++) {
		struct crypto_shash *tfm;

		if (!noise_hash_algs[i].shash)
			continue;
		tfm = crypto_alloc_shash(noise_hash_algs[i].shash, 0, 0);
		if (IS_ERR(tfm)) {
			pr_warn("noise: no %s shash (%ld)\n",
				noise_hash_algs[i].shash, PTR_ERR(tfm));
			continue;
		}
		noise_hash_tfms[i] = tfm;
	}
	return 0;
}

void noise_hash_free_tfms(void)
{
	int i;

	for (i = 0; i < NOISE_HASH_COUNT; i++) {
		crypto_free_shash(noise_hash_tfms[i]);
		noise_hash_tfms[i] = NULL;
	}
}

bool noise_hash_available(u8 id)
{
	return id < NOISE_HASH_COUNT && (!noise_hash_algs[id].shash || noise_hash_tfms[id]);
}
EXPORT_SYMBOL_NS_GPL(noise_hash_available, NOISE_INTERNAL);

const char *noise_hash_driver_name(u8 id)
{
	if (!noise_hash_algs[id].shash)
		return "blake2s (lib)";
	if (!noise_hash_tfms[id])
		return "(unavailable)";
	return crypto_shash_driver_name(noise_hash_tfms[id]);
}

unsigned int noise_hash_len(u8 id)
{
	return noise_hash_algs[id].len;
}
EXPORT_SYMBOL_NS_GPL(noise_hash_len, NOISE_INTERNAL);

void noise_hash_start(struct noise_hash_ctx *ctx, u8 id)
{
	struct shash_desc *desc = (struct shash_desc *)ctx->desc;

	ctx->id = id;
	if (!noise_hash_algs[id].shash) {
		blake2s_init(&ctx->b2s, BLAKE2S_HASH_SIZE);
		return;
	}
	desc->tfm = noise_hash_tfms[id];
	/* Software shash init/update/final cannot fail. */
	crypto_shash_init(desc);
}

void noise_hash_update(struct noise_hash_ctx *ctx, const u8 *data, size_t len)
{
	if (!len)
		return;
	if (!noise_hash_algs[ctx->id].shash)
		blake2s_update(&ctx->b2s, data, len);
	else
		crypto_shash_update((struct shash_desc *)ctx->desc, data, len);
}

/*
 * The result, then the state is wiped: blake2s_final() wipes its own; for
 * a shash only the descriptor and the context its tfm uses (not the whole
 * HASH_MAX_DESCSIZE buffer, which this runs twice per HMAC).
 */
void noise_hash_finish(struct noise_hash_ctx *ctx, u8 *out)
{
	struct shash_desc *desc = (struct shash_desc *)ctx->desc;

	if (!noise_hash_algs[ctx->id].shash) {
		blake2s_final(&ctx->b2s, out);
		return;
	}
	crypto_shash_final(desc, out);
	memzero_explicit(desc, sizeof(*desc) + crypto_shash_descsize(desc->tfm));
}

/* HASH(a || b). */
void noise_hash(u8 id, u8 *out, const u8 *a, size_t alen, const u8 *b, size_t blen)
{
	struct noise_hash_ctx ctx;

	noise_hash_start(&ctx, id);
	noise_hash_update(&ctx, a, alen);
	noise_hash_update(&ctx, b, blen);
	noise_hash_finish(&ctx, out);
}
EXPORT_SYMBOL_NS_GPL(noise_hash, NOISE_INTERNAL);

/* XOR every byte of the first @len bytes of @pad with @b, a word at a time. */
static void noise_hmac_pad_xor(u64 *pad, unsigned int len, u8 b)
{
	u64 w = 0x0101010101010101ULL * b;
	unsigned int i;

	for (i = 0; i < len / sizeof(u64); i++)
		pad[i] ^= w;
}

/* HMAC-HASH(key, a || b), RFC 2104; keys are at most HASHLEN bytes here. */
static void noise_hmac(u8 id, u8 *out, const u8 *key, size_t key_len,
		       const u8 *a, size_t alen, const u8 *b, size_t blen)
{
	const struct noise_hash_alg *alg = &noise_hash_algs[id];
	u64 pad[NOISE_MAX_BLOCKLEN / sizeof(u64)];
	u8 inner[NOISE_MAX_HASHLEN];
	struct noise_hash_ctx ctx;

	memcpy(pad, key, key_len);
	memset((u8 *)pad + key_len, 0, alg->block - key_len);
	noise_hmac_pad_xor(pad, alg->block, 0x36);
	noise_hash_start(&ctx, id);
	noise_hash_update(&ctx, (u8 *)pad, alg->block);
	noise_hash_update(&ctx, a, alen);
	noise_hash_update(&ctx, b, blen);
	noise_hash_finish(&ctx, inner);
	noise_hmac_pad_xor(pad, alg->block, 0x36 ^ 0x5c);
	noise_hash_start(&ctx, id);
	noise_hash_update(&ctx, (u8 *)pad, alg->block);
	noise_hash_update(&ctx, inner, alg->len);
	noise_hash_finish(&ctx, out);
	memzero_explicit(pad, alg->block);
	memzero_explicit(inner, alg->len);
}

/* @h: BLAKE2s's chaining value after the block @pad (IV, one compression). */
static void noise_b2s_keyed(u32 h[8], const u64 *pad)
{
	struct blake2s_state st;

	blake2s_init(&st, BLAKE2S_HASH_SIZE);
	if (IS_ENABLED(CONFIG_CRYPTO_ARCH_HAVE_LIB_BLAKE2S))
		blake2s_compress(&st, (const u8 *)pad, 1, BLAKE2S_BLOCK_SIZE);
	else
		blake2s_compress_generic(&st, (const u8 *)pad, 1, BLAKE2S_BLOCK_SIZE);
	memcpy(h, st.h, sizeof(st.h));
	memzero_explicit(&st, sizeof(st));
}

/*
 * @st as blake2s_update() leaves it after one whole block whose chaining
 * value is @h, once input follows: 64 bytes counted, nothing buffered.
 */
static void noise_b2s_resume(struct blake2s_state *st, const u32 h[8])
{
	blake2s_init(st, BLAKE2S_HASH_SIZE);
	memcpy(st->h, h, sizeof(st->h));
	st->t[0] = BLAKE2S_BLOCK_SIZE;
}

/* The inner chaining value covers a BLAKE2s temp_key whole. */
static_assert(offsetof(union noise_hkdf_key, b2s.inner) == 0 &&
	      sizeof_field(union noise_hkdf_key, b2s.inner) == BLAKE2S_HASH_SIZE);

/* Key HMAC-BLAKE2s with @key->prk: its chaining values overwrite it. */
static void noise_b2s_hmac_key(union noise_hkdf_key *key)
{
	u64 pad[BLAKE2S_BLOCK_SIZE / sizeof(u64)] = {};

	memcpy(pad, key->prk, BLAKE2S_HASH_SIZE);
	noise_hmac_pad_xor(pad, BLAKE2S_BLOCK_SIZE, 0x36);
	noise_b2s_keyed(key->b2s.inner, pad);
	noise_hmac_pad_xor(pad, BLAKE2S_BLOCK_SIZE, 0x36 ^ 0x5c);
	noise_b2s_keyed(key->b2s.outer, pad);
	memzero_explicit(pad, sizeof(pad));
}

/*
 * HMAC-BLAKE2s(key, a || b) from @key's states; @alen + @blen > 0 (the
 * inner block was compressed as if input followed it).
 */
static void noise_b2s_hmac(const union noise_hkdf_key *key, u8 *out,
			   const u8 *a, size_t alen, const u8 *b, size_t blen)
{
	u8 inner[BLAKE2S_HASH_SIZE];
	struct blake2s_state st;

	noise_b2s_resume(&st, key->b2s.inner);
	blake2s_update(&st, a, alen);
	blake2s_update(&st, b, blen);
	blake2s_final(&st, inner);	/* wipes st */
	noise_b2s_resume(&st, key->b2s.outer);
	blake2s_update(&st, inner, sizeof(inner));
	blake2s_final(&st, out);
	memzero_explicit(inner, sizeof(inner));
}

/* HKDF's temp_key = HMAC-HASH(ck, ikm), as @id's expand takes it. */
void noise_hkdf_extract(u8 id, const u8 *ck, const u8 *ikm, size_t ikm_len,
			union noise_hkdf_key *key)
{
	noise_hmac(id, key->prk, ck, noise_hash_algs[id].len, ikm, ikm_len, NULL, 0);
	if (id == NOISE_HASH_BLAKE2S)
		noise_b2s_hmac_key(key);
}

/* HKDF's output @i: HMAC-HASH(temp_key, output i-1 || byte i), @prev NULL for i = 1. */
void noise_hkdf_expand(u8 id, const union noise_hkdf_key *key, const u8 *prev, u8 i, u8 *out)
{
	unsigned int len = noise_hash_algs[id].len;

	if (id == NOISE_HASH_BLAKE2S)
		noise_b2s_hmac(key, out, prev, prev ? len : 0, &i, 1);
	else
		noise_hmac(id, out, key->prk, len, prev, prev ? len : 0, &i, 1);
}

/**
 * noise_hkdf() - HKDF(ck, ikm, 2 or 3) of section 4.3.
 * @id: the hash.
 * @ck: chaining key, HASHLEN bytes.
 * @ikm: input key material (0, 32 or DHLEN bytes).
 * @ikm_len: length of @ikm.
 * @out1: HASHLEN bytes out.
 * @out2: HASHLEN bytes out.
 * @out3: HASHLEN bytes out, or NULL for two outputs.
 *
 * The outputs may alias @ck.
 */
void noise_hkdf(u8 id, const u8 *ck, const u8 *ikm, size_t ikm_len,
		u8 *out1, u8 *out2, u8 *out3)
{
	unsigned int len = noise_hash_algs[id].len;
	u8 o1[NOISE_MAX_HASHLEN], o2[NOISE_MAX_HASHLEN];
	union noise_hkdf_key temp_key;

	noise_hkdf_extract(id, ck, ikm, ikm_len, &temp_key);
	noise_hkdf_expand(id, &temp_key, NULL, 1, o1);
	noise_hkdf_expand(id, &temp_key, o1, 2, o2);
	if (out3)
		noise_hkdf_expand(id, &temp_key, o2, 3, out3);
	memcpy(out1, o1, len);
	memcpy(out2, o2, len);
	memzero_explicit(&temp_key, sizeof(temp_key));
	memzero_explicit(o1, sizeof(o1));
	memzero_explicit(o2, sizeof(o2));
}
EXPORT_SYMBOL_NS_GPL(noise_hkdf, NOISE_INTERNAL);
