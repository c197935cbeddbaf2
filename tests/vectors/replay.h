/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Noise test-vector replay, shared by the KUnit suite and noise_vectors.ko.
 */
#ifndef _NOISE_REPLAY_H
#define _NOISE_REPLAY_H

#include <linux/kernel.h>
#include <linux/types.h>

/* A byte string from a vector file; @p is NULL when the field is absent. */
struct noise_vec_bytes {
	const u8 *p;
	u32 len;
};

struct noise_vec_msg {
	struct noise_vec_bytes payload, ciphertext;
};

/**
 * struct noise_vector - one vector, as gen_vectors.py emits it.
 * @file: the file it came from (basename).
 * @desc: "file:protocol_name", unique, at most 127 characters.
 * @name: the (first) protocol name.
 * @fallback_name: the fallback protocol (Noise Pipes), or NULL.
 * @skip: why this vector cannot be replayed, or NULL.
 * @fail: the vector expects the handshake to fail.
 * @init_prologue: initiator fields, as in the JSON.
 * @init_static: initiator's static private key.
 * @init_ephemeral: initiator's ephemeral private key.
 * @init_remote_static: responder's static public key, known in advance.
 * @resp_prologue: responder fields.
 * @resp_static: responder's static private key.
 * @resp_ephemeral: responder's ephemeral private key.
 * @resp_remote_static: initiator's static public key, known in advance.
 * @handshake_hash: expected h after the handshake.
 * @init_kem_ephemeral: hfs: the 64-byte seed d || z of the initiator's e1.
 * @resp_kem_ephemeral: hfs: the 32-byte m of the responder's ekem1.
 * @init_psks: the initiator's PSKs.
 * @resp_psks: the responder's PSKs.
 * @num_init_psks: number of @init_psks.
 * @num_resp_psks: number of @resp_psks.
 * @msgs: handshake then transport messages.
 * @num_msgs: number of @msgs.
 */
struct noise_vector {
	const char *file, *desc, *name, *fallback_name, *skip;
	bool fail;
	struct noise_vec_bytes init_prologue, init_static, init_ephemeral,
			       init_remote_static, resp_prologue, resp_static,
			       resp_ephemeral, resp_remote_static, handshake_hash,
			       init_kem_ephemeral, resp_kem_ephemeral;
	const struct noise_vec_bytes *init_psks, *resp_psks;
	unsigned int num_init_psks, num_resp_psks;
	const struct noise_vec_msg *msgs;
	unsigned int num_msgs;
};

enum noise_vec_result { NOISE_VEC_PASS, NOISE_VEC_FAIL, NOISE_VEC_SKIP };

extern const struct noise_vector noise_test_vectors[];
extern const unsigned int noise_test_vectors_count;

/* Replay with the static-static DH computed outside the engine. */
#define NOISE_VEC_PRECOMPUTED_SS	1

enum noise_vec_result noise_vector_replay(const struct noise_vector *v,
					  char *why, size_t why_len);
enum noise_vec_result noise_vector_replay_flags(const struct noise_vector *v,
						char *why, size_t why_len,
						unsigned int flags);

#endif /* _NOISE_REPLAY_H */
