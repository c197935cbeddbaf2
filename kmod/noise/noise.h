/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Noise Protocol Framework (revision 34) engine: the in-kernel API.
 *
 * A library with no knowledge of devices, peers or sockets. A handshake is
 * created from a protocol name, a role and keys; messages are written and
 * read in turn; Split() gives the transport cipher states. See
 * Documentation/engine.rst for contexts, memory bounds and errors.
 *
 * Buffers handed to the transport calls are mapped into scatterlists for
 * the crypto API: they must be linearly mapped kernel memory (kmalloc, page
 * or skb data), never on the stack (CONFIG_VMAP_STACK) or in vmalloc space.
 * Handshake messages and payloads may be in any kernel memory.
 */
#ifndef _NOISE_H
#define _NOISE_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/spinlock.h>

struct scatterlist;
struct noise_handshake;

#define NOISE_MAX_NAME_LEN	255
#define NOISE_MAX_MSG_LEN	65535
#define NOISE_TAG_LEN		16
#define NOISE_KEY_LEN		32
#define NOISE_PSK_LEN		32
#define NOISE_MAX_DHLEN		56
#define NOISE_MAX_HASHLEN	64
#define NOISE_MAX_MESSAGES	4	/* handshake messages per pattern */
#define NOISE_MAX_PSKS		(NOISE_MAX_MESSAGES + 1)
/* The largest transport payload: 65535 minus the tag. */
#define NOISE_MAX_PAYLOAD_LEN	(NOISE_MAX_MSG_LEN - NOISE_TAG_LEN)

enum noise_role { NOISE_INITIATOR, NOISE_RESPONDER };
enum noise_dh_id { NOISE_DH_25519, NOISE_DH_448 };
enum noise_cipher_id { NOISE_CIPHER_CHACHAPOLY, NOISE_CIPHER_AESGCM,
		       NOISE_CIPHER_COUNT };

/**
 * struct noise_handshake_template - a protocol name parsed, and the
 *	SymmetricState a handshake of it starts from with a given prologue
 *	(noise_handshake_template_init()), for noise_handshake_new_from(),
 *	which then repeats neither. Plain data the engine fills: it may be
 *	copied, needs no freeing and holds nothing secret.
 * @opaque: the engine's.
 */
struct noise_handshake_template {
	u64 opaque[72];
};

/* What a handshake expects next (noise_handshake_next()). */
enum noise_action {
	NOISE_ACTION_WRITE,	/* call noise_handshake_write() */
	NOISE_ACTION_READ,	/* call noise_handshake_read() */
	NOISE_ACTION_SPLIT,	/* complete: call noise_handshake_split() */
	NOISE_ACTION_FAILED,	/* destroyed by an error or split: free it */
};

/**
 * struct noise_keys - keys and prologue for noise_handshake_new().
 * @local_static: our static private key (DHLEN bytes), or NULL.
 * @remote_static: the peer's static public key known in advance (pre-message
 *	s), or NULL.
 * @local_ephemeral: our ephemeral private key for a pre-message e (the
 *	responder of a fallback handshake), or NULL.
 * @remote_ephemeral: the peer's ephemeral public key for a pre-message e
 *	(the initiator of a fallback handshake), or NULL.
 * @psks: @num_psks 32-byte PSKs, in the order the psk tokens are met.
 * @num_psks: the number of psk tokens of the pattern, or 0 to supply every
 *	PSK later with noise_handshake_set_psk().
 * @prologue: prologue bytes (may be NULL when @prologue_len is 0).
 * @prologue_len: length of @prologue.
 * @local_static_public: the public key of @local_static, or NULL to have
 *	it derived (one scalar multiplication per handshake). Pass it when
 *	the same static key serves many handshakes; it is not checked, and a
 *	wrong one makes the handshake fail at the peer.
 * @precomputed_ss: DH(@local_static, @remote_static), DHLEN bytes
 *	(noise_dh_shared()), used for the ss token when both static keys are
 *	known at creation (ignored otherwise), or NULL to compute it. Saves
 *	one scalar multiplication; not checked (a wrong one fails the
 *	handshake).
 * @remote_static_cb: if set, called during noise_handshake_read() right
 *	after the peer's static key is decrypted (token s), before any later
 *	token: the callback may look the peer up and call
 *	noise_handshake_set_psk() and noise_handshake_set_precomputed_ss()
 *	(which then take effect only if the read succeeds). A non-zero
 *	return makes the read fail with it; the handshake stays as it was.
 * @cb_ctx: first argument of @remote_static_cb.
 *
 * Keys a pattern does not use are ignored. Everything is copied.
 */
struct noise_keys {
	const u8 *local_static;
	const u8 *remote_static;
	const u8 *local_ephemeral;
	const u8 *remote_ephemeral;
	const u8 (*psks)[NOISE_PSK_LEN];
	unsigned int num_psks;
	const u8 *prologue;
	size_t prologue_len;
	const u8 *local_static_public;
	const u8 *precomputed_ss;
	int (*remote_static_cb)(void *ctx, struct noise_handshake *hs,
				const u8 *remote_static);
	void *cb_ctx;
};

/**
 * struct noise_protocol_info - what a protocol name means.
 * @dh: enum noise_dh_id.
 * @cipher: enum noise_cipher_id.
 * @dh_len: DHLEN (32 or 56).
 * @hash_len: HASHLEN (32 or 64).
 * @num_msgs: handshake messages.
 * @num_psks: psk tokens.
 * @one_way: only the initiator sends (N, K, X).
 * @fallback: the fallback modifier is present.
 * @needs_local_static: per role (enum noise_role): the role sends s.
 * @needs_remote_static: per role: the peer's s is a pre-message.
 * @kem_pub_len: hfs: the KEM public key length (e1: 1184 for MLKEM768,
 *	1568 for MLKEM1024); 0 without hfs.
 * @kem_ct_len: hfs: the KEM ciphertext length (ekem1: 1088 or 1568).
 */
struct noise_protocol_info {
	enum noise_dh_id dh;
	enum noise_cipher_id cipher;
	unsigned int dh_len, hash_len, num_msgs, num_psks;
	unsigned int kem_pub_len, kem_ct_len;
	bool one_way, fallback;
	bool needs_local_static[2], needs_remote_static[2];
};

struct noise_cipher;
struct noise_crypt_req;

/*
 * Replay window (RFC 6479), for explicit-nonce transports (section 11.4):
 * see replay.c. NOISE_REPLAY_WINDOW nonces below the highest accepted one
 * are remembered; older ones are refused.
 */
#define NOISE_REPLAY_BITS	16384
#define NOISE_REPLAY_WINDOW	(NOISE_REPLAY_BITS - BITS_PER_LONG)

/**
 * struct noise_replay - which nonces of a session were accepted.
 * @lock: serializes noise_replay_update().
 * @top: the highest accepted nonce plus one; 0 before the first.
 * @bits: bit (n mod NOISE_REPLAY_BITS) set when nonce n - 1 was accepted.
 */
struct noise_replay {
	spinlock_t lock;	/* serializes noise_replay_update() */
	u64 top;
	unsigned long bits[NOISE_REPLAY_BITS / BITS_PER_LONG];
};

void noise_replay_init(struct noise_replay *r);
bool noise_replay_check(const struct noise_replay *r, u64 n);
bool noise_replay_update(struct noise_replay *r, u64 n);

int noise_protocol_info(const char *name, struct noise_protocol_info *info);

int noise_dh_generate(enum noise_dh_id dh, u8 *priv, u8 *pub);
int noise_dh_public(enum noise_dh_id dh, u8 *pub, const u8 *priv);
int noise_dh_shared(enum noise_dh_id dh, u8 *out, const u8 *priv, const u8 *pub);
unsigned int noise_dh_len(enum noise_dh_id dh);

struct noise_handshake *noise_handshake_new(const char *name, enum noise_role role,
					    const struct noise_keys *keys, gfp_t gfp);
int noise_handshake_template_init(struct noise_handshake_template *t, const char *name,
				  const u8 *prologue, size_t prologue_len);
struct noise_handshake *noise_handshake_new_from(const struct noise_handshake_template *t,
						 enum noise_role role,
						 const struct noise_keys *keys, gfp_t gfp);
struct noise_handshake *noise_handshake_fallback(struct noise_handshake *old,
						 const char *name,
						 const struct noise_keys *keys,
						 gfp_t gfp);
int noise_handshake_set_psk(struct noise_handshake *hs, unsigned int i,
			    const u8 psk[NOISE_PSK_LEN]);
int noise_handshake_set_precomputed_ss(struct noise_handshake *hs, const u8 *ss);
int noise_handshake_set_precomputed_sre(struct noise_handshake *hs, const u8 *re,
					const u8 *dh);
const char *noise_handshake_protocol_name(const struct noise_handshake *hs);
enum noise_action noise_handshake_next(const struct noise_handshake *hs);
int noise_handshake_write(struct noise_handshake *hs, const u8 *payload,
			  size_t payload_len, u8 *out, size_t out_cap,
			  size_t *out_len);
int noise_handshake_read(struct noise_handshake *hs, const u8 *msg,
			 size_t msg_len, u8 *payload, size_t payload_cap,
			 size_t *payload_len);
int noise_handshake_split(struct noise_handshake *hs, struct noise_cipher **send,
			  struct noise_cipher **recv);
int noise_handshake_hash(const struct noise_handshake *hs, u8 *out, size_t cap);
int noise_handshake_remote_static(const struct noise_handshake *hs, u8 *out,
				  size_t cap);
int noise_handshake_dh_ephemeral(const struct noise_handshake *hs, const u8 *pub,
				 u8 *out, size_t cap);
void noise_handshake_free(struct noise_handshake *hs);

struct noise_cipher *noise_cipher_new(enum noise_cipher_id id, const u8 *key,
				      gfp_t gfp);
int noise_cipher_encrypt(struct noise_cipher *c, const u8 *ad, size_t ad_len,
			 u8 *buf, size_t len);
int noise_cipher_decrypt(struct noise_cipher *c, const u8 *ad, size_t ad_len,
			 u8 *buf, size_t len);
int noise_cipher_encrypt_sg(struct noise_cipher *c, struct scatterlist *sg,
			    unsigned int ad_len, unsigned int len);
int noise_cipher_decrypt_sg(struct noise_cipher *c, struct scatterlist *sg,
			    unsigned int ad_len, unsigned int len);
int noise_cipher_encrypt_at(struct noise_cipher *c, u64 n, const u8 *ad,
			    size_t ad_len, u8 *buf, size_t len);
int noise_cipher_decrypt_at(struct noise_cipher *c, u64 n, const u8 *ad,
			    size_t ad_len, u8 *buf, size_t len);
int noise_cipher_encrypt_sg_at(struct noise_cipher *c, u64 n,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len);
int noise_cipher_decrypt_sg_at(struct noise_cipher *c, u64 n,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len);
int noise_cipher_take_nonce(struct noise_cipher *c, u64 *n);
u64 noise_cipher_messages_sent(const struct noise_cipher *c);
u64 noise_cipher_messages_received(const struct noise_cipher *c);

/**
 * typedef noise_crypt_done_t - completion of an asynchronous operation.
 * @data: the caller's pointer.
 * @err: 0, -EBADMSG (authentication failed) or another negative errno.
 */
typedef void (*noise_crypt_done_t)(void *data, int err);

struct noise_crypt_req *noise_crypt_req_alloc(struct noise_cipher *c, gfp_t gfp);
struct noise_crypt_req *noise_crypt_req_alloc_id(enum noise_cipher_id id,
						 gfp_t gfp);
void noise_crypt_req_free(struct noise_crypt_req *r);
int noise_cipher_encrypt_async(struct noise_cipher *c, struct noise_crypt_req *r,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len, noise_crypt_done_t done,
			       void *data);
int noise_cipher_decrypt_async(struct noise_cipher *c, struct noise_crypt_req *r,
			       struct scatterlist *sg, unsigned int ad_len,
			       unsigned int len, noise_crypt_done_t done,
			       void *data);

int noise_cipher_encrypt_async_at(struct noise_cipher *c,
				  struct noise_crypt_req *r, u64 n,
				  struct scatterlist *sg, unsigned int ad_len,
				  unsigned int len, noise_crypt_done_t done,
				  void *data);
int noise_cipher_decrypt_async_at(struct noise_cipher *c,
				  struct noise_crypt_req *r, u64 n,
				  struct scatterlist *sg, unsigned int ad_len,
				  unsigned int len, noise_crypt_done_t done,
				  void *data);

int noise_cipher_rekey(struct noise_cipher *c);
void noise_cipher_set_nonce(struct noise_cipher *c, u64 n);
u64 noise_cipher_nonce(const struct noise_cipher *c);
const char *noise_cipher_driver_name(const struct noise_cipher *c);
const char *noise_aead_driver_name(enum noise_cipher_id id);
void noise_cipher_free(struct noise_cipher *c);

#endif /* _NOISE_H */
