// SPDX-License-Identifier: GPL-2.0
/*
 * Replay one test vector through the engine's public API (noise.h) and its
 * two test hooks (noise_internal.h: the ephemeral key, and the KEM seed in
 * the test build): two handshake states, every
 * handshake message written, compared and read, Split, the transport
 * messages, and the handshake hash on both sides. Fallback vectors run
 * IK first (the responder must fail), then XXfallback with roles swapped.
 */

#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "noise.h"
#include "noise_internal.h"
#include "replay.h"

#define NOISE_REPLAY_BUF (NOISE_MAX_MSG_LEN + 64)

/* One side's precomputed static-static DH (NOISE_VEC_PRECOMPUTED_SS). */
struct noise_vreplay_ss {
	enum noise_dh_id dh;
	const u8 *s;
	u8 ss[NOISE_MAX_DHLEN];
};

struct noise_vreplay {
	const struct noise_vector *v;
	u8 *buf, *pt;
	u8 psks[2][NOISE_MAX_PSKS][NOISE_PSK_LEN];
	unsigned int flags;
	struct noise_vreplay_ss pre[2];
	char *why;
	size_t why_len;
};

/* The peer's static key became known: give the handshake DH(s, rs). */
static int noise_replay_ss_cb(void *ctx, struct noise_handshake *hs,
			      const u8 *remote_static)
{
	struct noise_vreplay_ss *p = ctx;
	int err;

	err = noise_dh_shared(p->dh, p->ss, p->s, remote_static);
	if (!err)
		err = noise_handshake_set_precomputed_ss(hs, p->ss);
	memzero_explicit(p->ss, sizeof(p->ss));
	return err == -EINVAL ? 0 : err;	/* no ss token: nothing to give */
}

/*
 * With NOISE_VEC_PRECOMPUTED_SS, DH(s, rs) is computed outside the engine:
 * at creation when both static keys are known, else from the callback.
 */
static int noise_replay_pre_ss(struct noise_vreplay *r, bool init,
			       const struct noise_protocol_info *info,
			       struct noise_keys *k)
{
	struct noise_vreplay_ss *p = &r->pre[!init];
	int err;

	if (!(r->flags & NOISE_VEC_PRECOMPUTED_SS) || !k->local_static)
		return 0;
	p->dh = info->dh;
	p->s = k->local_static;
	if (!k->remote_static) {
		k->remote_static_cb = noise_replay_ss_cb;
		k->cb_ctx = p;
		return 0;
	}
	err = noise_dh_shared(p->dh, p->ss, p->s, k->remote_static);
	k->precomputed_ss = p->ss;
	return err;
}

static __printf(2, 3) enum noise_vec_result
noise_replay_fail(struct noise_vreplay *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, r->why_len, fmt, ap);
	va_end(ap);
	return NOISE_VEC_FAIL;
}

static bool noise_vec_eq(const struct noise_vec_bytes *b, const u8 *p, size_t len)
{
	return b->len == len && (!len || !memcmp(b->p, p, len));
}

/* The keys of one side; false if a key has the wrong length. */
static bool noise_replay_keys(struct noise_vreplay *r, bool init, unsigned int dhlen,
			      struct noise_keys *k)
{
	const struct noise_vector *v = r->v;
	const struct noise_vec_bytes *s = init ? &v->init_static : &v->resp_static;
	const struct noise_vec_bytes *rs = init ? &v->init_remote_static :
						  &v->resp_remote_static;
	const struct noise_vec_bytes *pro = init ? &v->init_prologue : &v->resp_prologue;
	const struct noise_vec_bytes *psks = init ? v->init_psks : v->resp_psks;
	unsigned int n = init ? v->num_init_psks : v->num_resp_psks, i;

	memset(k, 0, sizeof(*k));
	if ((s->p && s->len != dhlen) || (rs->p && rs->len != dhlen) ||
	    n > NOISE_MAX_PSKS)
		return false;
	for (i = 0; i < n; i++)
		memcpy(r->psks[!init][i], psks[i].p, NOISE_PSK_LEN);
	k->local_static = s->p;
	k->remote_static = rs->p;
	k->psks = (const u8 (*)[NOISE_PSK_LEN])r->psks[!init];
	k->num_psks = n;
	k->prologue = pro->p;
	k->prologue_len = pro->len;
	return true;
}

/* messages[i] through a handshake: write, compare, read, compare. */
static enum noise_vec_result noise_replay_hs(struct noise_vreplay *r, unsigned int i,
					     struct noise_handshake *w,
					     struct noise_handshake *rd)
{
	const struct noise_vec_msg *m = &r->v->msgs[i];
	size_t n, pl;
	int err;

	err = noise_handshake_write(w, m->payload.p, m->payload.len, r->buf,
				    NOISE_REPLAY_BUF, &n);
	if (err)
		return noise_replay_fail(r, "message %u: write failed (%d)", i, err);
	if (!noise_vec_eq(&m->ciphertext, r->buf, n))
		return noise_replay_fail(r, "message %u: ciphertext differs", i);
	err = noise_handshake_read(rd, r->buf, n, r->pt, NOISE_REPLAY_BUF, &pl);
	if (err)
		return noise_replay_fail(r, "message %u: read failed (%d)", i, err);
	if (!noise_vec_eq(&m->payload, r->pt, pl))
		return noise_replay_fail(r, "message %u: payload differs", i);
	return NOISE_VEC_PASS;
}

/* messages[i] as a transport message. */
static enum noise_vec_result noise_replay_tr(struct noise_vreplay *r, unsigned int i,
					     struct noise_cipher *send,
					     struct noise_cipher *recv)
{
	const struct noise_vec_msg *m = &r->v->msgs[i];
	int err;

	if (!send || !recv)
		return noise_replay_fail(r, "message %u: no cipher state for it", i);
	if (m->payload.len > NOISE_MAX_PAYLOAD_LEN)
		return noise_replay_fail(r, "message %u: payload too long", i);
	if (m->payload.len)
		memcpy(r->buf, m->payload.p, m->payload.len);
	err = noise_cipher_encrypt(send, NULL, 0, r->buf, m->payload.len);
	if (err)
		return noise_replay_fail(r, "message %u: encrypt failed (%d)", i, err);
	if (!noise_vec_eq(&m->ciphertext, r->buf, m->payload.len + NOISE_TAG_LEN))
		return noise_replay_fail(r, "message %u: transport ciphertext differs", i);
	err = noise_cipher_decrypt(recv, NULL, 0, r->buf, m->payload.len + NOISE_TAG_LEN);
	if (err)
		return noise_replay_fail(r, "message %u: decrypt failed (%d)", i, err);
	if (!noise_vec_eq(&m->payload, r->buf, m->payload.len))
		return noise_replay_fail(r, "message %u: transport payload differs", i);
	return NOISE_VEC_PASS;
}

static enum noise_vec_result noise_replay_hash(struct noise_vreplay *r,
					       struct noise_handshake *ini,
					       struct noise_handshake *res)
{
	const struct noise_vec_bytes *hh = &r->v->handshake_hash;
	u8 h[2][NOISE_MAX_HASHLEN];
	int l0, l1;

	l0 = noise_handshake_hash(ini, h[0], sizeof(h[0]));
	l1 = noise_handshake_hash(res, h[1], sizeof(h[1]));
	if (l0 < 0 || l1 < 0 || l0 != l1 || memcmp(h[0], h[1], l0))
		return noise_replay_fail(r, "handshake hashes differ between the sides");
	if (hh->p && !noise_vec_eq(hh, h[0], l0))
		return noise_replay_fail(r, "handshake_hash differs");
	return NOISE_VEC_PASS;
}

/*
 * The handshake and transport phases of one protocol; messages[@off] is its
 * first message. @ini is the initiator of that protocol.
 */
static enum noise_vec_result noise_replay_run(struct noise_vreplay *r,
					      const struct noise_protocol_info *info,
					      struct noise_handshake *ini,
					      struct noise_handshake *res,
					      unsigned int off)
{
	struct noise_cipher *is = NULL, *ir = NULL, *rs = NULL, *rr = NULL;
	enum noise_vec_result ret = NOISE_VEC_PASS;
	unsigned int i, j;
	int err;

	if (r->v->num_msgs < off + info->num_msgs)
		return noise_replay_fail(r, "fewer messages than the handshake has");
	for (i = off; i < off + info->num_msgs && ret == NOISE_VEC_PASS; i++) {
		j = i - off;
		if (info->one_way || !(j & 1))
			ret = noise_replay_hs(r, i, ini, res);
		else
			ret = noise_replay_hs(r, i, res, ini);
	}
	if (ret != NOISE_VEC_PASS)
		return ret;
	err = noise_handshake_split(ini, &is, &ir);
	if (!err)
		err = noise_handshake_split(res, &rs, &rr);
	if (err) {
		ret = noise_replay_fail(r, "split failed (%d)", err);
		goto out;
	}
	for (; i < r->v->num_msgs && ret == NOISE_VEC_PASS; i++) {
		j = i - off;
		if (info->one_way || !(j & 1))
			ret = noise_replay_tr(r, i, is, rr);
		else
			ret = noise_replay_tr(r, i, rs, ir);
	}
	if (ret == NOISE_VEC_PASS)
		ret = noise_replay_hash(r, ini, res);
out:
	noise_cipher_free(is);
	noise_cipher_free(ir);
	noise_cipher_free(rs);
	noise_cipher_free(rr);
	return ret;
}

static int noise_replay_eph(struct noise_handshake *hs,
			    const struct noise_vec_bytes *e, unsigned int dhlen)
{
	if (!e->p)
		return 0;
	if (e->len != dhlen)
		return -EINVAL;
	return noise_handshake_set_ephemeral_for_testing(hs, e->p);
}

/*
 * hfs vectors: the KEM randomness (init_kem_ephemeral for e1,
 * resp_kem_ephemeral for ekem1) goes in through the test build's hook;
 * without it (-EOPNOTSUPP) such a vector cannot be replayed.
 */
static int noise_replay_kem(struct noise_handshake *hs,
			    const struct noise_vec_bytes *seed)
{
	if (!seed->p)
		return 0;
#ifdef NOISE_TESTING
	return noise_handshake_set_kem_seed_for_testing(hs, seed->p, seed->len);
#else
	return -EOPNOTSUPP;
#endif
}

static enum noise_vec_result noise_replay_plain(struct noise_vreplay *r,
						const struct noise_protocol_info *info)
{
	const struct noise_vector *v = r->v;
	struct noise_handshake *ini = NULL, *res = NULL;
	enum noise_vec_result ret;
	struct noise_keys ki, kr;
	int err;

	if (!noise_replay_keys(r, true, info->dh_len, &ki) ||
	    !noise_replay_keys(r, false, info->dh_len, &kr)) {
		snprintf(r->why, r->why_len, "a key has the wrong length");
		return NOISE_VEC_SKIP;
	}
	if (noise_replay_pre_ss(r, true, info, &ki) ||
	    noise_replay_pre_ss(r, false, info, &kr))
		return noise_replay_fail(r, "static-static DH failed");
	ini = noise_handshake_new(v->name, NOISE_INITIATOR, &ki, GFP_KERNEL);
	res = noise_handshake_new(v->name, NOISE_RESPONDER, &kr, GFP_KERNEL);
	if (IS_ERR(ini) || IS_ERR(res)) {
		ret = noise_replay_fail(r, "handshake creation failed (%d, %d)",
					PTR_ERR_OR_ZERO(ini), PTR_ERR_OR_ZERO(res));
		goto out;
	}
	/* One-way noise-c vectors carry an unused resp_ephemeral: ignore it. */
	if (noise_replay_eph(ini, &v->init_ephemeral, info->dh_len) ||
	    (!info->one_way && noise_replay_eph(res, &v->resp_ephemeral, info->dh_len))) {
		ret = noise_replay_fail(r, "cannot set the ephemeral keys");
		goto out;
	}
	err = noise_replay_kem(ini, &v->init_kem_ephemeral);
	if (!err)
		err = noise_replay_kem(res, &v->resp_kem_ephemeral);
	if (err == -EOPNOTSUPP) {
		snprintf(r->why, r->why_len,
			 "hfs: the KEM seeds need the test build (NOISE_TESTING=1)");
		ret = NOISE_VEC_SKIP;
		goto out;
	}
	if (err) {
		ret = noise_replay_fail(r, "cannot set the KEM seeds (%d)", err);
		goto out;
	}
	ret = noise_replay_run(r, info, ini, res, 0);
out:
	if (!IS_ERR(ini))
		noise_handshake_free(ini);
	if (!IS_ERR(res))
		noise_handshake_free(res);
	return ret;
}

static enum noise_vec_result noise_replay_fallback(struct noise_vreplay *r,
						   const struct noise_protocol_info *info,
						   const struct noise_protocol_info *fb)
{
	const struct noise_vector *v = r->v;
	struct noise_handshake *alice, *bob0, *alice2 = NULL, *bob = NULL;
	enum noise_vec_result ret;
	struct noise_keys ka, kb;
	size_t n, pl;
	int err;

	if (!noise_replay_keys(r, true, info->dh_len, &ka) ||
	    !noise_replay_keys(r, false, info->dh_len, &kb) || !v->msgs[0].ciphertext.p) {
		snprintf(r->why, r->why_len, "a key has the wrong length");
		return NOISE_VEC_SKIP;
	}
	if (noise_replay_pre_ss(r, true, info, &ka) ||
	    noise_replay_pre_ss(r, false, info, &kb))
		return noise_replay_fail(r, "static-static DH failed");
	alice = noise_handshake_new(v->name, NOISE_INITIATOR, &ka, GFP_KERNEL);
	bob0 = noise_handshake_new(v->name, NOISE_RESPONDER, &kb, GFP_KERNEL);
	if (IS_ERR(alice) || IS_ERR(bob0)) {
		ret = noise_replay_fail(r, "initial handshake creation failed");
		goto out;
	}
	ret = noise_replay_fail(r, "cannot set Alice's ephemeral key");
	if (noise_replay_eph(alice, &v->init_ephemeral, info->dh_len))
		goto out;
	/* 1. Alice's first message; Bob must fail to read it. */
	err = noise_handshake_write(alice, v->msgs[0].payload.p, v->msgs[0].payload.len,
				    r->buf, NOISE_REPLAY_BUF, &n);
	if (err || !noise_vec_eq(&v->msgs[0].ciphertext, r->buf, n)) {
		ret = noise_replay_fail(r, "message 0: write failed or differs (%d)", err);
		goto out;
	}
	/* A failed read leaves Bob's handshake as it was, waiting to read. */
	if (!noise_handshake_read(bob0, r->buf, n, r->pt, NOISE_REPLAY_BUF, &pl) ||
	    noise_handshake_next(bob0) != NOISE_ACTION_READ) {
		ret = noise_replay_fail(r, "message 0: Bob read it; fallback not exercised");
		goto out;
	}
	/* 2. Bob initiates the fallback protocol from it (Alice's e kept). */
	bob = noise_handshake_fallback(bob0, v->fallback_name, &kb, GFP_KERNEL);
	alice2 = noise_handshake_fallback(alice, v->fallback_name, &ka, GFP_KERNEL);
	if (IS_ERR(bob) || IS_ERR(alice2)) {
		ret = noise_replay_fail(r, "fallback handshake creation failed (%d, %d)",
					PTR_ERR_OR_ZERO(bob), PTR_ERR_OR_ZERO(alice2));
		goto out;
	}
	ret = noise_replay_fail(r, "cannot set Bob's ephemeral key");
	if (noise_replay_eph(bob, &v->resp_ephemeral, fb->dh_len))
		goto out;
	ret = noise_replay_run(r, fb, bob, alice2, 1);
out:
	if (!IS_ERR_OR_NULL(bob))
		noise_handshake_free(bob);
	if (!IS_ERR_OR_NULL(alice2))
		noise_handshake_free(alice2);
	if (!IS_ERR(alice))
		noise_handshake_free(alice);
	if (!IS_ERR(bob0))
		noise_handshake_free(bob0);
	return ret;
}

/**
 * noise_vector_replay_flags() - replay one vector.
 * @v: the vector.
 * @why: the reason for a FAIL or SKIP, out.
 * @why_len: size of @why.
 * @flags: NOISE_VEC_* options.
 *
 * A vector with "fail": true passes when the replay fails.
 * Context: process context.
 * Return: NOISE_VEC_PASS, NOISE_VEC_FAIL or NOISE_VEC_SKIP.
 */
enum noise_vec_result noise_vector_replay_flags(const struct noise_vector *v,
						char *why, size_t why_len,
						unsigned int flags)
{
	struct noise_protocol_info info, fb;
	enum noise_vec_result ret;
	struct noise_vreplay *r;
	int err;

	why[0] = 0;
	if (v->skip) {
		snprintf(why, why_len, "%s", v->skip);
		return NOISE_VEC_SKIP;
	}
	err = noise_protocol_info(v->name, &info);
	if (!err && v->fallback_name)
		err = noise_protocol_info(v->fallback_name, &fb);
	if (err == -EOPNOTSUPP) {
		snprintf(why, why_len,
			 "not supported by this build (two DH functions? hfs with fallback?)");
		return NOISE_VEC_SKIP;
	}
	if (err) {
		if (v->fail)
			return NOISE_VEC_PASS;
		snprintf(why, why_len, "protocol name refused (%d)", err);
		return NOISE_VEC_FAIL;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		snprintf(why, why_len, "out of memory");
		return NOISE_VEC_FAIL;
	}
	r->v = v;
	r->flags = flags;
	r->why = why;
	r->why_len = why_len;
	r->buf = kmalloc(NOISE_REPLAY_BUF, GFP_KERNEL);
	r->pt = kmalloc(NOISE_REPLAY_BUF, GFP_KERNEL);
	if (!r->buf || !r->pt)
		ret = noise_replay_fail(r, "out of memory");
	else if (v->fallback_name)
		ret = noise_replay_fallback(r, &info, &fb);
	else
		ret = noise_replay_plain(r, &info);
	kfree(r->buf);
	kfree(r->pt);
	kfree_sensitive(r);
	if (v->fail && ret == NOISE_VEC_FAIL) {
		why[0] = 0;
		return NOISE_VEC_PASS;
	}
	if (v->fail && ret == NOISE_VEC_PASS) {
		snprintf(why, why_len, "expected a failure, but the replay succeeded");
		return NOISE_VEC_FAIL;
	}
	return ret;
}

/**
 * noise_vector_replay() - replay one vector, plainly.
 * @v: the vector.
 * @why: the reason for a FAIL or SKIP, out.
 * @why_len: size of @why.
 *
 * Context: process context.
 * Return: as noise_vector_replay_flags().
 */
enum noise_vec_result noise_vector_replay(const struct noise_vector *v,
					  char *why, size_t why_len)
{
	return noise_vector_replay_flags(v, why, why_len, 0);
}
