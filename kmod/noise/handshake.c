// SPDX-License-Identifier: GPL-2.0
/*
 * HandshakeState (rev 34 section 5.3): initialization with prologue and
 * pre-messages, WriteMessage and ReadMessage token by token, and Split.
 * Any error while a message is processed destroys the handshake: secrets
 * are wiped and every later call fails with -ENOTCONN.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "dh.h"
#include "hash.h"
#include "symmetric.h"

enum noise_hs_state { NOISE_HS_RUNNING, NOISE_HS_FAILED, NOISE_HS_DONE };

/**
 * struct noise_handshake - a HandshakeState.
 * @proto: the parsed protocol and pattern.
 * @ss: the SymmetricState.
 * @role: enum noise_role, in the protocol named by @proto.
 * @state: enum noise_hs_state.
 * @msg: index of the next handshake message.
 * @psk: index of the next psk.
 * @has_s: @s and @s_pub are set.
 * @has_e: @e and @e_pub are set.
 * @has_rs: @rs is set.
 * @has_re: @re is set.
 * @fixed_e: @test_e replaces GENERATE_KEYPAIR() at the next e token.
 * @e_wiped: @e was wiped after its last use (pattern @e_last).
 * @s: static private key.
 * @s_pub: static public key.
 * @e: ephemeral private key.
 * @e_pub: ephemeral public key.
 * @rs: remote static public key.
 * @re: remote ephemeral public key.
 * @test_e: test-only fixed ephemeral private key.
 * @psks: the PSKs.
 */
struct noise_handshake {
	struct noise_protocol proto;
	struct noise_symmetric ss;
	u8 role, state, msg, psk;
	bool has_s, has_e, has_rs, has_re, fixed_e, e_wiped;
	u8 s[NOISE_MAX_DHLEN], s_pub[NOISE_MAX_DHLEN];
	u8 e[NOISE_MAX_DHLEN], e_pub[NOISE_MAX_DHLEN];
	u8 rs[NOISE_MAX_DHLEN], re[NOISE_MAX_DHLEN];
	u8 test_e[NOISE_MAX_DHLEN];
	u8 psks[NOISE_MAX_PSKS][NOISE_PSK_LEN];
};

static unsigned int noise_hs_dhlen(const struct noise_handshake *hs)
{
	return noise_dh_len(hs->proto.dh);
}

/* Who sends message @i: 0 the initiator, 1 the responder. */
static int noise_sender(const struct noise_pattern *p, unsigned int i)
{
	return p->one_way ? 0 : i & 1;
}

static bool noise_side_has(const struct noise_pattern *p, int side, u8 tok,
			   bool pre_only)
{
	unsigned int i;

	if (memchr(p->pre[side], tok, NOISE_MAX_PRE_TOKENS))
		return true;
	for (i = 0; !pre_only && i < p->num_msgs; i++)
		if (noise_sender(p, i) == side && memchr(p->msgs[i], tok, NOISE_MAX_TOKENS))
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
 * valid name this kernel cannot run (448 while X448 is unavailable, a hash
 * whose crypto driver is missing).
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

/* Wipe every secret and refuse every later message (after an error or Split). */
static void noise_hs_wipe(struct noise_handshake *hs)
{
	noise_symmetric_destroy(&hs->ss);
	memzero_explicit(hs->s, sizeof(hs->s));
	memzero_explicit(hs->e, sizeof(hs->e));
	memzero_explicit(hs->test_e, sizeof(hs->test_e));
	memzero_explicit(hs->psks, sizeof(hs->psks));
	hs->has_s = false;
	hs->has_e = false;
	hs->fixed_e = false;
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
	hs->msg++;
}

static int noise_hs_load_keys(struct noise_handshake *hs,
			      const struct noise_keys *keys)
{
	const struct noise_pattern *p = &hs->proto.pattern;
	unsigned int dhlen = noise_hs_dhlen(hs);
	int me = hs->role, err = 0;

	if (keys->num_psks != p->num_psks || (p->num_psks && !keys->psks))
		return -EINVAL;
	if (keys->num_psks)
		memcpy(hs->psks, keys->psks, keys->num_psks * NOISE_PSK_LEN);
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
		memcpy(hs->rs, keys->remote_static, dhlen);
		hs->has_rs = true;
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
		memcpy(hs->re, keys->remote_ephemeral, dhlen);
		hs->has_re = true;
	}
	return 0;
}

/* Prologue, then the pre-message keys, the initiator's first (5.3). */
static int noise_hs_mix_premessages(struct noise_handshake *hs,
				    const struct noise_keys *keys)
{
	const struct noise_pattern *p = &hs->proto.pattern;
	unsigned int dhlen = noise_hs_dhlen(hs);
	int side, i, err;

	noise_mix_hash(&hs->ss, keys->prologue, keys->prologue_len);
	for (side = 0; side < 2; side++) {
		bool mine = side == hs->role;

		for (i = 0; p->pre[side][i]; i++) {
			const u8 *pub;

			if (p->pre[side][i] == NOISE_TOK_E)
				pub = mine ? hs->e_pub : hs->re;
			else
				pub = mine ? hs->s_pub : hs->rs;
			noise_mix_hash(&hs->ss, pub, dhlen);
			/* 9.2: in a PSK handshake every e also does MixKey. */
			if (p->pre[side][i] == NOISE_TOK_E && p->num_psks) {
				err = noise_mix_key(&hs->ss, pub, dhlen);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

/**
 * noise_handshake_new() - Initialize() a HandshakeState.
 * @name: the protocol name, e.g. "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s".
 * @role: NOISE_INITIATOR or NOISE_RESPONDER.
 * @keys: keys, PSKs and prologue; @keys->num_psks must match the pattern,
 *	and every key the pattern needs from this role must be present.
 * @gfp: allocation flags for the handshake state.
 *
 * Allocates one struct noise_handshake (1 KiB on x86-64) and one AEAD tfm
 * with one request; nothing more until noise_handshake_split().
 * Context: process context, may sleep (AEAD allocation).
 * Return: the handshake; ERR_PTR(-EINVAL) for an invalid name, a missing
 * key or a wrong number of PSKs, ERR_PTR(-EOPNOTSUPP) for an unsupported
 * algorithm (see noise_protocol_info()), ERR_PTR(-ENOMEM).
 */
struct noise_handshake *noise_handshake_new(const char *name, enum noise_role role,
					    const struct noise_keys *keys, gfp_t gfp)
{
	struct noise_handshake *hs;
	int err;

	if (role != NOISE_INITIATOR && role != NOISE_RESPONDER)
		return ERR_PTR(-EINVAL);
	hs = kzalloc(sizeof(*hs), gfp);
	if (!hs)
		return ERR_PTR(-ENOMEM);
	hs->role = role;
	err = noise_protocol_parse(&hs->proto, name);
	if (!err && !noise_hash_available(hs->proto.hash))
		err = -EOPNOTSUPP;
	if (err)
		goto err_free;
	err = noise_hs_load_keys(hs, keys);
	if (err)
		goto err_free;
	err = noise_symmetric_init(&hs->ss, &hs->proto, gfp);
	if (err)
		goto err_free;
	err = noise_hs_mix_premessages(hs, keys);
	if (err)
		goto err_free;
	return hs;

err_free:
	noise_handshake_free(hs);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(noise_handshake_new);

/**
 * noise_handshake_fallback() - start the fallback protocol as Alice.
 * @old: Alice's handshake (she was its initiator and has sent e).
 * @name: the fallback protocol, e.g. "Noise_XXfallback_25519_AESGCM_SHA256".
 * @keys: keys and prologue for the new handshake; @keys->local_ephemeral
 *	is ignored: Alice keeps the ephemeral key of @old, which @old keeps
 *	until it has read message 1 (the reply Alice is waiting for).
 * @gfp: allocation flags.
 *
 * Alice becomes the responder of the new protocol (section 10.2). Bob, the
 * new initiator, uses noise_handshake_new() with @remote_ephemeral set to
 * the e he received. @old is left as it is; free it afterwards.
 * Context: process context, may sleep.
 * Return: the new handshake or an ERR_PTR (see noise_handshake_new()),
 * ERR_PTR(-EINVAL) if @old has no ephemeral key.
 */
struct noise_handshake *noise_handshake_fallback(struct noise_handshake *old,
						 const char *name,
						 const struct noise_keys *keys,
						 gfp_t gfp)
{
	struct noise_keys k = *keys;

	if (old->state == NOISE_HS_FAILED || !old->has_e || old->role != NOISE_INITIATOR)
		return ERR_PTR(-EINVAL);
	k.local_ephemeral = old->e;
	return noise_handshake_new(name, NOISE_RESPONDER, &k, gfp);
}
EXPORT_SYMBOL_GPL(noise_handshake_fallback);

/**
 * noise_handshake_set_ephemeral_for_testing() - TEST ONLY: fix the next
 * ephemeral private key instead of generating a random one.
 * @hs: the handshake, before its e token.
 * @priv: DHLEN-byte private key.
 *
 * Exists to replay test vectors (KUnit and the noise_vectors self-test on
 * kernels without KUnit). Never use it for real traffic: ephemeral keys
 * must be fresh for every handshake (section 14).
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
EXPORT_SYMBOL_GPL(noise_handshake_set_ephemeral_for_testing);

/**
 * noise_handshake_next() - what the handshake expects next.
 * @hs: the handshake.
 * Return: an enum noise_action.
 */
enum noise_action noise_handshake_next(const struct noise_handshake *hs)
{
	const struct noise_pattern *p = &hs->proto.pattern;

	if (hs->state != NOISE_HS_RUNNING)
		return NOISE_ACTION_FAILED;
	if (hs->msg >= p->num_msgs)
		return NOISE_ACTION_SPLIT;
	return noise_sender(p, hs->msg) == hs->role ? NOISE_ACTION_WRITE :
						      NOISE_ACTION_READ;
}
EXPORT_SYMBOL_GPL(noise_handshake_next);

/*
 * The fixed size of the current message without its payload, and whether
 * the payload will be encrypted; computed before any state changes.
 */
static size_t noise_hs_overhead(const struct noise_handshake *hs, bool *key)
{
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];
	unsigned int dhlen = noise_hs_dhlen(hs);
	size_t len = 0;

	*key = hs->ss.cs->has_key;
	for (; *tok; tok++) {
		if (*tok == NOISE_TOK_E) {
			len += dhlen;
			*key |= hs->proto.pattern.num_psks;
		} else if (*tok == NOISE_TOK_S) {
			len += dhlen + (*key ? NOISE_TAG_LEN : 0);
		} else {
			*key = true;
		}
	}
	return len;
}

/* ee, es, se, ss: MixKey(DH(...)); the DH output is wiped. */
static int noise_hs_dh(struct noise_handshake *hs, u8 tok)
{
	bool init = hs->role == NOISE_INITIATOR;
	const u8 *priv, *pub;
	u8 out[NOISE_MAX_DHLEN];
	int err;

	switch (tok) {
	case NOISE_TOK_EE:
		priv = hs->e;
		pub = hs->re;
		break;
	case NOISE_TOK_ES:	/* initiator: DH(e, rs); responder: DH(s, re) */
		priv = init ? hs->e : hs->s;
		pub = init ? hs->rs : hs->re;
		break;
	case NOISE_TOK_SE:	/* initiator: DH(s, re); responder: DH(e, rs) */
		priv = init ? hs->s : hs->e;
		pub = init ? hs->re : hs->rs;
		break;
	default:		/* ss */
		priv = hs->s;
		pub = hs->rs;
		break;
	}
	err = noise_dh(hs->proto.dh, out, priv, pub);
	if (!err)
		err = noise_mix_key(&hs->ss, out, noise_hs_dhlen(hs));
	memzero_explicit(out, sizeof(out));
	return err;
}

/* psk: MixKeyAndHash(psk); the PSK is wiped once used. */
static int noise_hs_psk(struct noise_handshake *hs)
{
	u8 *psk = hs->psks[hs->psk++];
	int err = noise_mix_key_and_hash(&hs->ss, psk, NOISE_PSK_LEN);

	memzero_explicit(psk, NOISE_PSK_LEN);
	return err;
}

/* e (write): GENERATE_KEYPAIR(), append e.pub, MixHash, MixKey in PSK mode. */
static int noise_hs_write_e(struct noise_handshake *hs, u8 *out)
{
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
	noise_mix_hash(&hs->ss, out, dhlen);
	return hs->proto.pattern.num_psks ? noise_mix_key(&hs->ss, out, dhlen) : 0;
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
			err = noise_encrypt_and_hash(&hs->ss, out + *pos, dhlen, &n);
			*pos += n;
			break;
		case NOISE_TOK_PSK:
			err = noise_hs_psk(hs);
			break;
		default:
			err = noise_hs_dh(hs, *tok);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/**
 * noise_handshake_write() - WriteMessage(payload).
 * @hs: the handshake; noise_handshake_next() must say NOISE_ACTION_WRITE.
 * @payload: @payload_len bytes (any memory; it is copied).
 * @payload_len: payload length.
 * @out: the message out (linearly mapped memory, see noise.h).
 * @out_cap: size of @out.
 * @out_len: message length out.
 *
 * Context: process context, may sleep.
 * Return: 0; -EPROTO if it is not our turn, -ENOTCONN if @hs failed or is
 * complete, -EMSGSIZE if the message would exceed 65535 bytes, -ENOBUFS if
 * @out is too small (those leave @hs unchanged); -EINVAL (a DH gave zero)
 * or a crypto error, after which @hs is destroyed.
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
	err = noise_hs_write_tokens(hs, out, &pos);
	if (err)
		goto fail;
	if (payload_len)
		memmove(out + pos, payload, payload_len);
	err = noise_encrypt_and_hash(&hs->ss, out + pos, payload_len, &n);
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

static int noise_hs_read_tokens(struct noise_handshake *hs, const u8 *msg,
				size_t *pos)
{
	const u8 *tok = hs->proto.pattern.msgs[hs->msg];
	unsigned int dhlen = noise_hs_dhlen(hs);
	size_t n;
	int err = 0;

	for (; *tok; tok++) {
		switch (*tok) {
		case NOISE_TOK_E:	/* re = next DHLEN bytes; MixHash (MixKey) */
			memcpy(hs->re, msg + *pos, dhlen);
			hs->has_re = true;
			*pos += dhlen;
			noise_mix_hash(&hs->ss, hs->re, dhlen);
			if (hs->proto.pattern.num_psks)
				err = noise_mix_key(&hs->ss, hs->re, dhlen);
			break;
		case NOISE_TOK_S:	/* rs = DecryptAndHash(next bytes) */
			n = dhlen + (hs->ss.cs->has_key ? NOISE_TAG_LEN : 0);
			err = noise_decrypt_and_hash(&hs->ss, msg + *pos, n, hs->rs);
			hs->has_rs = !err;
			*pos += n;
			break;
		case NOISE_TOK_PSK:
			err = noise_hs_psk(hs);
			break;
		default:
			err = noise_hs_dh(hs, *tok);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

/**
 * noise_handshake_read() - ReadMessage(message).
 * @hs: the handshake; noise_handshake_next() must say NOISE_ACTION_READ.
 * @msg: the message (linearly mapped memory, see noise.h).
 * @msg_len: its length.
 * @payload: the decrypted payload out (linearly mapped memory; may be NULL
 *	if @payload_cap is 0).
 * @payload_cap: size of @payload.
 * @payload_len: payload length out.
 *
 * Context: process context, may sleep.
 * Return: 0; -EPROTO if it is not our turn, -ENOTCONN if @hs failed or is
 * complete, -ENOBUFS if @payload is too small (those leave @hs unchanged);
 * -EMSGSIZE (over 65535 bytes), -EBADMSG (too short, or authentication
 * failed: wrong prologue, PSK or key, tampered message), -EINVAL (a DH gave
 * zero: low-order key), after which @hs is destroyed.
 */
int noise_handshake_read(struct noise_handshake *hs, const u8 *msg,
			 size_t msg_len, u8 *payload, size_t payload_cap,
			 size_t *payload_len)
{
	size_t pos = 0, fixed, tag, plen;
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
	err = noise_hs_read_tokens(hs, msg, &pos);
	if (!err)
		err = noise_decrypt_and_hash(&hs->ss, msg + pos, msg_len - pos, payload);
	if (err)
		goto fail;
	*payload_len = plen;
	noise_hs_message_done(hs);
	return 0;
fail:
	noise_hs_wipe(hs);
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
 * one AEAD tfm and request per returned state. Afterwards @hs keeps only h
 * (noise_handshake_hash()); every other secret is wiped. Free the states
 * with noise_cipher_free().
 * Context: process context, may sleep.
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
	noise_symmetric_split(&hs->ss, k[0], k[1]);
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
 * Return: HASHLEN; -ENOBUFS if @cap is too small; -ENOTCONN if @hs failed.
 */
int noise_handshake_hash(const struct noise_handshake *hs, u8 *out, size_t cap)
{
	if (hs->state == NOISE_HS_FAILED)
		return -ENOTCONN;
	if (cap < hs->ss.hash_len)
		return -ENOBUFS;
	memcpy(out, hs->ss.h, hs->ss.hash_len);
	return hs->ss.hash_len;
}
EXPORT_SYMBOL_GPL(noise_handshake_hash);

/**
 * noise_handshake_remote_static() - the peer's static public key.
 * @hs: the handshake.
 * @out: DHLEN bytes out.
 * @cap: size of @out.
 * Return: DHLEN; -ENOENT if it is not known (yet); -ENOBUFS; -ENOTCONN.
 */
int noise_handshake_remote_static(const struct noise_handshake *hs, u8 *out,
				  size_t cap)
{
	unsigned int dhlen = noise_hs_dhlen(hs);

	if (hs->state == NOISE_HS_FAILED)
		return -ENOTCONN;
	if (!hs->has_rs)
		return -ENOENT;
	if (cap < dhlen)
		return -ENOBUFS;
	memcpy(out, hs->rs, dhlen);
	return dhlen;
}
EXPORT_SYMBOL_GPL(noise_handshake_remote_static);

/**
 * noise_handshake_has_ephemeral() - TEST ONLY: is any ephemeral private key
 * material left in @hs?
 * @hs: the handshake.
 *
 * For the project's KUnit tests (noise_internal.h): true while the local
 * ephemeral private key, or a test key set for it, is held or any of its
 * bytes is still non-zero.
 * Return: whether it is.
 */
bool noise_handshake_has_ephemeral(const struct noise_handshake *hs)
{
	return hs->has_e || hs->fixed_e || memchr_inv(hs->e, 0, sizeof(hs->e)) ||
	       memchr_inv(hs->test_e, 0, sizeof(hs->test_e));
}
EXPORT_SYMBOL_NS_GPL(noise_handshake_has_ephemeral, NOISE_INTERNAL);

/**
 * noise_handshake_free() - destroy a handshake, wiping its secrets.
 * @hs: the handshake, or NULL.
 * Context: process context.
 */
void noise_handshake_free(struct noise_handshake *hs)
{
	if (!hs)
		return;
	noise_symmetric_destroy(&hs->ss);
	kfree_sensitive(hs);
}
EXPORT_SYMBOL_GPL(noise_handshake_free);
