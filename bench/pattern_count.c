// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: how many scalar multiplications a handshake needs, counted
 * from the engine's own parsed pattern (the token lists after the psk and
 * fallback modifiers), not from a table of our own.
 *
 * The parser is the engine's own noise_protocol_parse(), exported to the
 * project's modules in the NOISE_INTERNAL namespace (noise_internal.h).
 */

#include <linux/module.h>
#include <linux/slab.h>
#include "noise_internal.h"

#include "bench_engine.h"

MODULE_IMPORT_NS(NOISE_INTERNAL);

/* Both sides do every SymmetricState step once (one writes, one reads). */
static void bench_count_token(struct bench_dh_count *n, u8 tok, bool psk,
			      bool *has_key)
{
	switch (tok) {
	case NOISE_TOK_E:
		n->keygens++;
		n->mixhash += 2;
		if (psk) {	/* 9.2: e also does MixKey(e.public_key) */
			n->hkdf2 += 2;
			n->setkey += 2;
			*has_key = true;
		}
		break;
	case NOISE_TOK_S:
		n->mixhash += 2;
		if (*has_key)
			n->aead += 2;
		break;
	case NOISE_TOK_EE:
	case NOISE_TOK_ES:
	case NOISE_TOK_SE:
	case NOISE_TOK_SS:
		n->dh += 2;
		n->hkdf2 += 2;
		n->setkey += 2;
		*has_key = true;
		break;
	case NOISE_TOK_PSK:	/* MixKeyAndHash */
		n->hkdf3 += 2;
		n->mixhash += 2;
		n->setkey += 2;
		*has_key = true;
		break;
	}
}

/**
 * bench_count_dh() - what one complete handshake does, both sides together.
 * @name: the protocol name.
 * @hash_len: HASHLEN of its hash (the name is hashed when longer).
 * @count: out: keygens (one per e token: the sender makes its ephemeral key
 *	pair), dh (two per ee, es, se or ss token: each side computes the
 *	shared secret once) and the SymmetricState steps (struct bench_dh_count).
 *
 * Return: 0 or the parser's negative errno.
 */
int bench_count_dh(const char *name, unsigned int hash_len,
		   struct bench_dh_count *count)
{
	struct noise_protocol *proto;
	bool psk, has_key = false;
	unsigned int m, t, side;
	int err;

	proto = kzalloc(sizeof(*proto), GFP_KERNEL);
	if (!proto)
		return -ENOMEM;
	err = noise_protocol_parse(proto, name);
	if (err)
		goto out;
	memset(count, 0, sizeof(*count));
	psk = proto->pattern.num_psks > 0;
	/* InitializeSymmetric (the name, hashed if longer than HASHLEN), prologue. */
	count->mixhash += (proto->name_len > hash_len ? 2 : 0) + 2;
	/* Pre-message public keys: MixHash, and MixKey for e in a PSK handshake. */
	for (side = 0; side < 2; side++) {
		for (t = 0; proto->pattern.pre[side][t] != NOISE_TOK_END; t++) {
			count->mixhash += 2;
			if (psk && proto->pattern.pre[side][t] == NOISE_TOK_E) {
				count->hkdf2 += 2;
				count->setkey += 2;
				has_key = true;
			}
		}
	}
	for (m = 0; m < proto->pattern.num_msgs; m++) {
		for (t = 0; proto->pattern.msgs[m][t] != NOISE_TOK_END; t++)
			bench_count_token(count, proto->pattern.msgs[m][t], psk,
					  &has_key);
		/* The payload: EncryptAndHash / DecryptAndHash. */
		count->mixhash += 2;
		if (has_key)
			count->aead += 2;
	}
	/*
	 * Split: HKDF(ck, empty, 2) on each side and a transport cipher state
	 * for each direction that carries messages, on each side.
	 */
	count->hkdf2 += 2;
	count->states += proto->pattern.one_way ? 2 : 4;
out:
	kfree(proto);
	return err;
}
