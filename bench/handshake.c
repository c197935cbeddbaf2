// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: complete handshakes, both sides in this kernel, and key pair
 * generation through the engine.
 *
 * One timed operation is a whole handshake: both handshake states created,
 * every message written by one side and read by the other (empty payloads),
 * both sides split, the four cipher states and two handshake states freed.
 * Ephemeral key pairs are made inside, by the engine, as in real use. The
 * static key pairs (and PSKs) are made once before the loop ("static=once");
 * the second variant ("static=fresh") makes each side's static key pair in
 * every handshake, as the published Python noiseframework figures do.
 * Each side passes its static public key along with the private key
 * (noise_keys.local_static_public) unless static_pub=0, which makes the
 * engine derive it in every handshake.
 *
 * With hs_parts set, two partial runs of each protocol (static keys made
 * once) give the breakdown: "new" only creates and frees both handshake
 * states, "nosplit" runs every message but frees instead of splitting. So
 * messages = nosplit - new and split = full - nosplit.
 *
 * Each row carries its DH bound: the scalar multiplications the pattern
 * needs (bench_count_dh(), plus the static key pairs of the fresh variant)
 * times the median of one bare scalar multiplication, timed in samples
 * alternating with the handshake's ("dh_ref" line) so that both see the
 * same machine.
 *
 * For the one-round-trip patterns with an ss token, "hs_resp" times the
 * responder's side alone (ss cached), the figure a tunnel's responder is
 * held to.
 *
 * The hfs rows ("hs_hfs", bench_hfs[]) run each hybrid protocol (an ML-KEM
 * key pair, encapsulation and decapsulation on top of the pattern) in
 * samples alternating with the same pattern, suite and hash without hfs,
 * and carry each message's size in bytes (empty payloads).
 */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "bench.h"
#include "bench_engine.h"
#include "noise.h"
#include "noise_internal.h"
#include "symmetric.h"

/* The largest message here: XXhfs 448+MLKEM1024's second, 1,728 bytes. */
#define BENCH_MSG_CAP 4096

static const char * const bench_dh_names[] = { "25519", "448" };
static const char * const bench_cipher_names[] = { "ChaChaPoly", "AESGCM" };
static const char * const bench_hash_names[] = { "SHA256", "SHA512", "BLAKE2s", "BLAKE2b" };

/* The non-XX rows: each pattern with each of these two suites. */
static const char * const bench_patterns[] = { "NN", "IK", "KK", "XXpsk3", "IKpsk2" };
static const char * const bench_suites[] = { "25519_ChaChaPoly_BLAKE2s", "25519_AESGCM_SHA256" };

/* The hfs rows: each hybrid protocol beside the same pattern without hfs. */
static const struct {
	const char *plain, *hfs;
} bench_hfs[] = {
	{ "Noise_IK_25519_ChaChaPoly_BLAKE2s", "Noise_IKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s" },
	{ "Noise_XX_25519_ChaChaPoly_BLAKE2s", "Noise_XXhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s" },
	{ "Noise_IK_448_ChaChaPoly_BLAKE2b", "Noise_IKhfs_448+MLKEM1024_ChaChaPoly_BLAKE2b" },
	{ "Noise_XX_448_ChaChaPoly_BLAKE2b", "Noise_XXhfs_448+MLKEM1024_ChaChaPoly_BLAKE2b" },
};

/* What one timed operation covers (the parts give the breakdown). */
enum hs_mode {
	HS_FULL,	/* create, all messages, split, free */
	HS_NOSPLIT,	/* create, all messages, free without splitting */
	HS_NEW,		/* create both sides and free them */
};

struct hs_ctx {
	const char *name;
	struct noise_protocol_info info;
	enum hs_mode mode;
	bool fresh, cached;
	u8 ss[2][NOISE_MAX_DHLEN];	/* per side: DH(s, peer's s), cached */
	u8 priv[2][NOISE_MAX_DHLEN];
	u8 pub[2][NOISE_MAX_DHLEN];
	u8 psks[NOISE_MAX_PSKS][NOISE_PSK_LEN];
	struct noise_keys keys[2];
	u8 *msg, *payload;
	/* The last handshake's message sizes, in order (empty payloads). */
	size_t msg_len[NOISE_MAX_MESSAGES];
	unsigned int nmsg;
};

const char *bench_engine_aead_driver(unsigned int cipher)
{
	return noise_aead_driver_name(cipher ? NOISE_CIPHER_AESGCM : NOISE_CIPHER_CHACHAPOLY);
}

static int hs_make_statics(struct hs_ctx *c)
{
	int r, err;

	for (r = 0; r < 2; r++) {
		if (!c->info.needs_local_static[r] && !c->info.needs_remote_static[!r])
			continue;
		err = noise_dh_generate(c->info.dh, c->priv[r], c->pub[r]);
		if (err)
			return err;
	}
	return 0;
}

/* One message: @w writes, the other side reads. */
static int hs_message(struct hs_ctx *c, struct noise_handshake **hs, int w)
{
	size_t len, plen;
	int err;

	err = noise_handshake_write(hs[w], NULL, 0, c->msg, BENCH_MSG_CAP, &len);
	if (!err && c->nmsg < NOISE_MAX_MESSAGES)
		c->msg_len[c->nmsg++] = len;
	if (!err)
		err = noise_handshake_read(hs[!w], c->msg, len, c->payload,
					   BENCH_MSG_CAP, &plen);
	return err;
}

static int hs_finish(struct noise_handshake **hs)
{
	struct noise_cipher *cs[4] = {};
	int err, i;

	err = noise_handshake_split(hs[0], &cs[0], &cs[1]);
	if (!err)
		err = noise_handshake_split(hs[1], &cs[2], &cs[3]);
	for (i = 0; i < 4; i++)
		noise_cipher_free(cs[i]);
	return err;
}

static int hs_once(void *p)
{
	struct noise_handshake *hs[2] = {};
	struct hs_ctx *c = p;
	enum noise_action a;
	int err = 0, i;

	c->nmsg = 0;
	if (c->fresh)
		err = hs_make_statics(c);
	if (err)
		return err;
	hs[0] = noise_handshake_new(c->name, NOISE_INITIATOR, &c->keys[0], GFP_KERNEL);
	hs[1] = noise_handshake_new(c->name, NOISE_RESPONDER, &c->keys[1], GFP_KERNEL);
	if (IS_ERR(hs[0]) || IS_ERR(hs[1])) {
		err = IS_ERR(hs[0]) ? PTR_ERR(hs[0]) : PTR_ERR(hs[1]);
		goto out;
	}
	if (c->mode == HS_NEW)
		goto out;
	for (;;) {
		a = noise_handshake_next(hs[0]);
		if (a == NOISE_ACTION_SPLIT || a == NOISE_ACTION_FAILED)
			break;
		err = hs_message(c, hs, a == NOISE_ACTION_WRITE ? 0 : 1);
		if (err)
			goto out;
	}
	if (a != NOISE_ACTION_SPLIT || noise_handshake_next(hs[1]) != NOISE_ACTION_SPLIT)
		err = -EPROTO;
	else if (c->mode == HS_FULL)
		err = hs_finish(hs);
out:
	for (i = 0; i < 2; i++)
		if (!IS_ERR_OR_NULL(hs[i]))
			noise_handshake_free(hs[i]);
	return err;
}

/*
 * The responder learns the peer's static key from message 0: look the peer
 * up (one memcmp, as a tunnel's peer table would) and hand the engine the
 * cached DH(s, rs).
 */
static int hs_peer_cb(void *ctx, struct noise_handshake *hs, const u8 *remote_static)
{
	struct hs_ctx *c = ctx;

	if (memcmp(remote_static, c->pub[NOISE_INITIATOR], c->info.dh_len))
		return -ENOENT;
	return noise_handshake_set_precomputed_ss(hs, c->ss[NOISE_RESPONDER]);
}

static void hs_setup_keys(struct hs_ctx *c)
{
	int r;

	get_random_bytes(c->psks, sizeof(c->psks));
	for (r = 0; r < 2; r++) {
		c->keys[r] = (struct noise_keys) {
			.local_static = c->info.needs_local_static[r] ? c->priv[r] : NULL,
			.remote_static = c->info.needs_remote_static[r] ? c->pub[!r] : NULL,
			.local_static_public = c->info.needs_local_static[r] &&
					       bench_static_pub ? c->pub[r] : NULL,
			.psks = c->psks,
			.num_psks = c->info.num_psks,
		};
	}
}

/* Cache DH(s, rs) per side (statics made once), as a tunnel does per peer. */
static int hs_cache_ss(struct hs_ctx *c, bool on)
{
	int r, err;

	c->cached = on;
	for (r = 0; r < 2; r++) {
		c->keys[r].precomputed_ss = NULL;
		c->keys[r].remote_static_cb = NULL;
		c->keys[r].cb_ctx = NULL;
		if (!on || !c->info.needs_local_static[r])
			continue;
		err = noise_dh_shared(c->info.dh, c->ss[r], c->priv[r], c->pub[!r]);
		if (err)
			return err;
		if (c->info.needs_remote_static[r]) {
			c->keys[r].precomputed_ss = c->ss[r];
		} else {
			c->keys[r].remote_static_cb = hs_peer_cb;
			c->keys[r].cb_ctx = c;
		}
	}
	return 0;
}

static int hs_part(struct hs_ctx *c, enum hs_mode mode, const char *part)
{
	struct bench_stats st;
	char keys[128];
	int err;

	c->mode = mode;
	c->fresh = false;
	snprintf(keys, sizeof(keys), "protocol=%s part=%s", c->name, part);
	err = bench_measure_fn(hs_once, c, bench_hs_iters, &st);
	c->mode = HS_FULL;
	if (err) {
		bench_note("error %s %s err=%d", "hs_part", keys, err);
		return err;
	}
	bench_report("hs_part", keys, &st);
	return 0;
}

static int hs_row(struct hs_ctx *c, bool fresh)
{
	struct bench_op op = { .fn = hs_once, .ctx = c };
	struct bench_dh_count count;
	unsigned int ops, statics;
	char keys[256];
	int err;

	err = bench_count_dh(c->name, c->info.hash_len, &count);
	if (err)
		return err;
	c->fresh = fresh;
	statics = c->info.needs_local_static[0] + c->info.needs_local_static[1];
	ops = count.keygens + count.dh + (fresh ? statics : 0);
	snprintf(keys, sizeof(keys),
		 "protocol=%s static=%s%s pub_given=%d keygens=%u dh=%u statics=%u dh_ops=%u mixhash=%u hkdf2=%u hkdf3=%u aead=%u setkey=%u states=%u",
		 c->name, fresh ? "fresh" : "once", c->cached ? " ss=cached" : "",
		 bench_static_pub, count.keygens,
		 count.dh, fresh ? statics : 0, ops, count.mixhash, count.hkdf2,
		 count.hkdf3, count.aead, count.setkey, count.states);
	err = bench_measure_beside_dh(&op, c->info.dh == NOISE_DH_448,
				      bench_hs_iters, "hs", keys);
	if (err) {
		bench_note("%s hs %s err=%d", err == -EOPNOTSUPP ? "unavailable" : "error",
			   keys, err);
		return err == -EOPNOTSUPP ? 0 : err;
	}
	return 0;
}

/*
 * The responder's side alone ("hs_resp"), for the one-round-trip patterns
 * with the static-static DH cached, as a tunnel's responder runs them: a new
 * responder state, message 0 read (the peer found by its key for IK), message
 * 1 written, split, everything freed. Fresh initiators write the initiations
 * before each batch, untimed.
 */
#define HS_RESP_POOL 32

struct hs_resp {
	struct hs_ctx *c;
	u8 *msg;			/* HS_RESP_POOL initiations */
	size_t len[HS_RESP_POOL];
	u32 next;
};

static int hs_resp_prepare(void *p, u32 batch)
{
	struct hs_resp *r = p;
	struct noise_handshake *hs;
	int err = 0;
	u32 i;

	for (i = 0; i < batch && !err; i++) {
		hs = noise_handshake_new(r->c->name, NOISE_INITIATOR,
					 &r->c->keys[NOISE_INITIATOR], GFP_KERNEL);
		if (IS_ERR(hs))
			return PTR_ERR(hs);
		err = noise_handshake_write(hs, NULL, 0, r->msg + i * BENCH_MSG_CAP,
					    BENCH_MSG_CAP, &r->len[i]);
		noise_handshake_free(hs);
	}
	r->next = 0;
	return err;
}

static int hs_resp_once(void *p)
{
	struct noise_cipher *cs[2] = {};
	struct noise_handshake *hs;
	struct hs_resp *r = p;
	struct hs_ctx *c = r->c;
	size_t len;
	int err;

	hs = noise_handshake_new(c->name, NOISE_RESPONDER,
				 &c->keys[NOISE_RESPONDER], GFP_KERNEL);
	if (IS_ERR(hs))
		return PTR_ERR(hs);
	err = noise_handshake_read(hs, r->msg + r->next * BENCH_MSG_CAP,
				   r->len[r->next], c->payload, BENCH_MSG_CAP, &len);
	r->next++;
	if (!err)
		err = noise_handshake_write(hs, NULL, 0, c->msg, BENCH_MSG_CAP, &len);
	if (!err && noise_handshake_next(hs) != NOISE_ACTION_SPLIT)
		err = -EPROTO;
	if (!err)
		err = noise_handshake_split(hs, &cs[0], &cs[1]);
	noise_cipher_free(cs[0]);
	noise_cipher_free(cs[1]);
	noise_handshake_free(hs);
	return err;
}

/*
 * dh_ops: the responder's own e and its half of the DHs but ss (IK and KK:
 * each side makes one e; ss is cached).
 */
static int hs_resp_row(struct hs_ctx *c)
{
	struct hs_resp r = { .c = c };
	struct bench_op op = { .fn = hs_resp_once, .prepare = hs_resp_prepare,
			       .max_batch = HS_RESP_POOL, .ctx = &r };
	struct bench_dh_count count;
	char keys[160];
	int err;

	err = bench_count_dh(c->name, c->info.hash_len, &count);
	if (err)
		return err;
	r.msg = kvmalloc_array(HS_RESP_POOL, BENCH_MSG_CAP, GFP_KERNEL);
	if (!r.msg)
		return -ENOMEM;
	snprintf(keys, sizeof(keys),
		 "protocol=%s static=once ss=cached pub_given=%d side=responder dh_ops=%u",
		 c->name, bench_static_pub, count.keygens / 2 + count.dh / 2 - 1);
	err = bench_measure_beside_dh(&op, c->info.dh == NOISE_DH_448,
				      bench_hs_iters, "hs_resp", keys);
	kvfree(r.msg);
	if (err)
		bench_note("error hs_resp %s err=%d", keys, err);
	return err;
}

/* The bench's patterns with an ss token (IK, KK and their psk forms). */
static bool hs_has_ss(const char *name)
{
	return !strncmp(name, "Noise_IK", 8) || !strncmp(name, "Noise_KK", 8);
}

static void hs_ctx_free(struct hs_ctx *c)
{
	if (!c)
		return;
	kfree(c->payload);
	kfree(c->msg);
	memzero_explicit(c->ss, sizeof(c->ss));
	kfree_sensitive(c);
}

/*
 * A protocol's context with its static key pairs made once; -EOPNOTSUPP
 * for a protocol this kernel cannot run (no X448).
 */
static int hs_ctx_new(const char *name, struct hs_ctx **out)
{
	struct hs_ctx *c;
	int err = -ENOMEM;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->name = name;
	c->msg = kmalloc(BENCH_MSG_CAP, GFP_KERNEL);
	c->payload = kmalloc(BENCH_MSG_CAP, GFP_KERNEL);
	if (c->msg && c->payload)
		err = noise_protocol_info(name, &c->info);
	if (!err) {
		hs_setup_keys(c);
		err = hs_make_statics(c);
	}
	if (err) {
		hs_ctx_free(c);
		return err;
	}
	*out = c;
	return 0;
}

static bool hs_matched(const char *name)
{
	return !bench_hs_match || !*bench_hs_match || strstr(name, bench_hs_match);
}

static int hs_protocol(const char *name)
{
	struct hs_ctx *c;
	int err;

	if (!hs_matched(name))
		return 0;
	err = hs_ctx_new(name, &c);
	if (err == -EOPNOTSUPP) {
		bench_note("unavailable hs protocol=%s reason=%s", name,
			   strstr(name, "_448_") ? "448_unavailable" : "unsupported");
		return 0;
	}
	if (err)
		return err;
	err = hs_row(c, false);
	if (!err)
		err = hs_row(c, true);
	/* Patterns with an ss token: again with the static-static DH cached. */
	if (!err && hs_has_ss(name)) {
		err = hs_cache_ss(c, true);
		if (!err)
			err = hs_row(c, false);
		if (!err && c->info.num_msgs == 2)
			err = hs_resp_row(c);
		if (!err)
			err = hs_cache_ss(c, false);
	}
	if (!err && bench_hs_parts)
		err = hs_part(c, HS_NEW, "new");
	if (!err && bench_hs_parts)
		err = hs_part(c, HS_NOSPLIT, "nosplit");
	hs_ctx_free(c);
	return err;
}

/* "96,48": the message sizes of @c's last handshake. */
static void hs_msg_sizes(const struct hs_ctx *c, char *buf, size_t cap)
{
	unsigned int i;
	size_t pos = 0;

	buf[0] = 0;
	for (i = 0; i < c->nmsg && pos < cap; i++)
		pos += scnprintf(buf + pos, cap - pos, "%s%zu", i ? "," : "",
				 c->msg_len[i]);
}

/*
 * An hfs protocol and the same pattern without hfs (static keys made once),
 * in alternating samples: the rate ratio hfs / plain is what the KEM costs
 * a handshake on this machine at these moments. One untimed handshake of
 * each first gives the message sizes.
 */
static int hs_hfs_pair(const char *plain, const char *hfs)
{
	const char *names[2] = { plain, hfs }, *variant[2] = { "plain", "hfs" };
	struct hs_ctx *c[2] = {};
	struct bench_op op[2];
	struct bench_stats st[2];
	char keys[256], sizes[64];
	int err = 0, i;

	if (!hs_matched(plain) && !hs_matched(hfs))
		return 0;
	for (i = 0; i < 2 && !err; i++) {
		err = hs_ctx_new(names[i], &c[i]);
		if (!err)
			err = hs_once(c[i]);
		op[i] = (struct bench_op) { .fn = hs_once, .ctx = c[i] };
	}
	if (!err)
		err = bench_measure_pair(&op[1], &op[0], bench_hs_iters,
					 bench_min_sample_us * 1000ULL, &st[1], &st[0]);
	if (err) {
		bench_note("%s hs_hfs pair=%s err=%d reason=%s",
			   err == -EOPNOTSUPP ? "unavailable" : "error", hfs, err,
			   err != -EOPNOTSUPP ? "error" : strstr(hfs, "448") ?
			   "448_unavailable" : "unsupported");
		if (err == -EOPNOTSUPP)
			err = 0;
		goto out;
	}
	for (i = 0; i < 2; i++) {
		hs_msg_sizes(c[i], sizes, sizeof(sizes));
		snprintf(keys, sizeof(keys),
			 "pair=%s variant=%s protocol=%s static=once pub_given=%d msgs=%u msg_bytes=%s kem_pub=%u kem_ct=%u",
			 hfs, variant[i], names[i], bench_static_pub, c[i]->nmsg,
			 sizes, c[i]->info.kem_pub_len, c[i]->info.kem_ct_len);
		bench_report("hs_hfs", keys, &st[i]);
	}
out:
	hs_ctx_free(c[0]);
	hs_ctx_free(c[1]);
	return err;
}

int bench_handshake_run(void)
{
	char *name;
	int err = 0, errors = 0;
	unsigned int d, ci, h, p, s;

	name = kmalloc(NOISE_MAX_NAME_LEN + 1, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	for (d = 0; d < 2; d++)
		errors += !!bench_hs_keygen(d);
	if (bench_hs_parts) {
		errors += !!bench_hash_prims_run();
		for (ci = 0; ci < 2; ci++)
			errors += !!bench_hs_aead_prims(ci);
	}
	for (d = 0; d < 2; d++)
		for (ci = 0; ci < 2; ci++)
			for (h = 0; h < ARRAY_SIZE(bench_hash_names); h++) {
				snprintf(name, NOISE_MAX_NAME_LEN + 1, "Noise_XX_%s_%s_%s",
					 bench_dh_names[d], bench_cipher_names[ci],
					 bench_hash_names[h]);
				errors += !!hs_protocol(name);
			}
	for (p = 0; p < ARRAY_SIZE(bench_patterns); p++)
		for (s = 0; s < ARRAY_SIZE(bench_suites); s++) {
			snprintf(name, NOISE_MAX_NAME_LEN + 1, "Noise_%s_%s",
				 bench_patterns[p], bench_suites[s]);
			errors += !!hs_protocol(name);
		}
	for (p = 0; p < ARRAY_SIZE(bench_hfs); p++)
		errors += !!hs_hfs_pair(bench_hfs[p].plain, bench_hfs[p].hfs);
	kfree(name);
	bench_dh_ref_wipe();
	if (errors)
		err = -EIO;
	return err;
}
