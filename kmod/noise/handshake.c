// SPDX-License-Identifier: GPL-2.0
/*
 * HandshakeState (rev 34 section 5.3): initialization with prologue and
 * pre-messages, WriteMessage and ReadMessage token by token, and Split.
 * A received message is processed on a copy of the state and committed
 * only if it is valid: a forged message changes nothing. An error while
 * writing a message destroys the handshake: secrets are wiped and every
 * later call fails with -ENOTCONN. No crypto transform is allocated: the
 * handshake encrypts with the crypto library (hs_cipher.c).
 */

#include <crypto/algapi.h>	/* crypto_memneq(), also on 6.1 */
#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "dh.h"
#include "noise_internal.h"
#include "hash.h"
#include "mlkem.h"
#include "symmetric.h"

enum noise_hs_state { NOISE_HS_RUNNING, NOISE_HS_FAILED, NOISE_HS_DONE };

/**
 * struct noise_hs_var - what processing a received message may change.
 * @ss: the SymmetricState.
 * @re: remote ephemeral public key.
 * @rs: remote static public key.
 * @ss_pre: the precomputed DH(s, rs) for the ss token.
 * @psks: the PSKs; each is wiped when its token is processed.
 * @psk: index of the next psk token.
 * @psk_set: bit i: psk i was supplied.
 * @has_re: @re is set.
 * @has_rs: @rs is set.
 * @has_ss_pre: @ss_pre is set.
 * @has_re1: hfs: the peer's e1 (struct noise_hs_kem @peer) was read.
 *
 * noise_handshake_read() works on a copy and commits it only on success.
 */
struct noise_hs_var {
	struct noise_symmetric ss;
	u8 re[NOISE_MAX_DHLEN], rs[NOISE_MAX_DHLEN], ss_pre[NOISE_MAX_DHLEN];
	u8 psks[NOISE_MAX_PSKS][NOISE_PSK_LEN];
	u8 psk, psk_set;
	bool has_re, has_rs, has_ss_pre, has_re1;
};

/* The larger of a KEM public key and a KEM ciphertext (ML-KEM-1024's). */
#define NOISE_HS_KEM_PEER_MAX	NOISE_MLKEM_MAX_EK_SIZE
static_assert(NOISE_MLKEM_MAX_CT_SIZE <= NOISE_HS_KEM_PEER_MAX);

/**
 * struct noise_hs_kem - the KEM state of an hfs handshake (about 11 KiB),
 * allocated with the handshake, after it, only for hfs protocols.
 * @w: ML-KEM work area (wiped by every ML-KEM call).
 * @dk: our decapsulation key, from e1 until ekem1 is read.
 * @a: the matrix A^ of @dk's key pair, kept from KeyGen so that Decaps
 *	does not expand it again (public, wiped with the rest): 8 KiB after
 *	this struct in the same allocation, only on the side that writes e1
 *	(and so reads ekem1); NULL on the other.
 * @peer: the peer's e1 (the responder, from reading it until writing
 *	ekem1) or the received ekem1 ciphertext (the initiator, while
 *	reading it). Scratch that a failed read may leave: only
 *	struct noise_hs_var @has_re1 says it holds the committed e1.
 * @has_dk: @dk is set.
 * @test_len: test build only: @test_seed holds the randomness of our
 *	next KEM token (64 bytes d || z for e1, 32 bytes m for ekem1).
 * @test_seed: see @test_len.
 */
struct noise_hs_kem {
	struct noise_mlkem_work w;
	u8 dk[NOISE_MLKEM_MAX_DK_SIZE];
	struct noise_mlkem_matrix *a;
	u8 peer[NOISE_HS_KEM_PEER_MAX];
	bool has_dk;
#ifdef NOISE_TESTING
	u8 test_len;
	u8 test_seed[NOISE_MLKEM_SEED_SIZE];
#endif
};

/**
 * struct noise_handshake - a HandshakeState.
 * @proto: the parsed protocol and pattern.
 * @v: the state that messages change.
 * @tmp: the copy a read works on.
 * @role: enum noise_role, in the protocol named by @proto.
 * @state: enum noise_hs_state.
 * @msg: index of the next handshake message.
 * @in_read: a read is running (setters called from @remote_static_cb
 *	change @tmp).
 * @has_s: @s and @s_pub are set.
 * @has_e: @e and @e_pub are set.
 * @fixed_e: @test_e replaces GENERATE_KEYPAIR() at the next e token.
 * @e_wiped: @e was wiped after its last use (pattern @e_last).
 * @has_failed_re: @failed_re holds the e of the last message that failed
 *	to read (for a fallback, section 10).
 * @s: static private key.
 * @s_pub: static public key.
 * @e: ephemeral private key.
 * @e_pub: ephemeral public key.
 * @test_e: test-only fixed ephemeral private key.
 * @failed_re: see @has_failed_re.
 * @sre_pre: DH(@s, @sre_re), supplied by noise_handshake_set_precomputed_sre();
 *	used once, by the token that computes DH(s, re) if re is @sre_re.
 * @sre_re: the remote ephemeral public key @sre_pre belongs to.
 * @has_sre_pre: @sre_pre is set and not used yet.
 * @remote_static_cb: see struct noise_keys.
 * @cb_ctx: its argument.
 * @kem: the KEM state, for hfs protocols only (@proto.kem): one
 *	element, in the same allocation; none otherwise.
 */
struct noise_handshake {
	struct noise_protocol proto;
	struct noise_hs_var v, tmp;
	u8 role, state, msg;
	bool in_read, has_s, has_e, fixed_e, e_wiped, has_failed_re;
	u8 s[NOISE_MAX_DHLEN], s_pub[NOISE_MAX_DHLEN];
	u8 e[NOISE_MAX_DHLEN], e_pub[NOISE_MAX_DHLEN];
	u8 test_e[NOISE_MAX_DHLEN];
	u8 failed_re[NOISE_MAX_DHLEN];
	u8 sre_pre[NOISE_MAX_DHLEN], sre_re[NOISE_MAX_DHLEN];
	bool has_sre_pre;
	int (*remote_static_cb)(void *ctx, struct noise_handshake *hs,
				const u8 *remote_static);
	void *cb_ctx;
	struct noise_hs_kem kem[];
};

static unsigned int noise_hs_dhlen(const struct noise_handshake *hs)
{
	return noise_dh_len(hs->proto.dh);
}

/* The state the setters change: the read's copy while a read runs. */
static struct noise_hs_var *noise_hs_act(struct noise_handshake *hs)
{
	return hs->in_read ? &hs->tmp : &hs->v;
}

static bool noise_side_has(const struct noise_pattern *p, int side, u8 tok,
			   bool pre_only)
{
	unsigned int i;

	if (memchr(p->pre[side], tok, NOISE_MAX_PRE_TOKENS))
		return true;
	for (i = 0; !pre_only && i < p->num_msgs; i++)
		if (noise_pattern_sender(p, i) == side &&
		    memchr(p->msgs[i], tok, NOISE_MAX_TOKENS))
			return true;
	return false;
}

static bool noise_pattern_has(const struct noise_pattern *p, u8 tok)
{
	unsigned int i;

	for (i = 0; i < p->num_msgs; i++)
		if (memchr(p->msgs[i], tok, NOISE_MAX_TOKENS))
			return true;
	return false;
}

static void noise_fill_info(const struct noise_protocol *proto,
			    struct noise_protocol_info *info)
{
	const struct noise_pattern *p = &proto->pattern;
	int r;

	info->dh = proto->dh;
	info->cipher = proto->cipher;
	info->dh_len = noise_dh_len(proto->dh);
	info->hash_len = noise_hash_len(proto->hash);
	info->num_msgs = p->num_msgs;
	info->num_psks = p->num_psks;
	info->one_way = p->one_way;
	info->fallback = proto->fallback;
	info->kem_pub_len = proto->kem ? noise_mlkem_ek_size(proto->kem) : 0;
	info->kem_ct_len = proto->kem ? noise_mlkem_ct_size(proto->kem) : 0;
	for (r = 0; r < 2; r++) {
		info->needs_local_static[r] = noise_side_has(p, r, NOISE_TOK_S, false);
		info->needs_remote_static[r] = noise_side_has(p, !r, NOISE_TOK_S, true);
	}
}

/**
 * noise_protocol_info() - parse and validate a protocol name.
 * @name: the protocol name.
 * @info: filled in on success (may be NULL to only validate).
 *
 * Context: any.
 * Return: 0; -EINVAL for an invalid name or pattern; -EOPNOTSUPP for a
 * valid name this kernel cannot run (two DH functions, hfs with fallback,
 * 448 while X448 is unavailable, a hash whose crypto driver is missing).
 */
int noise_protocol_info(const char *name, struct noise_protocol_info *info)
{
	struct noise_protocol proto;
	int err;

	err = noise_protocol_parse(&proto, name);
	if (!err && !noise_hash_available(proto.hash))
		err = -EOPNOTSUPP;
	if (!err && info)
		noise_fill_info(&proto, info);
	return err;
}
EXPORT_SYMBOL_GPL(noise_protocol_info);

/* Wipe the KEM state, its matrix included; @a stays where it is. */
static void noise_hs_kem_wipe(struct noise_hs_kem *kem)
{
	struct noise_mlkem_matrix *a = kem->a;

	if (a)
		memzero_explicit(a, sizeof(*a));
	memzero_explicit(kem, sizeof(*kem));
	kem->a = a;
}

/* Wipe every secret and refuse every later message (after an error or Split). */
static void noise_hs_wipe(struct noise_handshake *hs)
{
	noise_symmetric_destroy(&hs->v.ss);
	memzero_explicit(&hs->tmp, sizeof(hs->tmp));
	memzero_explicit(hs->v.psks, sizeof(hs->v.psks));
	memzero_explicit(hs->v.ss_pre, sizeof(hs->v.ss_pre));
	memzero_explicit(hs->sre_pre, sizeof(hs->sre_pre));
	memzero_explicit(hs->s, sizeof(hs->s));
	memzero_explicit(hs->e, sizeof(hs->e));
	memzero_explicit(hs->test_e, sizeof(hs->test_e));
	if (hs->proto.kem)
		noise_hs_kem_wipe(hs->kem);
	hs->v.psk_set = 0;
	hs->v.has_ss_pre = false;
	hs->has_sre_pre = false;
	hs->has_s = false;
	hs->has_e = false;
	hs->fixed_e = false;
	hs->has_failed_re = false;
	hs->state = NOISE_HS_FAILED;
}

/*
 * A message was written or read: count it, and wipe our ephemeral private
 * key (and any unused test copy) if that was its last use (e_last).
 */
static void noise_hs_message_done(struct noise_handshake *hs)
{
	if (hs->msg == hs->proto.pattern.e_last[hs->role]) {
		memzero_explicit(hs->e, sizeof(hs->e));
		memzero_explicit(hs->test_e, sizeof(hs->test_e));
		hs->has_e = false;
		hs->fixed_e = false;
		hs->e_wiped = true;
	}
	/* hfs: the KEM secrets are used up once ekem1 is written or read. */
	if (hs->proto.kem && hs->msg == hs->proto.pattern.ekem1_msg) {
		noise_hs_kem_wipe(hs->kem);
		hs->v.has_re1 = false;
	}
	hs->msg++;
}

static int noise_hs_load_keys(struct noise_handshake *hs,
			      const struct noise_keys *keys)
{
	const struct noise_pattern *p = &hs->proto.pattern;
	unsigned int dhlen = noise_hs_dhlen(hs);
	int me = hs->role, err = 0;

	if ((keys->num_psks && keys->num_psks != p->num_psks) ||
	    (keys->num_psks && !keys->psks))
		return -EINVAL;
	if (keys->num_psks) {
		memcpy(hs->v.psks, keys->psks, keys->num_psks * NOISE_PSK_LEN);
		hs->v.psk_set = (1U << keys->num_psks) - 1;
	}
	if (noise_side_has(p, me, NOISE_TOK_S, false)) {
		if (!keys->local_static)
			return -EINVAL;
		memcpy(hs->s, keys->local_static, dhlen);
		if (keys->local_static_public)
			memcpy(hs->s_pub, keys->local_static_public, dhlen);
		else
			err = noise_dh_public(hs->proto.dh, hs->s_pub, hs->s);
		if (err)
			return err;
		hs->has_s = true;
	}
	if (noise_side_has(p, !me, NOISE_TOK_S, true)) {
		if (!keys->remote_static)
			return -EINVAL;
		memcpy(hs->v.rs, keys->remote_static, dhlen);
		hs->v.has_rs = true;
	}
	if (keys->precomputed_ss && hs->has_s && hs->v.has_rs) {
		memcpy(hs->v.ss_pre, keys->precomputed_ss, dhlen);
		hs->v.has_ss_pre = true;
	}
	if (memchr(p->pre[me], NOISE_TOK_E, NOISE_MAX_PRE_TOKENS)) {
		if (!keys->local_ephemeral)
			return -EINVAL;
		memcpy(hs->e, keys->local_ephemeral, dhlen);
		err = noise_dh_public(hs->proto.dh, hs->e_pub, hs->e);
		if (err)
			return err;
		hs->has_e = true;
	}
	if (memchr(p->pre[!me], NOISE_TOK_E, NOISE_MAX_PRE_TOKENS)) {
		if (!keys->remote_ephemeral)
			return -EINVAL;
		memcpy(hs->v.re, keys->remote_ephemeral, dhlen);
		hs->v.has_re = true;
	}
	hs->remote_static_cb = keys->remote_static_cb;
	hs->cb_ctx = keys->cb_ctx;
	return 0;
}

/* The pre-message keys, the initiator's first (5.3), after the prologue. */
static void noise_hs_mix_premessages(struct noise_handshake *hs)
{
	const struct noise_pattern *p = &hs->proto.pattern;
	unsigned int dhlen = noise_hs_dhlen(hs);
	struct noise_symmetric *ss = &hs->v.ss;
	int side, i;

	for (side = 0; side < 2; side++) {
		bool mine = side == hs->role;

		for (i = 0; p->pre[side][i]; i++) {
			const u8 *pub;

			if (p->pre[side][i] == NOISE_TOK_E)
				pub = mine ? hs->e_pub : hs->v.re;
			else
				pub = mine ? hs->s_pub : hs->v.rs;
			noise_mix_hash(ss, pub, dhlen);
			/* 9.2: in a PSK handshake every e also does MixKey. */
			if (p->pre[side][i] == NOISE_TOK_E && p->num_psks)
				noise_mix_key(ss, pub, dhlen);
		}
	}
}

/* What struct noise_handshake_template holds. */
struct noise_hs_template {
	struct noise_protocol proto;
	u8 h[NOISE_MAX_HASHLEN];
	u8 ck[NOISE_MAX_HASHLEN];
};

static_assert(sizeof(struct noise_hs_template) <= sizeof(struct noise_handshake_template));
static_assert(__alignof__(struct noise_hs_template) <=
	      __alignof__(struct noise_handshake_template));

/*
 * A new handshake of @tp's protocol: its SymmetricState from @tp (the
 * name and the prologue done: @keys->prologue is not read), then the
 * pre-messages. Every handshake is made here: noise_handshake_new() and
 * _fallback() fill a template on the stack, noise_handshake_new_from() is
 * given one.
 */
static struct noise_handshake *noise_hs_create(const struct noise_hs_template *tp,
					       enum noise_role role,
					       const struct noise_keys *keys,
					       gfp_t gfp)
{
	const struct noise_protocol *proto = &tp->proto;
	struct noise_handshake *hs;
	bool matrix;
	int err;

	/* hfs: e1 is written by the side that does not write ekem1. */
	matrix = proto->kem &&
		 noise_pattern_sender(&proto->pattern, proto->pattern.ekem1_msg) != role;
	hs = kzalloc(struct_size(hs, kem, proto->kem ? 1 : 0) +
		     (matrix ? sizeof(struct noise_mlkem_matrix) : 0), gfp);
	if (!hs)
		return ERR_PTR(-ENOMEM);
	atomic_inc(&noise_stat_kmallocs);
	if (matrix)
		hs->kem->a = (struct noise_mlkem_matrix *)(hs->kem + 1);
	hs->role = role;
	hs->proto = *proto;
	err = noise_hs_load_keys(hs, keys);
	if (err) {
		noise_handshake_free(hs);
		return ERR_PTR(err);
	}
	noise_symmetric_init_at(&hs->v.ss, &hs->proto, tp->h, tp->ck);
	noise_hs_mix_premessages(hs);
	return hs;
}

/*
 * Parse @name into @tp->proto, then InitializeSymmetric() and
 * MixHash(prologue) into @tp->h and @tp->ck. On error only @tp->proto
 * has been written.
 */
static int noise_hs_template_fill(struct noise_hs_template *tp, const char *name,
				  const u8 *prologue, size_t prologue_len)
{
	struct noise_symmetric ss;
	int err;

	err = noise_protocol_parse(&tp->proto, name);
	if (!err && !noise_hash_available(tp->proto.hash))
		err = -EOPNOTSUPP;
	if (err)
		return err;
	noise_symmetric_init(&ss, &tp->proto);
	noise_mix_hash(&ss, prologue, prologue_len);
	memcpy(tp->h, ss.h, ss.hash_len);
	memcpy(tp->ck, ss.ck, ss.hash_len);
	noise_symmetric_destroy(&ss);
	return 0;
}

/**
 * noise_handshake_new() - Initialize() a HandshakeState.
 * @name: the protocol name, e.g. "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s".
 * @role: NOISE_INITIATOR or NOISE_RESPONDER.
 * @keys: keys, PSKs, prologue and callback; @keys->num_psks must match the
 *	pattern or be 0 (PSKs supplied later, noise_handshake_set_psk()),
 *	and every key the pattern needs from this role must be present.
 * @gfp: allocation flags for the handshake state (GFP_ATOMIC works).
 *
 * Allocates one struct noise_handshake (about 1.9 KiB on x86-64; with hfs,
 * about 11 KiB more for the KEM state, and 8 KiB more on the side that
 * writes e1 for ML-KEM's matrix) with one kmalloc and nothing else:
 * no crypto transform (the handshake encrypts with the crypto library),
 * nothing more until noise_handshake_split().
 * Computes the local static public key (one scalar multiplication) unless
 * @keys->local_static_public gives it.
 * Context: any context @gfp allows (process, or softirq with GFP_ATOMIC);
 * not hard-irq.
 * Return: the handshake; ERR_PTR(-EINVAL) for an invalid name, a missing
 * key or a wrong number of PSKs, ERR_PTR(-EOPNOTSUPP) for an unsupported
 * algorithm (see noise_protocol_info()), ERR_PTR(-ENOMEM).
 */
struct noise_handshake *noise_handshake_new(const char *name, enum noise_role role,
					    const struct noise_keys *keys, gfp_t gfp)
{
	struct noise_hs_template t;
	int err;

	if (role != NOISE_INITIATOR && role != NOISE_RESPONDER)
		return ERR_PTR(-EINVAL);
	err = noise_hs_template_fill(&t, name, keys->prologue, keys->prologue_len);
	if (err)
		return ERR_PTR(err);
	return noise_hs_create(&t, role, keys, gfp);
}
EXPORT_SYMBOL_GPL(noise_handshake_new);

/**
 * noise_handshake_template_init() - parse a protocol name once, and the
 *	start of its handshakes with a prologue.
 * @t: filled in (left zeroed on error, which noise_handshake_new_from()
 *	refuses).
 * @name: the protocol name, as for noise_handshake_new().
 * @prologue: the prologue every handshake made from @t uses.
 * @prologue_len: its length.
 *
 * InitializeSymmetric(name) and MixHash(prologue) of section 5.3, done
 * here once instead of in every handshake; a responder that answers many
 * initiations saves the parse and up to three hash compressions each.
 * Context: any; no allocation.
 * Return: 0, or -EINVAL / -EOPNOTSUPP as noise_handshake_new() would.
 */
int noise_handshake_template_init(struct noise_handshake_template *t, const char *name,
				  const u8 *prologue, size_t prologue_len)
{
	struct noise_hs_template *tp = (struct noise_hs_template *)t;
	int err;

	memset(t, 0, sizeof(*t));
	err = noise_hs_template_fill(tp, name, prologue, prologue_len);
	if (err)
		memset(&tp->proto, 0, sizeof(tp->proto));
	return err;
}
EXPORT_SYMBOL_GPL(noise_handshake_template_init);

/**
 * noise_handshake_new_from() - Initialize() a HandshakeState from a template.
 * @t: from noise_handshake_template_init().
 * @role: NOISE_INITIATOR or NOISE_RESPONDER.
 * @keys: as for noise_handshake_new(), but the prologue is @t's:
 *	@keys->prologue must be NULL and @keys->prologue_len 0.
 * @gfp: allocation flags for the handshake state.
 *
 * The same handshake noise_handshake_new() makes from @t's name and
 * prologue, without parsing the name or hashing it and the prologue.
 * Context: as noise_handshake_new().
 * Return: the handshake or an ERR_PTR as noise_handshake_new();
 * ERR_PTR(-EINVAL) for a template that was never filled, or a prologue
 * in @keys.
 */
struct noise_handshake *noise_handshake_new_from(const struct noise_handshake_template *t,
						 enum noise_role role,
						 const struct noise_keys *keys, gfp_t gfp)
{
	const struct noise_hs_template *tp = (const struct noise_hs_template *)t;

	if ((role != NOISE_INITIATOR && role != NOISE_RESPONDER) ||
	    !tp->proto.name_len || keys->prologue || keys->prologue_len)
		return ERR_PTR(-EINVAL);
	return noise_hs_create(tp, role, keys, gfp);
}
EXPORT_SYMBOL_GPL(noise_handshake_new_from);

/**
 * noise_handshake_fallback() - start a fallback protocol from a handshake.
 * @old: the handshake that is abandoned: Alice's (she initiated it and has
 *	sent e) or Bob's (he responded and failed to read Alice's first
 *	message, or read it).
 * @name: the fallback protocol, e.g. "Noise_XXfallback_25519_AESGCM_SHA256":
 *	it must have the fallback modifier and the DH, cipher and hash of
 *	@old (and no KEM: hfs with fallback is not supported).
 * @keys: keys and prologue for the new handshake; @keys->local_ephemeral
 *	and @keys->remote_ephemeral are ignored: they come from @old.
 * @gfp: allocation flags.
 *
 * Noise Pipes (section 10.5): Bob, the responder of IK, fails to read
 * Alice's message (noise_handshake_read() leaves his handshake as it was
 * and keeps the e of the failed message); he calls this on his IK
 * handshake and becomes the initiator of XXfallback, with Alice's e as the
 * pre-message. Alice, on receiving Bob's fallback message, calls this on
 * her IK handshake (which keeps her e until it has read message 1) and
 * becomes the responder, her e the pre-message. @old is left as it is;
 * free it afterwards.
 * Context: as noise_handshake_new().
 * Return: the new handshake or an ERR_PTR (see noise_handshake_new());
 * ERR_PTR(-EINVAL) if @name is not a fallback protocol of @old's DH, cipher
 * and hash, or @old has no ephemeral key for it.
 */
struct noise_handshake *noise_handshake_fallback(struct noise_handshake *old,
						 const char *name,
						 const struct noise_keys *keys,
						 gfp_t gfp)
{
	const struct noise_protocol *proto;
	struct noise_keys k = *keys;
	struct noise_hs_template t;
	enum noise_role role;
	int err;

	if (old->state != NOISE_HS_RUNNING)
		return ERR_PTR(-EINVAL);
	err = noise_hs_template_fill(&t, name, keys->prologue, keys->prologue_len);
	if (err)
		return ERR_PTR(err);
	proto = &t.proto;
	if (!proto->fallback || proto->dh != old->proto.dh || proto->kem != old->proto.kem ||
	    proto->cipher != old->proto.cipher || proto->hash != old->proto.hash)
		return ERR_PTR(-EINVAL);
	k.local_ephemeral = NULL;
	k.remote_ephemeral = NULL;
	if (old->role == NOISE_INITIATOR) {
		if (!old->has_e)
			return ERR_PTR(-EINVAL);
		k.local_ephemeral = old->e;
		role = NOISE_RESPONDER;
	} else {
		if (old->has_failed_re)
			k.remote_ephemeral = old->failed_re;
		else if (old->v.has_re)
			k.remote_ephemeral = old->v.re;
		else
			return ERR_PTR(-EINVAL);
		role = NOISE_INITIATOR;
	}
	return noise_hs_create(&t, role, &k, gfp);
}
EXPORT_SYMBOL_GPL(noise_handshake_fallback);

/**
 * noise_handshake_set_ephemeral_for_testing() - TEST ONLY: fix the next
 * ephemeral private key instead of generating a random one.
 * @hs: the handshake, before its e token.
 * @priv: DHLEN-byte private key.
 *
 * Exists to replay test vectors (KUnit and the noise_vectors self-test).
 * Exported only in the NOISE_INTERNAL namespace (noise_internal.h), so no
 * module pins ephemerals by accident. Ephemeral keys must be fresh for
 * every real handshake (section 14).
 * Context: any.
 * Return: 0; -EINVAL if @hs already has (or had) its ephemeral key or
 * failed.
 */
int noise_handshake_set_ephemeral_for_testing(struct noise_handshake *hs,
					      const u8 *priv)
{
	if (hs->state != NOISE_HS_RUNNING || hs->has_e || hs->e_wiped)
		return -EINVAL;
	memcpy(hs->test_e, priv, noise_hs_dhlen(hs));
	hs->fixed_e = true;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_handshake_set_ephemeral_for_testing, NOISE_INTERNAL);

#ifdef NOISE_TESTING
/**
 * noise_handshake_set_kem_seed_for_testing() - TEST ONLY (test build): fix
 * the randomness of the next KEM token this side sends (hfs).
 * @hs: the handshake, before that token.
 * @seed: for e1, the 64-byte seed d || z of ML-KEM.KeyGen_internal; for
 *	ekem1, the 32-byte message m of ML-KEM.Encaps_internal.
 * @len: 64 or 32.
 *
 * Replays hfs test vectors (init_kem_ephemeral, resp_kem_ephemeral), as
 * noise_handshake_set_ephemeral_for_testing() does for e. Built only with
 * NOISE_TESTING, exported only in the NOISE_INTERNAL namespace. A seed of
 * the wrong length for the token is ignored (random keys are used).
 * Context: any.
 * Return: 0; -EINVAL if @hs is not an hfs handshake, failed, is past its
 * KEM tokens, or @len is neither 64 nor 32.
 */
int noise_handshake_set_kem_seed_for_testing(struct noise_handshake *hs,
					     const u8 *seed, size_t len)
{
	if (!hs->proto.kem || hs->state != NOISE_HS_RUNNING ||
	    hs->msg > hs->proto.pattern.ekem1_msg ||
	    (len != NOISE_MLKEM_SEED_SIZE && len != NOISE_MLKEM_MSG_SIZE))
		return -EINVAL;
	memcpy(hs->kem->test_seed, seed, len);
	hs->kem->test_len = len;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_handshake_set_kem_seed_for_testing, NOISE_INTERNAL);
#endif

/* The test seed, if any, is used by one KEM token. */
static void noise_hs_kem_test_done(struct noise_hs_kem *kem)
{
#ifdef NOISE_TESTING
	memzero_explicit(kem->test_seed, sizeof(kem->test_seed));
	kem->test_len = 0;
#endif
}

/**
 * noise_handshake_set_psk() - supply a PSK.
 * @hs: the handshake.
 * @i: the psk's index, 0-based, in the order the psk tokens are met.
 * @psk: 32 bytes.
 *
 * For a handshake created with @keys->num_psks == 0, or to replace one not
 * yet used: typically from @keys->remote_static_cb, once the peer is known.
 * Called from the callback during a read, it takes effect only if the
 * read succeeds.
 * Context: any.
 * Return: 0; -EINVAL if @i is out of range or that psk was consumed;
 * -ENOTCONN if @hs failed or is complete.
 */
int noise_handshake_set_psk(struct noise_handshake *hs, unsigned int i,
			    const u8 psk[NOISE_PSK_LEN])
{
	struct noise_hs_var *v = noise_hs_act(hs);

	if (hs->state != NOISE_HS_RUNNING)
		return -ENOTCONN;
	if (i >= hs->proto.pattern.num_psks || i < v->psk)
		return -EINVAL;
	memcpy(v->psks[i], psk, NOISE_PSK_LEN);
	v->psk_set |= 1U << i;
	return 0;
}
EXPORT_SYMBOL_GPL(noise_handshake_set_psk);

/**
 * noise_handshake_set_precomputed_ss() - supply DH(local static, remote
 * static) for the ss token.
 * @hs: the handshake; its pattern has an ss token.
 * @ss: DHLEN bytes, as noise_dh_shared() computes them.
 *
 * Saves one scalar multiplication per handshake with a known peer (a
 * caller caches it per peer, as WireGuard does). Not checked: a wrong
 * value makes the handshake fail authentication. Typically called from
 * @keys->remote_static_cb (the responder of IK learns the peer there);
 * then it takes effect only if the read succeeds.
 * Context: any.
 * Return: 0; -EINVAL if the pattern has no ss token or this role has no
 * static key; -ENOTCONN if @hs failed or is complete.
 */
int noise_handshake_set_precomputed_ss(struct noise_handshake *hs, const u8 *ss)
{
	struct noise_hs_var *v = noise_hs_act(hs);

	if (hs->state != NOISE_HS_RUNNING)
		return -ENOTCONN;
	if (!hs->has_s || !noise_pattern_has(&hs->proto.pattern, NOISE_TOK_SS))
		return -EINVAL;
	memcpy(v->ss_pre, ss, noise_hs_dhlen(hs));
	v->has_ss_pre = true;
	return 0;
}
EXPORT_SYMBOL_GPL(noise_handshake_set_precomputed_ss);

/**
 * noise_handshake_set_precomputed_sre() - supply DH(local static, @re) for
 * the token that computes it (the responder's es, the initiator's se).
 * @hs: the handshake.
 * @re: DHLEN bytes: the remote ephemeral public key the value belongs to.
 * @dh: DHLEN bytes: DH(local static private key, @re), as noise_dh_shared()
 *	computes it (a secret: the engine wipes its copy once used or with
 *	@hs; the caller wipes its own).
 *
 * For a caller that has computed this DH already: a responder that read
 * an identity hint encrypted to its static key with the initiator's
 * ephemeral, before the message that carries that ephemeral. The value is
 * used only if the remote ephemeral the handshake reads is @re (compared
 * in full), and only once; otherwise the DH is computed as usual. Not
 * checked beyond that: a wrong value makes the handshake fail
 * authentication.
 * Context: any.
 * Return: 0; -EINVAL if this role has no static key or never computes
 * DH(s, re) in the pattern; -ENOTCONN if @hs failed or is complete.
 */
int noise_handshake_set_precomputed_sre(struct noise_handshake *hs, const u8 *re,
					const u8 *dh)
{
	u8 tok = hs->role == NOISE_INITIATOR ? NOISE_TOK_SE : NOISE_TOK_ES;
	unsigned int dhlen = noise_hs_dhlen(hs);

	if (hs->state != NOISE_HS_RUNNING)
		return -ENOTCONN;
	if (!hs->has_s || !noise_pattern_has(&hs->proto.pattern, tok))
		return -EINVAL;
	memcpy(hs->sre_re, re, dhlen);
	memcpy(hs->sre_pre, dh, dhlen);
	hs->has_sre_pre = true;
	return 0;
}
EXPORT_SYMBOL_GPL(noise_handshake_set_precomputed_sre);

/*
 * A DH of our static key with @pub that the caller supplied: DH(s, rs)
 * (any number of times) or DH(s, re) for this re (once). Mix it in and
 * say so.
 */
static bool noise_hs_dh_pre(struct noise_handshake *hs, struct noise_hs_var *v,
			    const u8 *pub)
{
	unsigned int dhlen = noise_hs_dhlen(hs);

	if (pub == v->rs && v->has_ss_pre) {
		noise_mix_key(&v->ss, v->ss_pre, dhlen);
		return true;
	}
	if (pub != v->re || !hs->has_sre_pre || !v->has_re ||
	    crypto_memneq(hs->sre_re, v->re, dhlen))
		return false;
	noise_mix_key(&v->ss, hs->sre_pre, dhlen);
	memzero_explicit(hs->sre_pre, sizeof(hs->sre_pre));
	hs->has_sre_pre = false;
	return true;
}

/**
 * noise_handshake_next() - what the handshake expects next.
 * @hs: the handshake.
 *
 * Context: any.
 * Return: an enum noise_action.
 */
enum noise_action noise_handshake_next(const struct noise_handshake *hs)
{
	const struct noise_pattern *p = &hs->proto.pattern;

	if (hs->state != NOISE_HS_RUNNING)
		return NOISE_ACTION_FAILED;
	if (hs->msg >= p->num_msgs)
		return NOISE_ACTION_SPLIT;
	return noise_pattern_sender(p, hs->msg) == hs->role ? NOISE_ACTION_WRITE :
							      NOISE_ACTION_READ;
}
EXPORT_SYMBOL_GPL(noise_handshake_next);

/**
 * noise_handshake_protocol_name() - the protocol name of a handshake.
 * @hs: the handshake.
 *
 * Context: any.
 * Return: the name it was created with (lives as long as @hs).
 */
const char *noise_handshake_protocol_name(const struct noise_handshake *hs)
{
	return hs->proto.name;
}
EXPORT_SYMBOL_GPL(noise_handshake_protocol_name);

/*
 * The fixed size of the current message without its payload, and whether
 * the payload will be encrypted; computed before any state changes.
 */
static size_t noise_hs_overhead(const struct noise_handshake *hs, bool *key)
{
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];
	unsigned int dhlen = noise_hs_dhlen(hs);
	size_t len = 0;

	*key = hs->v.ss.cs.has_key;
	for (; *tok; tok++) {
		if (*tok == NOISE_TOK_E) {
			len += dhlen;
			*key |= hs->proto.pattern.num_psks;
		} else if (*tok == NOISE_TOK_S) {
			len += dhlen + (*key ? NOISE_TAG_LEN : 0);
		} else if (*tok == NOISE_TOK_E1) {
			len += noise_mlkem_ek_size(hs->proto.kem) + (*key ? NOISE_TAG_LEN : 0);
		} else if (*tok == NOISE_TOK_EKEM1) {
			/* EncryptAndHash(ct), then MixKey */
			len += noise_mlkem_ct_size(hs->proto.kem) + (*key ? NOISE_TAG_LEN : 0);
			*key = true;
		} else {
			*key = true;
		}
	}
	return len;
}

/* ee, es, se, ss: MixKey(DH(...)); the DH output is wiped. */
static int noise_hs_dh(struct noise_handshake *hs, struct noise_hs_var *v, u8 tok)
{
	bool init = hs->role == NOISE_INITIATOR;
	unsigned int dhlen = noise_hs_dhlen(hs);
	const u8 *priv, *pub;
	u8 out[NOISE_MAX_DHLEN];
	int err;

	switch (tok) {
	case NOISE_TOK_EE:
		priv = hs->e;
		pub = v->re;
		break;
	case NOISE_TOK_ES:	/* initiator: DH(e, rs); responder: DH(s, re) */
		priv = init ? hs->e : hs->s;
		pub = init ? v->rs : v->re;
		break;
	case NOISE_TOK_SE:	/* initiator: DH(s, re); responder: DH(e, rs) */
		priv = init ? hs->s : hs->e;
		pub = init ? v->re : v->rs;
		break;
	default:		/* ss */
		priv = hs->s;
		pub = v->rs;
		break;
	}
	if (priv == hs->s && noise_hs_dh_pre(hs, v, pub))
		return 0;
	err = noise_dh_shared(hs->proto.dh, out, priv, pub);
	if (!err)
		noise_mix_key(&v->ss, out, dhlen);
	memzero_explicit(out, sizeof(out));
	return err;
}

/* psk: MixKeyAndHash(psk); the PSK is wiped once used. */
static int noise_hs_psk(struct noise_hs_var *v)
{
	u8 *psk = v->psks[v->psk];

	if (!(v->psk_set & (1U << v->psk)))
		return -ENOKEY;
	noise_mix_key_and_hash(&v->ss, psk, NOISE_PSK_LEN);
	memzero_explicit(psk, NOISE_PSK_LEN);
	v->psk++;
	return 0;
}

/* e (write): GENERATE_KEYPAIR(), append e.pub, MixHash, MixKey in PSK mode. */
static int noise_hs_write_e(struct noise_handshake *hs, u8 *out)
{
	struct noise_symmetric *ss = &hs->v.ss;
	unsigned int dhlen = noise_hs_dhlen(hs);
	int err;

	if (hs->fixed_e) {
		memcpy(hs->e, hs->test_e, dhlen);
		memzero_explicit(hs->test_e, sizeof(hs->test_e));
		hs->fixed_e = false;
		err = noise_dh_public(hs->proto.dh, hs->e_pub, hs->e);
	} else {
		err = noise_dh_generate(hs->proto.dh, hs->e, hs->e_pub);
	}
	if (err)
		return err;
	hs->has_e = true;
	memcpy(out, hs->e_pub, dhlen);
	noise_mix_hash(ss, out, dhlen);
	if (hs->proto.pattern.num_psks)
		noise_mix_key(ss, out, dhlen);
	return 0;
}

/* e1 (write): GENERATE_KEM_KEYPAIR(); EncryptAndHash(ek). */
static int noise_hs_write_e1(struct noise_handshake *hs, u8 *out, size_t *n)
{
	struct noise_hs_kem *kem = hs->kem;
	enum noise_mlkem_param param = hs->proto.kem;
	int err;

#ifdef NOISE_TESTING
	if (kem->test_len == NOISE_MLKEM_SEED_SIZE)
		err = noise_mlkem_keygen_derand(param, out, kem->dk, kem->test_seed,
						kem->a, &kem->w);
	else
#endif
		err = noise_mlkem_keygen(param, out, kem->dk, kem->a, &kem->w);
	noise_hs_kem_test_done(kem);
	if (err)
		return err;
	kem->has_dk = true;
	return noise_encrypt_and_hash(&hs->v.ss, out, noise_mlkem_ek_size(param), n);
}

/*
 * ekem1 (write): GENERATE_KEM_CIPHERTEXT(re1); EncryptAndHash(ct);
 * MixKey(shared secret). re1 passed the modulus check when it was read.
 */
static int noise_hs_write_ekem1(struct noise_handshake *hs, u8 *out, size_t *n)
{
	struct noise_hs_kem *kem = hs->kem;
	enum noise_mlkem_param param = hs->proto.kem;
	size_t eklen = noise_mlkem_ek_size(param);
	u8 ss[NOISE_MLKEM_SS_SIZE];
	int err;

	if (!hs->v.has_re1)
		return -EINVAL;
#ifdef NOISE_TESTING
	if (kem->test_len == NOISE_MLKEM_MSG_SIZE)
		err = noise_mlkem_encaps_derand(param, out, ss, kem->peer, eklen,
						kem->test_seed, &kem->w);
	else
#endif
		err = noise_mlkem_encaps(param, out, ss, kem->peer, eklen, &kem->w);
	noise_hs_kem_test_done(kem);
	if (!err)
		err = noise_encrypt_and_hash(&hs->v.ss, out, noise_mlkem_ct_size(param), n);
	if (!err)
		noise_mix_key(&hs->v.ss, ss, sizeof(ss));
	memzero_explicit(ss, sizeof(ss));
	return err;
}

/*
 * e1 (read): re1 = DecryptAndHash(next bytes), kept for ekem1; -EINVAL if
 * it fails ML-KEM's modulus check.
 */
static int noise_hs_read_e1(struct noise_handshake *hs, struct noise_hs_var *v,
			    const u8 *msg, size_t *n)
{
	size_t eklen = noise_mlkem_ek_size(hs->proto.kem);

	*n = eklen + (v->ss.cs.has_key ? NOISE_TAG_LEN : 0);
	if (noise_decrypt_and_hash(&v->ss, msg, *n, hs->kem->peer))
		return -EBADMSG;
	/* A key that fails the modulus check is refused now, not at ekem1. */
	if (!noise_mlkem_ek_check(hs->proto.kem, hs->kem->peer, eklen, &hs->kem->w))
		return -EINVAL;
	v->has_re1 = true;
	return 0;
}

/* ekem1 (read): ct = DecryptAndHash(next bytes); MixKey(KEM(dk, ct)). */
static int noise_hs_read_ekem1(struct noise_handshake *hs, struct noise_hs_var *v,
			       const u8 *msg, size_t *n)
{
	struct noise_hs_kem *kem = hs->kem;
	enum noise_mlkem_param param = hs->proto.kem;
	u8 ss[NOISE_MLKEM_SS_SIZE];
	int err;

	if (!kem->has_dk)
		return -EINVAL;
	*n = noise_mlkem_ct_size(param) + (v->ss.cs.has_key ? NOISE_TAG_LEN : 0);
	if (noise_decrypt_and_hash(&v->ss, msg, *n, kem->peer))
		return -EBADMSG;
	err = noise_mlkem_decaps(param, ss, kem->peer, noise_mlkem_ct_size(param),
				 kem->dk, noise_mlkem_dk_size(param), kem->a,
				 &kem->w);
	if (!err)
		noise_mix_key(&v->ss, ss, sizeof(ss));
	memzero_explicit(ss, sizeof(ss));
	return err;
}

static int noise_hs_write_tokens(struct noise_handshake *hs, u8 *out, size_t *pos)
{
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];
	unsigned int dhlen = noise_hs_dhlen(hs);
	size_t n;
	int err;

	for (; *tok; tok++) {
		switch (*tok) {
		case NOISE_TOK_E:
			err = noise_hs_write_e(hs, out + *pos);
			*pos += dhlen;
			break;
		case NOISE_TOK_S:	/* EncryptAndHash(s.pub) */
			memcpy(out + *pos, hs->s_pub, dhlen);
			err = noise_encrypt_and_hash(&hs->v.ss, out + *pos, dhlen, &n);
			*pos += n;
			break;
		case NOISE_TOK_PSK:
			err = noise_hs_psk(&hs->v);
			break;
		case NOISE_TOK_E1:
			err = noise_hs_write_e1(hs, out + *pos, &n);
			*pos += n;
			break;
		case NOISE_TOK_EKEM1:
			err = noise_hs_write_ekem1(hs, out + *pos, &n);
			*pos += n;
			break;
		default:
			err = noise_hs_dh(hs, &hs->v, *tok);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/* Every PSK the current message needs has been supplied. */
static bool noise_hs_psks_ready(const struct noise_handshake *hs)
{
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];
	unsigned int i = hs->v.psk;

	for (; *tok; tok++)
		if (*tok == NOISE_TOK_PSK && !(hs->v.psk_set & (1U << i++)))
			return false;
	return true;
}

/**
 * noise_handshake_write() - WriteMessage(payload).
 * @hs: the handshake; noise_handshake_next() must say NOISE_ACTION_WRITE.
 * @payload: @payload_len bytes (any memory; it is copied).
 * @payload_len: payload length.
 * @out: the message out (any kernel memory: the handshake uses no
 *	scatterlist).
 * @out_cap: size of @out.
 * @out_len: message length out.
 *
 * Context: any but hard-irq; never sleeps (CPU-bound: DH and hashing).
 * Return: 0; -EPROTO if it is not our turn, -ENOTCONN if @hs failed or is
 * complete, -EMSGSIZE if the message would exceed 65535 bytes, -ENOBUFS if
 * @out is too small, -ENOKEY if a PSK this message needs was not supplied
 * (those leave @hs unchanged); -EINVAL (a DH gave zero: the peer's key is
 * of low order), after which @hs is destroyed.
 */
int noise_handshake_write(struct noise_handshake *hs, const u8 *payload,
			  size_t payload_len, u8 *out, size_t out_cap,
			  size_t *out_len)
{
	size_t pos = 0, total, n;
	bool key;
	int err;

	if (hs->state != NOISE_HS_RUNNING)
		return -ENOTCONN;
	if (noise_handshake_next(hs) != NOISE_ACTION_WRITE)
		return -EPROTO;
	total = noise_hs_overhead(hs, &key);
	if (payload_len > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	total += payload_len + (key ? NOISE_TAG_LEN : 0);
	if (total > NOISE_MAX_MSG_LEN)
		return -EMSGSIZE;
	if (total > out_cap)
		return -ENOBUFS;
	if (!noise_hs_psks_ready(hs))
		return -ENOKEY;
	err = noise_hs_write_tokens(hs, out, &pos);
	if (err)
		goto fail;
	if (payload_len)
		memmove(out + pos, payload, payload_len);
	err = noise_encrypt_and_hash(&hs->v.ss, out + pos, payload_len, &n);
	if (err)
		goto fail;
	*out_len = pos + n;
	noise_hs_message_done(hs);
	return 0;
fail:
	noise_hs_wipe(hs);
	return err;
}
EXPORT_SYMBOL_GPL(noise_handshake_write);

static int noise_hs_read_tokens(struct noise_handshake *hs, struct noise_hs_var *v,
				const u8 *msg, size_t *pos)
{
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];
	unsigned int dhlen = noise_hs_dhlen(hs);
	size_t n;
	int err = 0;

	for (; *tok; tok++) {
		switch (*tok) {
		case NOISE_TOK_E:	/* re = next DHLEN bytes; MixHash (MixKey) */
			memcpy(v->re, msg + *pos, dhlen);
			v->has_re = true;
			*pos += dhlen;
			noise_mix_hash(&v->ss, v->re, dhlen);
			if (hs->proto.pattern.num_psks)
				noise_mix_key(&v->ss, v->re, dhlen);
			break;
		case NOISE_TOK_S:	/* rs = DecryptAndHash(next bytes) */
			n = dhlen + (v->ss.cs.has_key ? NOISE_TAG_LEN : 0);
			err = noise_decrypt_and_hash(&v->ss, msg + *pos, n, v->rs);
			*pos += n;
			if (err)
				break;
			v->has_rs = true;
			if (hs->remote_static_cb)
				err = hs->remote_static_cb(hs->cb_ctx, hs, v->rs);
			break;
		case NOISE_TOK_PSK:
			err = noise_hs_psk(v);
			break;
		case NOISE_TOK_E1:
			err = noise_hs_read_e1(hs, v, msg + *pos, &n);
			*pos += n;
			break;
		case NOISE_TOK_EKEM1:
			err = noise_hs_read_ekem1(hs, v, msg + *pos, &n);
			*pos += n;
			break;
		default:
			err = noise_hs_dh(hs, v, *tok);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/* A read failed: keep the message's e for a fallback (section 10). */
static void noise_hs_read_failed(struct noise_handshake *hs, const u8 *msg,
				 size_t msg_len)
{
	unsigned int dhlen = noise_hs_dhlen(hs);
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];

	if (tok[0] == NOISE_TOK_PSK)
		tok++;
	if (tok[0] != NOISE_TOK_E || msg_len < dhlen)
		return;
	memcpy(hs->failed_re, msg, dhlen);
	hs->has_failed_re = true;
}

/**
 * noise_handshake_read() - ReadMessage(message).
 * @hs: the handshake; noise_handshake_next() must say NOISE_ACTION_READ.
 * @msg: the message (any kernel memory).
 * @msg_len: its length.
 * @payload: the decrypted payload out (may be NULL if @payload_cap is 0).
 * @payload_cap: size of @payload.
 * @payload_len: payload length out.
 *
 * The message is processed on a copy of the state, committed only if the
 * whole message is valid, as WireGuard's consume functions do: any failure
 * leaves @hs exactly as it was (noise_handshake_next() still says READ),
 * so a forged or damaged message cannot kill a pending handshake; the
 * caller may read the next one. On failure the bytes of @payload the
 * payload would have filled are wiped (no unauthenticated plaintext is
 * left there, whatever the cipher), and the
 * e of the failed message is kept for noise_handshake_fallback().
 * @keys->remote_static_cb, if set, is called right after the peer's static
 * key is decrypted.
 * Context: any but hard-irq; never sleeps (unless the callback does).
 * Return: 0; -EPROTO if it is not our turn, -ENOTCONN if @hs failed or is
 * complete, -ENOBUFS if @payload is too small, -EMSGSIZE (over 65535
 * bytes), -EBADMSG (too short, or authentication failed: wrong prologue,
 * PSK or key, tampered message), -EINVAL (a DH gave zero: low-order key;
 * hfs: an e1 that fails ML-KEM's modulus check), -ENOKEY (a PSK was not
 * supplied), or the callback's error. None of them changes @hs.
 */
int noise_handshake_read(struct noise_handshake *hs, const u8 *msg,
			 size_t msg_len, u8 *payload, size_t payload_cap,
			 size_t *payload_len)
{
	size_t pos = 0, fixed, tag, plen, wipe = 0;
	bool key;
	int err;

	if (hs->state != NOISE_HS_RUNNING)
		return -ENOTCONN;
	if (noise_handshake_next(hs) != NOISE_ACTION_READ)
		return -EPROTO;
	fixed = noise_hs_overhead(hs, &key);
	tag = key ? NOISE_TAG_LEN : 0;
	if (msg_len > NOISE_MAX_MSG_LEN) {
		err = -EMSGSIZE;
		goto fail;
	}
	if (msg_len < fixed + tag) {
		err = -EBADMSG;
		goto fail;
	}
	plen = msg_len - fixed - tag;
	if (plen > payload_cap)
		return -ENOBUFS;
	wipe = plen;
	hs->tmp = hs->v;
	hs->in_read = true;
	err = noise_hs_read_tokens(hs, &hs->tmp, msg, &pos);
	if (!err)
		err = noise_decrypt_and_hash(&hs->tmp.ss, msg + pos, msg_len - pos,
					     payload);
	hs->in_read = false;
	if (err)
		goto fail;
	hs->v = hs->tmp;
	memzero_explicit(&hs->tmp, sizeof(hs->tmp));
	*payload_len = plen;
	noise_hs_message_done(hs);
	return 0;
fail:
	memzero_explicit(&hs->tmp, sizeof(hs->tmp));
	if (wipe)
		memzero_explicit(payload, wipe);
	noise_hs_read_failed(hs, msg, msg_len);
	return err;
}
EXPORT_SYMBOL_GPL(noise_handshake_read);

/**
 * noise_handshake_split() - Split(): the transport cipher states.
 * @hs: a complete handshake (noise_handshake_next() says SPLIT).
 * @send: our sending cipher state out; NULL for the responder of a one-way
 *	pattern. Pass NULL to discard it.
 * @recv: our receiving cipher state out; NULL for the initiator of a
 *	one-way pattern. Pass NULL to discard it.
 *
 * c1 carries initiator to responder, c2 responder to initiator. Allocates
 * one AEAD transform and its requests per returned state (GFP_KERNEL).
 * Afterwards @hs keeps only h (noise_handshake_hash()); every other secret
 * is wiped. Free the states with noise_cipher_free().
 * Context: process context, may sleep (crypto_alloc_aead()).
 * Return: 0; -EPROTO if the handshake is not complete; -ENOTCONN if it
 * failed or was already split; -ENOMEM.
 */
int noise_handshake_split(struct noise_handshake *hs, struct noise_cipher **send,
			  struct noise_cipher **recv)
{
	u8 k[2][NOISE_MAX_HASHLEN];
	struct noise_cipher *c[2] = {};
	bool init = hs->role == NOISE_INITIATOR;
	int i, err = 0;

	if (send)
		*send = NULL;
	if (recv)
		*recv = NULL;
	if (noise_handshake_next(hs) != NOISE_ACTION_SPLIT)
		return hs->state == NOISE_HS_RUNNING ? -EPROTO : -ENOTCONN;
	noise_symmetric_split(&hs->v.ss, k[0], k[1]);
	for (i = 0; i < 2; i++) {
		bool wanted = i == 0 ? (init ? send : recv) : (init ? recv : send);

		if (!wanted || (i == 1 && hs->proto.pattern.one_way))
			continue;
		c[i] = noise_cipher_new(hs->proto.cipher, k[i], GFP_KERNEL);
		if (IS_ERR(c[i])) {
			err = PTR_ERR(c[i]);
			c[i] = NULL;
		}
	}
	memzero_explicit(k, sizeof(k));
	if (err) {
		noise_cipher_free(c[0]);
		noise_cipher_free(c[1]);
		return err;
	}
	if (send)
		*send = init ? c[0] : c[1];
	if (recv)
		*recv = init ? c[1] : c[0];
	noise_hs_wipe(hs);
	hs->state = NOISE_HS_DONE;
	return 0;
}
EXPORT_SYMBOL_GPL(noise_handshake_split);

/**
 * noise_handshake_hash() - GetHandshakeHash(): h, for channel binding.
 * @hs: the handshake (normally after noise_handshake_split()).
 * @out: HASHLEN bytes out.
 * @cap: size of @out.
 *
 * Context: any.
 * Return: HASHLEN; -ENOBUFS if @cap is too small; -ENOTCONN if @hs failed.
 */
int noise_handshake_hash(const struct noise_handshake *hs, u8 *out, size_t cap)
{
	if (hs->state == NOISE_HS_FAILED)
		return -ENOTCONN;
	if (cap < hs->v.ss.hash_len)
		return -ENOBUFS;
	memcpy(out, hs->v.ss.h, hs->v.ss.hash_len);
	return hs->v.ss.hash_len;
}
EXPORT_SYMBOL_GPL(noise_handshake_hash);

/**
 * noise_handshake_remote_static() - the peer's static public key.
 * @hs: the handshake.
 * @out: DHLEN bytes out.
 * @cap: size of @out.
 *
 * From @keys->remote_static_cb it gives the key being read.
 * Context: any.
 * Return: DHLEN; -ENOENT if it is not known (yet); -ENOBUFS; -ENOTCONN.
 */
int noise_handshake_remote_static(const struct noise_handshake *hs, u8 *out,
				  size_t cap)
{
	const struct noise_hs_var *v = hs->in_read ? &hs->tmp : &hs->v;
	unsigned int dhlen = noise_hs_dhlen(hs);

	if (hs->state == NOISE_HS_FAILED)
		return -ENOTCONN;
	if (!v->has_rs)
		return -ENOENT;
	if (cap < dhlen)
		return -ENOBUFS;
	memcpy(out, v->rs, dhlen);
	return dhlen;
}
EXPORT_SYMBOL_GPL(noise_handshake_remote_static);

/**
 * noise_handshake_dh_ephemeral() - DH(our ephemeral private key, @pub).
 * @hs: the handshake, after the message that carried our e token.
 * @pub: DHLEN bytes: a public key of the protocol's DH function.
 * @out: DHLEN bytes out: a secret, the caller wipes it.
 * @cap: size of @out.
 *
 * For a framing that binds data to this handshake's fresh ephemeral (the
 * tunnel encrypts the initiator's identity to the responder's static key
 * with it). Changes nothing in @hs; the key is held from the e token to
 * its last use in the pattern.
 * Context: any.
 * Return: DHLEN; -ENOKEY if no ephemeral private key is held (before the
 * e token, or after its last use); -ENOBUFS; -ENOTCONN if @hs failed;
 * -EINVAL for a degenerate result (@out zeroed).
 */
int noise_handshake_dh_ephemeral(const struct noise_handshake *hs, const u8 *pub,
				 u8 *out, size_t cap)
{
	unsigned int dhlen = noise_hs_dhlen(hs);
	int err;

	if (hs->state == NOISE_HS_FAILED)
		return -ENOTCONN;
	if (!hs->has_e)
		return -ENOKEY;
	if (cap < dhlen)
		return -ENOBUFS;
	err = noise_dh_shared(hs->proto.dh, out, hs->e, pub);
	return err ? err : dhlen;
}
EXPORT_SYMBOL_GPL(noise_handshake_dh_ephemeral);

/**
 * noise_handshake_has_ephemeral() - TEST ONLY: is any ephemeral private key
 * material left in @hs?
 * @hs: the handshake.
 *
 * For the project's KUnit tests (noise_internal.h): true while the local
 * ephemeral private key, or a test key set for it, is held or any of its
 * bytes is still non-zero, or (hfs) any byte of the KEM decapsulation key.
 * Context: any.
 * Return: whether it is.
 */
bool noise_handshake_has_ephemeral(const struct noise_handshake *hs)
{
	return hs->has_e || hs->fixed_e || memchr_inv(hs->e, 0, sizeof(hs->e)) ||
	       memchr_inv(hs->test_e, 0, sizeof(hs->test_e)) ||
	       (hs->proto.kem && memchr_inv(hs->kem->dk, 0, sizeof(hs->kem->dk)));
}
EXPORT_SYMBOL_NS_GPL(noise_handshake_has_ephemeral, NOISE_INTERNAL);

/**
 * noise_handshake_free() - destroy a handshake, wiping its secrets.
 * @hs: the handshake, or NULL.
 *
 * Context: any.
 */
void noise_handshake_free(struct noise_handshake *hs)
{
	kfree_sensitive(hs);
}
EXPORT_SYMBOL_GPL(noise_handshake_free);
