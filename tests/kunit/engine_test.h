/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the engine's KUnit suites: a pair of handshake states
 * with fresh keys, driven message by message.
 */
#ifndef _NOISE_ENGINE_TEST_H
#define _NOISE_ENGINE_TEST_H

#include <kunit/test.h>
#include "noise.h"

#define ET_BUF (NOISE_MAX_MSG_LEN + 64)

/**
 * struct et_opts - how a pair differs from a matching one.
 * @resp_prologue: the responder's prologue ("prologue" for both otherwise).
 * @wrong_psk: the responder's first PSK differs.
 * @wrong_rs: the initiator's idea of the responder's static key is wrong.
 */
struct et_opts {
	const char *resp_prologue;
	bool wrong_psk;
	bool wrong_rs;
	bool resp_template;	/* responder from noise_handshake_new_from() */
};

struct et_pair {
	struct kunit *test;
	struct noise_handshake *ini, *res;
	struct noise_cipher *is, *ir, *rs, *rr;
	struct noise_protocol_info info;
	u8 *buf, *pt, *ref, *orig;
	size_t orig_len;
	u8 s[2][NOISE_MAX_DHLEN], pub[2][NOISE_MAX_DHLEN];
	u8 e_res[NOISE_MAX_DHLEN], e_res_pub[NOISE_MAX_DHLEN];
	u8 bad_pub[NOISE_MAX_DHLEN];
	bool use_bad_rs;
	u8 psks[2][NOISE_MAX_PSKS][NOISE_PSK_LEN];
	char prologue[2][16];
};

struct et_pair *et_pair_new(struct kunit *test, const char *name,
			    const struct et_opts *opts);
void et_pair_release(void *data);
int et_step(struct et_pair *p, unsigned int i, size_t payload_len,
	    int tamper, size_t trunc, bool *read_failed);
int et_resend(struct et_pair *p, unsigned int i);
int et_handshake(struct et_pair *p, size_t payload_len);
int et_split(struct et_pair *p);
void et_transport(struct et_pair *p, unsigned int count, size_t max_len);

#endif /* _NOISE_ENGINE_TEST_H */
