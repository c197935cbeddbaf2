// SPDX-License-Identifier: GPL-2.0
/*
 * Protocol names and handshake patterns: a constant table of the base
 * patterns (rev 34 sections 7.4, 7.5 and 18.1), name parsing (section 8),
 * the psk and fallback modifiers (sections 9.4 and 10.2) applied as
 * transformations at parse time, and the validity rules (sections 7.3 and
 * 9.3) checked on the result. Nothing here runs per handshake message.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>
#include "noise_internal.h"
#include "mlkem.h"

#define T_E	NOISE_TOK_E
#define T_S	NOISE_TOK_S
#define T_EE	NOISE_TOK_EE
#define T_ES	NOISE_TOK_ES
#define T_SE	NOISE_TOK_SE
#define T_SS	NOISE_TOK_SS
#define T_PSK	NOISE_TOK_PSK

struct noise_base_pattern {
	const char *name;
	u8 pre[2][NOISE_MAX_PRE_TOKENS + 1];
	u8 msgs[NOISE_MAX_MESSAGES][NOISE_MAX_TOKENS + 1];
	bool one_way;
};

static const struct noise_base_pattern noise_base_patterns[] = {
	/* One-way patterns (7.4). */
	{ "N", { {}, { T_S } }, { { T_E, T_ES } }, true },
	{ "K", { { T_S }, { T_S } }, { { T_E, T_ES, T_SS } }, true },
	{ "X", { {}, { T_S } }, { { T_E, T_ES, T_S, T_SS } }, true },
	/* Fundamental interactive patterns (7.5). */
	{ "NN", {}, { { T_E }, { T_E, T_EE } } },
	{ "NK", { {}, { T_S } }, { { T_E, T_ES }, { T_E, T_EE } } },
	{ "NX", {}, { { T_E }, { T_E, T_EE, T_S, T_ES } } },
	{ "KN", { { T_S } }, { { T_E }, { T_E, T_EE, T_SE } } },
	{ "KK", { { T_S }, { T_S } }, { { T_E, T_ES, T_SS }, { T_E, T_EE, T_SE } } },
	{ "KX", { { T_S } }, { { T_E }, { T_E, T_EE, T_SE, T_S, T_ES } } },
	{ "XN", {}, { { T_E }, { T_E, T_EE }, { T_S, T_SE } } },
	{ "XK", { {}, { T_S } }, { { T_E, T_ES }, { T_E, T_EE }, { T_S, T_SE } } },
	{ "XX", {}, { { T_E }, { T_E, T_EE, T_S, T_ES }, { T_S, T_SE } } },
	{ "IN", {}, { { T_E, T_S }, { T_E, T_EE, T_SE } } },
	{ "IK", { {}, { T_S } }, { { T_E, T_ES, T_S, T_SS }, { T_E, T_EE, T_SE } } },
	{ "IX", {}, { { T_E, T_S }, { T_E, T_EE, T_SE, T_S, T_ES } } },
	/* Deferred patterns (18.1). */
	{ "NK1", { {}, { T_S } }, { { T_E }, { T_E, T_EE, T_ES } } },
	{ "NX1", {}, { { T_E }, { T_E, T_EE, T_S }, { T_ES } } },
	{ "X1N", {}, { { T_E }, { T_E, T_EE }, { T_S }, { T_SE } } },
	{ "X1K", { {}, { T_S } }, { { T_E, T_ES }, { T_E, T_EE }, { T_S }, { T_SE } } },
	{ "XK1", { {}, { T_S } }, { { T_E }, { T_E, T_EE, T_ES }, { T_S, T_SE } } },
	{ "X1K1", { {}, { T_S } }, { { T_E }, { T_E, T_EE, T_ES }, { T_S }, { T_SE } } },
	{ "X1X", {}, { { T_E }, { T_E, T_EE, T_S, T_ES }, { T_S }, { T_SE } } },
	{ "XX1", {}, { { T_E }, { T_E, T_EE, T_S }, { T_ES, T_S, T_SE } } },
	{ "X1X1", {}, { { T_E }, { T_E, T_EE, T_S }, { T_ES, T_S }, { T_SE } } },
	{ "K1N", { { T_S } }, { { T_E }, { T_E, T_EE }, { T_SE } } },
	{ "K1K", { { T_S }, { T_S } }, { { T_E, T_ES }, { T_E, T_EE }, { T_SE } } },
	{ "KK1", { { T_S }, { T_S } }, { { T_E }, { T_E, T_EE, T_SE, T_ES } } },
	{ "K1K1", { { T_S }, { T_S } }, { { T_E }, { T_E, T_EE, T_ES }, { T_SE } } },
	{ "K1X", { { T_S } }, { { T_E }, { T_E, T_EE, T_S, T_ES }, { T_SE } } },
	{ "KX1", { { T_S } }, { { T_E }, { T_E, T_EE, T_SE, T_S }, { T_ES } } },
	{ "K1X1", { { T_S } }, { { T_E }, { T_E, T_EE, T_S }, { T_SE, T_ES } } },
	{ "I1N", {}, { { T_E, T_S }, { T_E, T_EE }, { T_SE } } },
	{ "I1K", { {}, { T_S } }, { { T_E, T_ES, T_S }, { T_E, T_EE }, { T_SE } } },
	{ "IK1", { {}, { T_S } }, { { T_E, T_S }, { T_E, T_EE, T_SE, T_ES } } },
	{ "I1K1", { {}, { T_S } }, { { T_E, T_S }, { T_E, T_EE, T_ES }, { T_SE } } },
	{ "I1X", {}, { { T_E, T_S }, { T_E, T_EE, T_S, T_ES }, { T_SE } } },
	{ "IX1", {}, { { T_E, T_S }, { T_E, T_EE, T_SE, T_S }, { T_ES } } },
	{ "I1X1", {}, { { T_E, T_S }, { T_E, T_EE, T_S }, { T_SE, T_ES } } },
};

/* Refuse a name, saying why (with dynamic debug: noise.dyndbg=+p). */
static int noise_bad(const char *why)
{
	pr_debug("noise: invalid protocol name: %s\n", why);
	return -EINVAL;
}

struct noise_name_entry {
	const char *name;
	u8 id;
};

static const struct noise_name_entry noise_dh_names[] = {
	{ "25519", NOISE_DH_25519 }, { "448", NOISE_DH_448 },
};

static const struct noise_name_entry noise_cipher_names[] = {
	{ "ChaChaPoly", NOISE_CIPHER_CHACHAPOLY }, { "AESGCM", NOISE_CIPHER_AESGCM },
};

static const struct noise_name_entry noise_kem_names[] = {
	{ "MLKEM768", NOISE_MLKEM768 }, { "MLKEM1024", NOISE_MLKEM1024 },
};

static const struct noise_name_entry noise_hash_names[] = {
	{ "SHA256", NOISE_HASH_SHA256 }, { "SHA512", NOISE_HASH_SHA512 },
	{ "BLAKE2s", NOISE_HASH_BLAKE2S }, { "BLAKE2b", NOISE_HASH_BLAKE2B },
};

static int noise_lookup(const struct noise_name_entry *tab, size_t n,
			const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(tab[i].name) == len && !memcmp(tab[i].name, s, len))
			return tab[i].id;
	return -EINVAL;
}

static size_t noise_toklen(const u8 *toks)
{
	size_t n = 0;

	while (toks[n])
		n++;
	return n;
}

static bool noise_name_chars_ok(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '+' && s[i] != '/')
			return false;
	return true;
}

/* fallback (10.2): Alice's first message becomes a pre-message, Bob initiates. */
static int noise_apply_fallback(struct noise_pattern *p)
{
	struct noise_pattern old = *p;
	const u8 *first = old.msgs[0];
	size_t i, j;

	if (old.one_way || old.num_msgs < 2 || old.pre[0][0])
		return noise_bad("fallback: one-way pattern or initiator pre-message");
	if (!(first[0] == T_E && (!first[1] || (first[1] == T_S && !first[2]))) &&
	    !(first[0] == T_S && !first[1]))
		return noise_bad("fallback needs a first message of e, s or e, s");
	memset(p, 0, sizeof(*p));
	memcpy(p->pre[0], old.pre[1], sizeof(p->pre[0]));
	memcpy(p->pre[1], first, noise_toklen(first));
	for (i = 1; i < old.num_msgs; i++) {
		for (j = 0; old.msgs[i][j]; j++) {
			u8 t = old.msgs[i][j];

			p->msgs[i - 1][j] = t == T_ES ? T_SE : t == T_SE ? T_ES : t;
		}
	}
	p->num_msgs = old.num_msgs - 1;
	return 0;
}

/* pskN (9.4): psk0 starts message 1; pskN ends message N. */
static int noise_apply_psk(struct noise_pattern *p, unsigned int n)
{
	u8 *toks;
	size_t len;

	if (n > p->num_msgs)
		return noise_bad("pskN after the last message");
	toks = p->msgs[n ? n - 1 : 0];
	len = noise_toklen(toks);
	if (len >= NOISE_MAX_TOKENS)
		return noise_bad("too many tokens in a message");
	if (n) {
		toks[len] = T_PSK;
	} else {
		memmove(toks + 1, toks, len);
		toks[0] = T_PSK;
	}
	p->num_psks++;
	return 0;
}

/* Insert @tok at index @at of the token list @toks. */
static int noise_insert_token(u8 *toks, size_t at, u8 tok)
{
	size_t len = noise_toklen(toks);

	if (len >= NOISE_MAX_TOKENS)
		return noise_bad("too many tokens in a message");
	memmove(toks + at + 1, toks + at, len - at);
	toks[at] = tok;
	return 0;
}

static bool noise_is_dh(u8 t)
{
	return t == T_EE || t == T_ES || t == T_SE || t == T_SS;
}

/* The index of the first token of @toks that is @tok or a DH (@tok 0). */
static int noise_tok_find(const u8 *toks, u8 tok)
{
	int j;

	for (j = 0; toks[j]; j++)
		if (tok ? toks[j] == tok : noise_is_dh(toks[j]))
			return j;
	return -1;
}

/*
 * hfs (applied last, after the validity checks): e1 goes right after the
 * first DH token of the message that holds the first e, or right after
 * that e when the message has no DH; ekem1 right after the first ee. The
 * ekem1 message must come later, from the other side (always so for the
 * interactive patterns without fallback).
 */
static int noise_apply_hfs(struct noise_pattern *p)
{
	int m1 = -1, m2, at, err;

	for (m2 = 0; m2 < p->num_msgs && m1 < 0; m2++) {
		at = noise_tok_find(p->msgs[m2], T_E);
		if (at < 0)
			continue;
		m1 = m2;
		if (noise_tok_find(p->msgs[m1], 0) >= 0)
			at = noise_tok_find(p->msgs[m1], 0);
		err = noise_insert_token(p->msgs[m1], at + 1, NOISE_TOK_E1);
		if (err)
			return err;
	}
	for (m2 = 0; m2 < p->num_msgs; m2++)
		if (noise_tok_find(p->msgs[m2], T_EE) >= 0)
			break;
	if (m1 < 0 || m2 >= p->num_msgs || m2 <= m1 ||
	    noise_pattern_sender(p, m1) == noise_pattern_sender(p, m2))
		return noise_bad("hfs: no e, then ee in a reply");
	at = noise_tok_find(p->msgs[m2], T_EE);
	err = noise_insert_token(p->msgs[m2], at + 1, NOISE_TOK_EKEM1);
	if (!err)
		p->ekem1_msg = m2;
	return err;
}

/* hfs: refuse what it cannot apply to, then apply it. */
static int noise_protocol_hfs(struct noise_protocol *proto)
{
	if (proto->pattern.one_way)
		return noise_bad("hfs on a one-way pattern (no ee for ekem1)");
	if (proto->fallback) {
		pr_debug("noise: hfs with the fallback modifier is not supported\n");
		return -EOPNOTSUPP;
	}
	return noise_apply_hfs(&proto->pattern);
}

struct noise_validity {
	bool sent_e[2], sent_s[2], dh[NOISE_TOK_SS + 1], psk_seen;
};

/* 7.3 rule 4 and 9.3: may party @p send encrypted data now? */
static bool noise_may_encrypt(const struct noise_validity *v, int p)
{
	if (v->psk_seen && !v->sent_e[p])
		return false;
	if (p == 0)
		return !(v->dh[T_SE] && !v->dh[T_EE]) && !(v->dh[T_SS] && !v->dh[T_ES]);
	return !(v->dh[T_ES] && !v->dh[T_EE]) && !(v->dh[T_SS] && !v->dh[T_SE]);
}

static int noise_validate_token(struct noise_validity *v, int p, u8 t,
				bool psk_mode, bool *key)
{
	bool need;

	switch (t) {
	case T_E:
		if (v->sent_e[p])
			return -EINVAL;
		v->sent_e[p] = true;
		*key |= psk_mode;
		return 0;
	case T_S:
		if (v->sent_s[p] || (*key && !noise_may_encrypt(v, p)))
			return -EINVAL;
		v->sent_s[p] = true;
		return 0;
	case T_PSK:
		v->psk_seen = true;
		*key = true;
		return 0;
	case T_EE:
		need = v->sent_e[0] && v->sent_e[1];
		break;
	case T_ES:
		need = v->sent_e[0] && v->sent_s[1];
		break;
	case T_SE:
		need = v->sent_s[0] && v->sent_e[1];
		break;
	case T_SS:
		need = v->sent_s[0] && v->sent_s[1];
		break;
	default:
		return -EINVAL;
	}
	if (!need || v->dh[t])
		return -EINVAL;
	v->dh[t] = true;
	*key = true;
	return 0;
}

static int noise_validate(const struct noise_pattern *p)
{
	struct noise_validity v = {};
	bool psk_mode = p->num_psks, key = false;
	int side, i, j;

	for (side = 0; side < 2; side++) {
		const u8 *pre = p->pre[side];

		if (pre[0] == T_E && (!pre[1] || (pre[1] == T_S && !pre[2]))) {
			v.sent_e[side] = true;
			v.sent_s[side] = pre[1];
			key |= psk_mode;
		} else if (pre[0] == T_S && !pre[1]) {
			v.sent_s[side] = true;
		} else if (pre[0]) {
			return noise_bad("pre-message is not e, s or e, s");
		}
	}
	for (i = 0; i < p->num_msgs; i++) {
		int who = noise_pattern_sender(p, i);

		for (j = 0; p->msgs[i][j]; j++)
			if (noise_validate_token(&v, who, p->msgs[i][j],
						 psk_mode, &key))
				return noise_bad("token against the rules of section 7.3");
		/* The payload. */
		if (key && !noise_may_encrypt(&v, who))
			return noise_bad("payload encryption not allowed (sections 7.3 and 9.3)");
	}
	/* Transport messages: every sender must be allowed to encrypt. */
	if (!noise_may_encrypt(&v, 0) || (!p->one_way && !noise_may_encrypt(&v, 1)))
		return noise_bad("transport encryption not allowed (sections 7.3 and 9.3)");
	return 0;
}

static int noise_parse_modifiers(struct noise_protocol *proto, const char *s,
				 size_t len)
{
	int last_psk = -1, err;

	while (len) {
		const char *plus = memchr(s, '+', len);
		size_t mlen = plus ? plus - s : len;
		unsigned int n = 0;
		size_t i;

		if (mlen == 3 && !memcmp(s, "hfs", 3)) {
			/* Applied after validation: noise_apply_hfs(). */
			if (proto->hybrid & NOISE_HYBRID_HFS)
				return noise_bad("hfs twice");
			proto->hybrid |= NOISE_HYBRID_HFS;
		} else if (mlen == 8 && !memcmp(s, "fallback", 8)) {
			/* Sorted order: fallback first, at most once. */
			if (proto->fallback || last_psk >= 0)
				return noise_bad("modifiers out of order (fallback first, once)");
			err = noise_apply_fallback(&proto->pattern);
			if (err)
				return err;
			proto->fallback = true;
		} else if (mlen > 3 && mlen <= 5 && !memcmp(s, "psk", 3)) {
			if (s[3] == '0' && mlen > 4)
				return noise_bad("malformed psk modifier");
			for (i = 3; i < mlen; i++) {
				if (!isdigit(s[i]))
					return noise_bad("malformed psk modifier");
				n = n * 10 + s[i] - '0';
			}
			/* Sorted order: strictly increasing, no repeats. */
			if ((int)n <= last_psk)
				return noise_bad("psk modifiers not strictly increasing");
			last_psk = n;
			err = noise_apply_psk(&proto->pattern, n);
			if (err)
				return err;
		} else {
			return noise_bad("unknown modifier");
		}
		if (!plus)
			break;
		if (plus + 1 == s + len)
			return noise_bad("trailing '+'");
		len -= mlen + 1;
		s = plus + 1;
	}
	return 0;
}

static int noise_parse_pattern(struct noise_protocol *proto, const char *s,
			       size_t len)
{
	const struct noise_base_pattern *base = NULL;
	size_t plen = 0, i;

	while (plen < len && (isupper(s[plen]) || isdigit(s[plen])))
		plen++;
	for (i = 0; i < ARRAY_SIZE(noise_base_patterns); i++) {
		if (strlen(noise_base_patterns[i].name) == plen &&
		    !memcmp(noise_base_patterns[i].name, s, plen)) {
			base = &noise_base_patterns[i];
			break;
		}
	}
	if (!base)
		return noise_bad("unknown pattern");
	memcpy(proto->pattern.pre, base->pre, sizeof(base->pre));
	memcpy(proto->pattern.msgs, base->msgs, sizeof(base->msgs));
	proto->pattern.one_way = base->one_way;
	for (i = 0; i < NOISE_MAX_MESSAGES && base->msgs[i][0]; i++)
		proto->pattern.num_msgs++;
	/* Modifiers start with a lower-case letter. */
	if (plen < len && !islower(s[plen]))
		return noise_bad("modifiers must start with a lower-case letter");
	return noise_parse_modifiers(proto, s + plen, len - plen);
}

/*
 * The DH section: one DH function; with hfs, the DH function '+' the KEM
 * ("25519+MLKEM768"); without hfs, two DH functions ("25519+448", hybrid:
 * valid, not run).
 */
static int noise_parse_dh(struct noise_protocol *proto, const char *s, size_t len)
{
	const char *plus = memchr(s, '+', len);
	size_t l1 = plus ? plus - s : len;
	bool hfs = proto->hybrid & NOISE_HYBRID_HFS;
	int id;

	id = noise_lookup(noise_dh_names, ARRAY_SIZE(noise_dh_names), s, l1);
	if (id < 0)
		return noise_bad("unknown DH function");
	proto->dh = id;
	if (!plus)
		return hfs ? noise_bad("hfs needs a KEM after the DH function") : 0;
	s += l1 + 1;
	len -= l1 + 1;
	if (hfs) {
		id = noise_lookup(noise_kem_names, ARRAY_SIZE(noise_kem_names), s, len);
		if (id < 0)
			return noise_bad("hfs: unknown KEM (MLKEM768 or MLKEM1024)");
		proto->kem = id;
		return 0;
	}
	if (noise_lookup(noise_dh_names, ARRAY_SIZE(noise_dh_names), s, len) < 0)
		return noise_bad("unknown second DH function (or a KEM without hfs)");
	proto->hybrid |= NOISE_HYBRID_DH;
	return 0;
}

static int noise_parse_sections(struct noise_protocol *proto, const char *name,
				size_t len)
{
	const char *sec[4];
	size_t slen[4];
	int i, id;

	if (len < 6 || memcmp(name, "Noise_", 6))
		return noise_bad("no Noise_ prefix");
	name += 6;
	len -= 6;
	for (i = 0; i < 4; i++) {
		const char *us = memchr(name, '_', len);

		sec[i] = name;
		slen[i] = us ? us - name : len;
		if (!slen[i] || !noise_name_chars_ok(sec[i], slen[i]))
			return noise_bad("bad characters or empty section");
		if (i < 3 ? !us : !!us)
			return noise_bad("wrong number of sections");
		if (us) {
			len -= slen[i] + 1;
			name = us + 1;
		}
	}
	id = noise_lookup(noise_cipher_names, ARRAY_SIZE(noise_cipher_names),
			  sec[2], slen[2]);
	if (id < 0)
		return noise_bad("unknown cipher");
	proto->cipher = id;
	id = noise_lookup(noise_hash_names, ARRAY_SIZE(noise_hash_names), sec[3], slen[3]);
	if (id < 0)
		return noise_bad("unknown hash");
	proto->hash = id;
	id = noise_parse_pattern(proto, sec[0], slen[0]);
	/* After the modifiers: hfs decides what may follow the '+'. */
	return id ? id : noise_parse_dh(proto, sec[1], slen[1]);
}

/*
 * The last message after which each role still needs its ephemeral private
 * key e: the handshake wipes e once that message is written or read. A DH
 * token uses e of: ee both roles, es the initiator (DH(e, rs)), se the
 * responder (DH(e, rs)); an e token makes the sender's e. The initiator of
 * an interactive pattern that a fallback could follow (not itself a
 * fallback protocol) keeps e at least until it has read message 1: while
 * it waits for that reply, noise_handshake_fallback() may still start a
 * fallback protocol (section 10) with this e, as Alice does when Bob
 * answers her IK message with XXfallback.
 */
static void noise_find_e_last(struct noise_pattern *p, bool fallback)
{
	unsigned int i, j;

	p->e_last[0] = NOISE_NO_MSG;
	p->e_last[1] = NOISE_NO_MSG;
	for (i = 0; i < p->num_msgs; i++) {
		for (j = 0; p->msgs[i][j]; j++) {
			switch (p->msgs[i][j]) {
			case T_E:
				p->e_last[noise_pattern_sender(p, i)] = i;
				break;
			case T_EE:
				p->e_last[0] = i;
				p->e_last[1] = i;
				break;
			case T_ES:
				p->e_last[0] = i;
				break;
			case T_SE:
				p->e_last[1] = i;
				break;
			}
		}
	}
	if (!fallback && !p->one_way && p->num_msgs > 1 && p->e_last[0] == 0)
		p->e_last[0] = 1;
}

/**
 * noise_protocol_parse() - parse and validate a protocol name.
 * @proto: filled in on success.
 * @name: e.g. "Noise_XXpsk3_25519_ChaChaPoly_SHA256", NUL-terminated.
 *
 * Context: any.
 * Return: 0; -EINVAL for a malformed name, an unknown pattern, DH, KEM,
 * cipher or hash, a misplaced or unsorted modifier, an invalid resulting
 * pattern, hfs without a KEM or on a one-way pattern, a KEM without hfs;
 * -EOPNOTSUPP for a valid name this engine cannot run: two DH functions
 * ("25519+448") or hfs with fallback.
 */
int noise_protocol_parse(struct noise_protocol *proto, const char *name)
{
	size_t len = strnlen(name, NOISE_MAX_NAME_LEN + 1);
	int err;

	memset(proto, 0, sizeof(*proto));
	if (len > NOISE_MAX_NAME_LEN)
		return noise_bad("longer than 255 bytes");
	err = noise_parse_sections(proto, name, len);
	if (!err)
		err = noise_validate(&proto->pattern);
	/* After the fallback modifier, which rebuilds the pattern. */
	proto->pattern.ekem1_msg = NOISE_NO_MSG;
	if (!err && proto->kem)
		err = noise_protocol_hfs(proto);
	if (err) {
		pr_debug("noise: refused protocol name '%s'\n", name);
		return err;
	}
	if (proto->hybrid & NOISE_HYBRID_DH) {
		pr_debug("noise: %s: hybrid forward secrecy is not supported\n", name);
		return -EOPNOTSUPP;
	}
	noise_find_e_last(&proto->pattern, proto->fallback);
	memcpy(proto->name, name, len);
	proto->name_len = len;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_protocol_parse, NOISE_INTERNAL);
