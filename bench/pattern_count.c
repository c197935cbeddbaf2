// SPDX-License-Identifier: GPL-2.0
/*
 * noise_bench: how many scalar multiplications a handshake needs, counted
 * from the engine's own parsed pattern (the token lists after the psk and
 * fallback modifiers), not from a table of our own.
 *
 * The engine does not export its parser, so its pattern.c is compiled into
 * this module under a private name: the pattern data and the parsing code
 * are the engine's, byte for byte, whatever the engine changes.
 */

#include <linux/slab.h>

#define noise_protocol_parse bench_protocol_parse
#include "pattern.c"
#undef noise_protocol_parse

#include "bench_engine.h"

/**
 * bench_count_dh() - scalar multiplications of one complete handshake,
 * both sides together.
 * @name: the protocol name.
 * @count: out: per token kind; keygens (one per e token: the sender makes
 *	its ephemeral key pair) and dh (two per ee, es, se or ss token: each side
 *	computes the shared secret once).
 *
 * Return: 0 or the parser's negative errno.
 */
int bench_count_dh(const char *name, struct bench_dh_count *count)
{
	struct noise_protocol *proto;
	unsigned int m, t;
	int err;

	proto = kzalloc(sizeof(*proto), GFP_KERNEL);
	if (!proto)
		return -ENOMEM;
	err = bench_protocol_parse(proto, name);
	if (err)
		goto out;
	memset(count, 0, sizeof(*count));
	for (m = 0; m < proto->pattern.num_msgs; m++) {
		for (t = 0; proto->pattern.msgs[m][t] != NOISE_TOK_END; t++) {
			switch (proto->pattern.msgs[m][t]) {
			case NOISE_TOK_E:
				count->keygens++;
				break;
			case NOISE_TOK_EE:
			case NOISE_TOK_ES:
			case NOISE_TOK_SE:
			case NOISE_TOK_SS:
				count->dh += 2;
				break;
			default:
				break;
			}
		}
	}
out:
	kfree(proto);
	return err;
}
