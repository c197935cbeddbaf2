/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Noise protocol names and handshake patterns (rev 34, sections 7-10).
 */
#ifndef _NOISE_PATTERN_H
#define _NOISE_PATTERN_H

#include <linux/types.h>
#include "noise.h"

/* Tokens; 0 ends a token list. */
enum noise_token {
	NOISE_TOK_END = 0,
	NOISE_TOK_E,
	NOISE_TOK_S,
	NOISE_TOK_EE,
	NOISE_TOK_ES,
	NOISE_TOK_SE,
	NOISE_TOK_SS,
	NOISE_TOK_PSK,
	NOISE_TOK_E1,		/* hfs: the sender's KEM public key */
	NOISE_TOK_EKEM1,	/* hfs: a KEM ciphertext to the received e1 */
};

#define NOISE_MAX_TOKENS	8	/* per message, psk and KEM tokens included */
#define NOISE_MAX_PRE_TOKENS	2	/* a pre-message is e, s or e, s */

enum noise_hash_id { NOISE_HASH_SHA256, NOISE_HASH_SHA512, NOISE_HASH_BLAKE2S,
		     NOISE_HASH_BLAKE2B, NOISE_HASH_COUNT };

/**
 * struct noise_pattern - a handshake pattern after all modifiers.
 * @pre: pre-message tokens, [0] the initiator's, [1] the responder's.
 * @msgs: message token lists; message i is sent by the initiator if i is even.
 * @num_msgs: number of handshake messages.
 * @num_psks: number of psk tokens (0: not a PSK handshake).
 * @one_way: N, K, X and their variants: only the initiator sends.
 * @e_last: per role ([0] the initiator), the index of the last message
 *	after which that role still needs its ephemeral private key: the last
 *	one with an ee, es (initiator) or se (responder) token or that sends
 *	its e, and for the initiator of an interactive pattern that is not a
 *	fallback protocol at least message 1 (a fallback may follow, see
 *	noise_find_e_last()); NOISE_NO_MSG if none.
 * @ekem1_msg: with hfs, the message that holds ekem1: once it is written or
 *	read, the KEM secrets are wiped; NOISE_NO_MSG without hfs.
 */
struct noise_pattern {
	u8 pre[2][NOISE_MAX_PRE_TOKENS + 1];
	u8 msgs[NOISE_MAX_MESSAGES][NOISE_MAX_TOKENS + 1];
	u8 num_msgs;
	u8 num_psks;
	bool one_way;
	u8 e_last[2];
	u8 ekem1_msg;
};

#define NOISE_HYBRID_DH		1	/* two DH functions, "25519+448" */
#define NOISE_HYBRID_HFS	2	/* the hfs modifier */

#define NOISE_NO_MSG	0xff	/* no message index */

/* Who sends message @i of @p: 0 the initiator, 1 the responder. */
static inline int noise_pattern_sender(const struct noise_pattern *p, unsigned int i)
{
	return p->one_way ? 0 : i & 1;
}

/**
 * struct noise_protocol - a parsed and validated protocol name.
 * @pattern: the pattern with psk and fallback modifiers applied.
 * @dh: enum noise_dh_id.
 * @cipher: enum noise_cipher_id.
 * @hash: enum noise_hash_id.
 * @fallback: the fallback modifier was applied.
 * @hybrid: NOISE_HYBRID_* bits: NOISE_HYBRID_DH is valid syntax the engine
 *	does not run; NOISE_HYBRID_HFS is the hfs modifier (see @kem).
 * @kem: with hfs, the KEM (enum noise_mlkem_param); 0 without.
 * @name_len: length of @name.
 * @name: the protocol name (hashed into the SymmetricState).
 */
struct noise_protocol {
	struct noise_pattern pattern;
	u8 dh;
	u8 cipher;
	u8 hash;
	bool fallback;
	u8 hybrid;
	u8 kem;
	u16 name_len;
	char name[NOISE_MAX_NAME_LEN + 1];
};

#endif /* _NOISE_PATTERN_H */
