// SPDX-License-Identifier: GPL-2.0
/*
 * noise_async_test: the engine's transport ciphers on a real x86 kernel, in
 * the contexts where the crypto API's SIMD drivers behave differently.
 *
 * On x86 the gcm(aes) the crypto API hands out is a SIMD wrapper: when the
 * FPU cannot be used in the calling context it passes the request to cryptd
 * and completes later, from a worker. This module drives the engine's
 * transport cipher through every path a caller can meet and checks each
 * result against an implementation outside the engine (the ChaCha20-Poly1305
 * library, a synchronous-only gcm(aes) transform):
 *
 *   process-sync    noise_cipher_encrypt/decrypt() in process context;
 *   fpu-async-enc   the _async calls inside kernel_fpu_begin(), where SIMD is
 *                   unusable: an asynchronous driver must go through cryptd
 *                   for every message (-EINPROGRESS, then the callback);
 *   softirq-async-dec  the _async calls from a timer (softirq), where SIMD
 *                   is usable;
 *   softirq-mixed-enc  from a timer: the first half inside a kernel_fpu
 *                   section (to cryptd), the rest outside it: the SIMD
 *                   wrapper must queue those behind the first half to keep
 *                   the order, so all complete through the callback;
 *   fpu-async-forgery  one tampered message among good ones: -EBADMSG for
 *                   it alone, the following nonces still decrypt (explicit
 *                   counters, the _at calls, as the tunnel uses them).
 *
 * Hard-irq context is not tested because the crypto API refuses it: the
 * skcipher walk under every AEAD here does WARN_ON_ONCE(in_hardirq()) and
 * returns -EDEADLK.
 *
 * Loading it runs everything and prints one line per check and the line
 * "noise_async_test: N passed, M failed"; init fails with -EINVAL when a
 * check failed, so insmod's status is the verdict (rmmod it after a pass).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/completion.h>
#include <linux/timer.h>
#include <linux/err.h>
#include <crypto/aead.h>
#include <crypto/chacha20poly1305.h>
#include <asm/fpu/api.h>
#include "noise.h"

#define NAT_MSGS	32
#define NAT_AD_LEN	13
#define NAT_TIMEOUT	(60 * HZ)	/* TCG is slow; cryptd must still finish */

static const char * const nat_cipher_names[NOISE_CIPHER_COUNT] = {
	[NOISE_CIPHER_CHACHAPOLY] = "ChaChaPoly",
	[NOISE_CIPHER_AESGCM] = "AESGCM",
};

static const char * const nat_aead_names[NOISE_CIPHER_COUNT] = {
	[NOISE_CIPHER_CHACHAPOLY] = "rfc7539(chacha20,poly1305)",
	[NOISE_CIPHER_AESGCM] = "gcm(aes)",
};

/* The plaintexts and the reference ciphertexts of one cipher. */
struct nat_case {
	enum noise_cipher_id id;
	u8 key[NOISE_KEY_LEN];
	u8 ad[NAT_AD_LEN];
	unsigned int len[NAT_MSGS];
	u8 *pt[NAT_MSGS];
	u8 *ct[NAT_MSGS];	/* len + tag */
	bool driver_async;	/* the default driver may complete later */
};

struct nat_run;

/* One message of a run: buf is ad || text || tag, mapped by sg. */
struct nat_msg {
	struct nat_run *run;
	struct noise_crypt_req *req;
	struct scatterlist sg;
	u8 *buf;
	int err;
};

/* One pass over all messages with one cipher state. */
struct nat_run {
	const struct nat_case *tc;
	struct noise_cipher *c;
	bool enc;
	bool at;		/* explicit counters: message i is nonce i */
	unsigned int fpu_msgs;	/* how many to submit inside a kernel_fpu section */
	struct nat_msg msg[NAT_MSGS];
	atomic_t pending;
	struct completion done;
	atomic_t via_callback;
	int submit_err;
	struct timer_list timer;
};

static unsigned int nat_passed, nat_failed;

static __printf(4, 5) void nat_report(const struct nat_case *tc, const char *check,
				       bool ok, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("%s %s %s (%s; %pV)\n", ok ? "ok" : "FAIL",
		nat_cipher_names[tc->id], check,
		noise_aead_driver_name(tc->id), &vaf);
	va_end(args);
	if (ok)
		nat_passed++;
	else
		nat_failed++;
}

/* Reference encryption outside the engine, nonce n = i. */
static int nat_ref_chachapoly(struct nat_case *tc)
{
	int i;

	for (i = 0; i < NAT_MSGS; i++)
		chacha20poly1305_encrypt(tc->ct[i], tc->pt[i], tc->len[i], tc->ad,
					 NAT_AD_LEN, i, tc->key);
	return 0;
}

static int nat_ref_aesgcm_one(struct crypto_aead *tfm, struct nat_case *tc,
			      int i, u8 *buf)
{
	struct aead_request *req;
	struct scatterlist sg;
	__be64 n = cpu_to_be64(i);
	u8 iv[12] = { 0 };
	int err;

	req = aead_request_alloc(tfm, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	memcpy(iv + 4, &n, sizeof(n));
	memcpy(buf, tc->ad, NAT_AD_LEN);
	memcpy(buf + NAT_AD_LEN, tc->pt[i], tc->len[i]);
	sg_init_one(&sg, buf, NAT_AD_LEN + tc->len[i] + NOISE_TAG_LEN);
	aead_request_set_callback(req, 0, NULL, NULL);
	aead_request_set_ad(req, NAT_AD_LEN);
	aead_request_set_crypt(req, &sg, &sg, tc->len[i], iv);
	err = crypto_aead_encrypt(req);	/* a synchronous-only tfm */
	aead_request_free(req);
	if (!err)
		memcpy(tc->ct[i], buf + NAT_AD_LEN, tc->len[i] + NOISE_TAG_LEN);
	return err;
}

/* gcm(aes) from a synchronous-only instance: another driver than the engine's. */
static int nat_ref_aesgcm(struct nat_case *tc)
{
	struct crypto_aead *tfm;
	u8 *buf;
	int i, err;

	tfm = crypto_alloc_aead("gcm(aes)", 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	pr_info("reference AESGCM driver: %s\n", crypto_aead_driver_name(tfm));
	buf = kmalloc(NAT_AD_LEN + NOISE_MAX_PAYLOAD_LEN, GFP_KERNEL);
	err = buf ? 0 : -ENOMEM;
	if (!err)
		err = crypto_aead_setkey(tfm, tc->key, NOISE_KEY_LEN);
	if (!err)
		err = crypto_aead_setauthsize(tfm, NOISE_TAG_LEN);
	for (i = 0; !err && i < NAT_MSGS; i++)
		err = nat_ref_aesgcm_one(tfm, tc, i, buf);
	kfree(buf);
	crypto_free_aead(tfm);
	return err;
}

/* Whether the default driver of @name is asynchronous (differs from the sync-only one). */
static bool nat_driver_async(const char *name)
{
	struct crypto_aead *any, *sync;
	bool async = false;

	any = crypto_alloc_aead(name, 0, 0);
	sync = crypto_alloc_aead(name, 0, CRYPTO_ALG_ASYNC);
	if (!IS_ERR(any) && !IS_ERR(sync))
		async = strcmp(crypto_aead_driver_name(any),
			       crypto_aead_driver_name(sync)) != 0;
	if (!IS_ERR(any))
		crypto_free_aead(any);
	if (!IS_ERR(sync))
		crypto_free_aead(sync);
	return async;
}

static void nat_case_free(struct nat_case *tc)
{
	int i;

	for (i = 0; i < NAT_MSGS; i++) {
		kfree(tc->pt[i]);
		kfree(tc->ct[i]);
	}
}

static int nat_case_init(struct nat_case *tc, enum noise_cipher_id id)
{
	static const unsigned int lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 1400 };
	int i;

	memset(tc, 0, sizeof(*tc));
	tc->id = id;
	get_random_bytes(tc->key, sizeof(tc->key));
	get_random_bytes(tc->ad, sizeof(tc->ad));
	for (i = 0; i < NAT_MSGS; i++) {
		tc->len[i] = i < ARRAY_SIZE(lens) ? lens[i] : (i * 97) % 1500;
		tc->pt[i] = kmalloc(tc->len[i] + 1, GFP_KERNEL);
		tc->ct[i] = kmalloc(tc->len[i] + NOISE_TAG_LEN, GFP_KERNEL);
		if (!tc->pt[i] || !tc->ct[i])
			goto nomem;
		get_random_bytes(tc->pt[i], tc->len[i]);
	}
	tc->driver_async = nat_driver_async(nat_aead_names[id]);
	return id == NOISE_CIPHER_CHACHAPOLY ? nat_ref_chachapoly(tc) :
					       nat_ref_aesgcm(tc);
nomem:
	nat_case_free(tc);
	return -ENOMEM;
}

/* process-sync: encrypt and decrypt with the sleeping calls. */
static void nat_process_sync(const struct nat_case *tc)
{
	struct noise_cipher *enc, *dec;
	unsigned int good = 0;
	u8 *buf;
	int i;

	enc = noise_cipher_new(tc->id, tc->key, GFP_KERNEL);
	dec = noise_cipher_new(tc->id, tc->key, GFP_KERNEL);
	buf = kmalloc(NOISE_MAX_MSG_LEN, GFP_KERNEL);
	for (i = 0; buf && !IS_ERR(enc) && !IS_ERR(dec) && i < NAT_MSGS; i++) {
		unsigned int len = tc->len[i];

		memcpy(buf, tc->pt[i], len);
		if (noise_cipher_encrypt(enc, tc->ad, NAT_AD_LEN, buf, len) ||
		    memcmp(buf, tc->ct[i], len + NOISE_TAG_LEN))
			continue;
		if (noise_cipher_decrypt(dec, tc->ad, NAT_AD_LEN, buf,
					 len + NOISE_TAG_LEN) ||
		    memcmp(buf, tc->pt[i], len))
			continue;
		good++;
	}
	nat_report(tc, "process-sync", good == NAT_MSGS,
		   "%u/%u messages match the reference", good, NAT_MSGS);
	kfree(buf);
	if (!IS_ERR(enc))
		noise_cipher_free(enc);
	if (!IS_ERR(dec))
		noise_cipher_free(dec);
}

static void nat_run_put(struct nat_run *run)
{
	if (atomic_dec_and_test(&run->pending))
		complete(&run->done);
}

static void nat_msg_finish(struct nat_msg *m, int err)
{
	m->err = err;
	nat_run_put(m->run);
}

/* The engine's completion: from a cryptd worker or the submitting context. */
static void nat_done(void *data, int err)
{
	struct nat_msg *m = data;

	atomic_inc(&m->run->via_callback);
	nat_msg_finish(m, err);
}

static void nat_submit_one(struct nat_run *run, int i)
{
	struct nat_msg *m = &run->msg[i];
	unsigned int len = run->tc->len[i];
	int err;

	if (run->enc)
		err = noise_cipher_encrypt_async(run->c, m->req, &m->sg, NAT_AD_LEN,
						 len, nat_done, m);
	else if (run->at)
		err = noise_cipher_decrypt_async_at(run->c, m->req, i, &m->sg,
						    NAT_AD_LEN, len + NOISE_TAG_LEN,
						    nat_done, m);
	else
		err = noise_cipher_decrypt_async(run->c, m->req, &m->sg, NAT_AD_LEN,
						 len + NOISE_TAG_LEN, nat_done, m);
	if (err != -EINPROGRESS)
		nat_msg_finish(m, err);
}

/*
 * Submits every message of @run in order, the first run->fpu_msgs with the
 * FPU taken (crypto_simd_usable() is false there). Process or softirq context.
 */
static void nat_submit_all(struct nat_run *run)
{
	unsigned int i;

	for (i = 0; i < NAT_MSGS; i++) {
		if (i == 0 && run->fpu_msgs)
			kernel_fpu_begin();
		nat_submit_one(run, i);
		if (i + 1 == run->fpu_msgs)
			kernel_fpu_end();
	}
	nat_run_put(run);	/* the submitter's own reference */
}

static void nat_run_free(struct nat_run *run)
{
	int i;

	for (i = 0; i < NAT_MSGS; i++) {
		noise_crypt_req_free(run->msg[i].req);
		kfree(run->msg[i].buf);
	}
	if (!IS_ERR_OR_NULL(run->c))
		noise_cipher_free(run->c);
	kfree(run);
}

/* A run with its buffers filled with ad || plaintext (or ciphertext). */
static struct nat_run *nat_run_new(const struct nat_case *tc, bool enc)
{
	struct nat_run *run = kzalloc(sizeof(*run), GFP_KERNEL);
	int i;

	if (!run)
		return NULL;
	run->tc = tc;
	run->enc = enc;
	init_completion(&run->done);
	atomic_set(&run->pending, NAT_MSGS + 1);
	run->c = noise_cipher_new(tc->id, tc->key, GFP_KERNEL);
	if (IS_ERR(run->c))
		goto err;
	for (i = 0; i < NAT_MSGS; i++) {
		struct nat_msg *m = &run->msg[i];
		unsigned int len = tc->len[i], total = NAT_AD_LEN + len + NOISE_TAG_LEN;

		m->run = run;
		m->req = noise_crypt_req_alloc(run->c, GFP_KERNEL);
		m->buf = kzalloc(total, GFP_KERNEL);
		if (!m->req || !m->buf)
			goto err;
		memcpy(m->buf, tc->ad, NAT_AD_LEN);
		memcpy(m->buf + NAT_AD_LEN, enc ? tc->pt[i] : tc->ct[i],
		       enc ? len : len + NOISE_TAG_LEN);
		sg_init_one(&m->sg, m->buf, total);
	}
	return run;
err:
	nat_run_free(run);
	return NULL;
}

/* Waits for @run; counts the messages whose output matches the reference. */
static unsigned int nat_run_check(struct nat_run *run, int bad)
{
	const struct nat_case *tc = run->tc;
	unsigned int good = 0;
	int i;

	if (!wait_for_completion_timeout(&run->done, NAT_TIMEOUT)) {
		pr_err("%s: timed out: %d requests never completed\n",
		       nat_cipher_names[tc->id], atomic_read(&run->pending));
		return 0;	/* the requests still point at run: leak it */
	}
	for (i = 0; i < NAT_MSGS; i++) {
		const struct nat_msg *m = &run->msg[i];
		const u8 *want = run->enc ? tc->ct[i] : tc->pt[i];
		unsigned int len = tc->len[i] + (run->enc ? NOISE_TAG_LEN : 0);

		if (i == bad)
			good += m->err == -EBADMSG;
		else
			good += !m->err && !memcmp(m->buf + NAT_AD_LEN, want, len);
	}
	return good;
}

/*
 * fpu-async-enc / fpu-async-forgery: submitted with the FPU taken, where
 * crypto_simd_usable() is false. An asynchronous driver must then hand every
 * request to cryptd; a synchronous one (generic code) completes at once.
 */
static void nat_fpu_async(const struct nat_case *tc, bool enc, int bad)
{
	const char *check = enc ? "fpu-async-enc" : "fpu-async-forgery";
	struct nat_run *run = nat_run_new(tc, enc);
	unsigned int good;
	int want_cb;

	if (!run) {
		nat_report(tc, check, false, "setup failed");
		return;
	}
	/*
	 * A failed stateful decrypt gives its nonce back when it was the last
	 * one submitted (Documentation/engine.rst): with a synchronous driver every
	 * message after a forgery would then be tried one nonce early. The
	 * tunnel decrypts at explicit counters, as forgeries are expected:
	 * so does this check.
	 */
	if (bad >= 0) {
		run->msg[bad].buf[NAT_AD_LEN + tc->len[bad] / 2] ^= 0x20;
		run->at = true;
	}
	run->fpu_msgs = NAT_MSGS;
	nat_submit_all(run);
	good = nat_run_check(run, bad);
	want_cb = tc->driver_async ? NAT_MSGS : 0;
	nat_report(tc, check, good == NAT_MSGS && atomic_read(&run->via_callback) == want_cb,
		   "%u/%u correct, %d completed through the callback", good,
		   NAT_MSGS, atomic_read(&run->via_callback));
	if (good || !atomic_read(&run->pending))
		nat_run_free(run);
}

static void nat_timer_fn(struct timer_list *t)
{
	struct nat_run *run = from_timer(run, t, timer);

	nat_submit_all(run);
}

/*
 * softirq-async-dec: decrypt from a timer callback, SIMD usable.
 * softirq-mixed-enc: encrypt from a timer callback, the first half with the
 * FPU taken; an asynchronous driver must send the rest to cryptd as well.
 */
static void nat_softirq_async(const struct nat_case *tc, bool mixed)
{
	const char *check = mixed ? "softirq-mixed-enc" : "softirq-async-dec";
	struct nat_run *run = nat_run_new(tc, mixed);
	unsigned int good;
	bool ok;

	if (!run) {
		nat_report(tc, check, false, "setup failed");
		return;
	}
	run->fpu_msgs = mixed ? NAT_MSGS / 2 : 0;
	timer_setup(&run->timer, nat_timer_fn, 0);
	mod_timer(&run->timer, jiffies + 1);
	good = nat_run_check(run, -1);
	del_timer_sync(&run->timer);
	ok = good == NAT_MSGS;
	if (mixed)
		ok &= atomic_read(&run->via_callback) == (tc->driver_async ? NAT_MSGS : 0);
	nat_report(tc, check, ok, "%u/%u correct, %d completed through the callback",
		   good, NAT_MSGS, atomic_read(&run->via_callback));
	if (good || !atomic_read(&run->pending))
		nat_run_free(run);
}

static void nat_cipher(enum noise_cipher_id id)
{
	struct nat_case *tc = kzalloc(sizeof(*tc), GFP_KERNEL);
	int err;

	if (!tc) {
		nat_failed++;
		return;
	}
	err = nat_case_init(tc, id);
	if (err) {
		pr_err("FAIL %s: reference setup: %d\n", nat_cipher_names[id], err);
		nat_failed++;
		kfree(tc);
		return;
	}
	pr_info("%s: engine driver %s, %s\n", nat_cipher_names[id],
		noise_aead_driver_name(id),
		tc->driver_async ? "asynchronous (SIMD wrapper over cryptd)" :
				   "synchronous");
	nat_process_sync(tc);
	nat_fpu_async(tc, true, -1);
	nat_softirq_async(tc, false);
	nat_softirq_async(tc, true);
	nat_fpu_async(tc, false, 3);
	nat_case_free(tc);
	kfree(tc);
}

static int __init nat_init(void)
{
	enum noise_cipher_id id;

	for (id = 0; id < NOISE_CIPHER_COUNT; id++)
		nat_cipher(id);
	pr_info("%u passed, %u failed\n", nat_passed, nat_failed);
	return nat_failed ? -EINVAL : 0;
}

static void __exit nat_exit(void)
{
}

module_init(nat_init);
module_exit(nat_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Noise engine transport ciphers in SIMD-less and atomic contexts");
