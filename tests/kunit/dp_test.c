// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the tunnel's data path after the crypto. Two test devices, A and
 * B, make a session through the send tap (noise_socket_set_test_tap());
 * what one sends is handed to the other's receive path
 * (noise_receive_test()), as in fuzz_rx.c.
 *
 * noise_dp_rx_frag_list: transport messages A sent with a real inner
 * packet reach B with only the outer headers in the skb's head and the
 * message in a frag_list (what IP reassembly hands over). The head's
 * tailroom holds a decoy IPv4 header with another source: the inner
 * header must be pulled out of the frag_list before its source is checked
 * against B's allowed IPs, so the packet from an allowed source is
 * delivered and the one from a source B does not allow is dropped
 * (drop_source), whatever the decoy says.
 *
 * noise_dp_async_teardown: a test AEAD registered for the tunnel's cipher
 * name at a high priority, asynchronous, that completes every request from
 * delayed work (DP_HOLD later while the test holds it); B is destroyed
 * while its decryption is in flight. Destroying it must wait for the
 * request: when it returns, the driver must have nothing left (else its
 * completion would run on the freed request and device).
 */

#include <kunit/test.h>
#include <crypto/aead.h>
#include <crypto/internal/aead.h>
#include <linux/delay.h>
#include <linux/ip.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/ip.h>
#include "tunnel/device.h"
#include "tunnel/identity.h"
#include "tunnel/stats.h"
#include "tunnel/messages.h"
#include "tunnel/peer.h"
#include "tunnel/peer_conf.h"
#include "tunnel/socket.h"
#include "tunnel/hs_glue.h"
#include "fuzz_test.h"
#include "noise_internal.h"

#define DP_PROTO	"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s"
#define DP_PORT_A	51830
#define DP_PORT_B	51831
#define DP_MAX_MSG	1600
#define DP_INNER_LEN	1000
#define DP_IN_A		0x0a4d0001	/* 10.77.0.1: A's inner address */
#define DP_IN_B		0x0a4d0002	/* 10.77.0.2: B's */
#define DP_IN_OTHER	0x0a4d0009	/* 10.77.0.9: allowed to nobody */

/* --------- a test AEAD: asynchronous, completes from delayed work -------- */

#define DP_AEAD_NAME	"rfc7539(chacha20,poly1305)"
#define DP_AEAD_DRIVER	"noise-kunit-async-chachapoly"
#define DP_HOLD		HZ
#define DP_MAX_REQS	64

struct dp_fake_ctx {
	struct crypto_aead *child;
};

struct dp_fake_req {
	struct aead_request sub;	/* last: the child's context follows */
};

struct dp_fake_entry {
	struct aead_request *req;
	unsigned long at;	/* jiffies: complete from then on */
	bool enc;
};

static struct {
	spinlock_t lock;	/* the entries */
	struct dp_fake_entry e[DP_MAX_REQS];
	unsigned int n;
	unsigned long hold;	/* delay of new requests */
	atomic_t submitted, completed;
	wait_queue_head_t idle;
	struct delayed_work work;
} dp_fake;

static unsigned int dp_fake_in_flight(void)
{
	return atomic_read(&dp_fake.submitted) - atomic_read(&dp_fake.completed);
}

struct dp_rec {
	struct list_head node;
	struct noise_device *nd;
	unsigned int len;
	u8 data[];
};

struct dp_ctx {
	struct kunit *test;
	struct noise_device *a, *b;
	struct noise_peer *pa, *pb;	/* A's peer (B), B's peer (A) */
	spinlock_t lock;		/* out */
	struct list_head out;
};

static struct dp_ctx *dp_cur;

static void dp_tap(struct noise_device *nd, struct sk_buff *skb)
{
	struct dp_ctx *c = READ_ONCE(dp_cur);
	struct dp_rec *r;

	if (!c || (nd != c->a && nd != c->b) || skb->len > DP_MAX_MSG)
		goto out;
	r = kmalloc(struct_size(r, data, skb->len), GFP_ATOMIC);
	if (!r)
		goto out;
	r->nd = nd;
	r->len = skb->len;
	if (skb_copy_bits(skb, 0, r->data, skb->len)) {
		kfree(r);
		goto out;
	}
	spin_lock_bh(&c->lock);
	list_add_tail(&r->node, &c->out);
	spin_unlock_bh(&c->lock);
out:
	consume_skb(skb);
}

static struct dp_rec *dp_pop(struct dp_ctx *c)
{
	struct dp_rec *r;

	spin_lock_bh(&c->lock);
	r = list_first_entry_or_null(&c->out, struct dp_rec, node);
	if (r)
		list_del(&r->node);
	spin_unlock_bh(&c->lock);
	return r;
}

static void dp_drain(struct dp_ctx *c)
{
	struct dp_rec *r;

	while ((r = dp_pop(c)))
		kfree(r);
}

static bool dp_fake_on;
static void dp_fake_flush(void);

/* The devices' work, and the test AEAD's (not while it holds requests). */
static void dp_flush(struct dp_ctx *c)
{
	struct noise_device *nd[] = { c->a, c->b };
	unsigned int i, round;

	for (round = 0; round < 100; round++) {
		for (i = 0; i < ARRAY_SIZE(nd); i++) {
			if (!nd[i])
				continue;
			flush_workqueue(nd[i]->hs_wq);
			flush_workqueue(nd[i]->wq);
		}
		if (!READ_ONCE(dp_fake_on) || READ_ONCE(dp_fake.hold))
			return;
		dp_fake_flush();
		if (round && !dp_fake_in_flight())
			return;
	}
}

/* Outer IPv4 and UDP headers from the other device, data at the UDP one. */
static struct sk_buff *dp_outer(struct dp_ctx *c, struct noise_device *nd,
				unsigned int len, unsigned int room)
{
	struct sk_buff *skb;
	struct udphdr *udp;
	struct iphdr *ip;

	skb = alloc_skb(NET_SKB_PAD + sizeof(*ip) + sizeof(*udp) + room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(c->test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	skb_reset_network_header(skb);
	ip = skb_put_zero(skb, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = htonl(INADDR_LOOPBACK);
	ip->daddr = htonl(INADDR_LOOPBACK);
	ip->tot_len = htons(sizeof(*ip) + sizeof(*udp) + len);
	skb_set_transport_header(skb, skb->len);
	udp = skb_put_zero(skb, sizeof(*udp));
	udp->source = htons(nd == c->b ? DP_PORT_A : DP_PORT_B);
	udp->dest = htons(nd == c->b ? DP_PORT_B : DP_PORT_A);
	udp->len = htons((u16)(sizeof(*udp) + len));
	skb->protocol = htons(ETH_P_IP);
	return skb;
}

/* A datagram to @nd, all of it in the skb's head. */
static void dp_inject(struct dp_ctx *c, struct noise_device *nd, const u8 *msg,
		      unsigned int len)
{
	struct sk_buff *skb = dp_outer(c, nd, len, len);

	skb_put_data(skb, msg, len);
	skb_pull(skb, sizeof(struct iphdr));
	noise_receive_test(nd, skb);
}

/* An inner IPv4 header from @saddr to B (DP_INNER_LEN bytes in all). */
static void dp_inner_header(struct iphdr *ip, u32 saddr)
{
	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(DP_INNER_LEN);
	ip->saddr = htonl(saddr);
	ip->daddr = htonl(DP_IN_B);
	ip->check = ip_fast_csum(ip, ip->ihl);
}

/*
 * A datagram to @nd whose head ends after the outer headers: the message
 * is in a frag_list. The head's tailroom, where the receive path's pulls
 * put the transport header and then the inner header, holds a decoy
 * inner header from @decoy_src after the transport header.
 */
static void dp_inject_frag(struct dp_ctx *c, struct noise_device *nd, const u8 *msg,
			   unsigned int len, u32 decoy_src)
{
	/* Room for the pulled headers, not for all: ___pskb_trim() would
	 * move a frag_list that fits into the head (skb_condense()).
	 */
	const unsigned int room = 64;
	struct sk_buff *skb = dp_outer(c, nd, len, room);
	struct sk_buff *frag;

	KUNIT_ASSERT_LT(c->test, skb_tailroom(skb), len - NOISE_TRANSPORT_MIN_LEN);

	dp_inner_header((struct iphdr *)(skb_tail_pointer(skb) +
					 sizeof(struct noise_msg_transport)), decoy_src);
	frag = alloc_skb(len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(c->test, frag);
	skb_put_data(frag, msg, len);
	skb_shinfo(skb)->frag_list = frag;
	skb->len += len;
	skb->data_len += len;
	skb->truesize += frag->truesize;
	skb_pull(skb, sizeof(struct iphdr));
	KUNIT_ASSERT_TRUE(c->test, skb_has_frag_list(skb));
	noise_receive_test(nd, skb);
}

static bool dp_has_kp(struct noise_peer *peer)
{
	return rcu_access_pointer(peer->keypairs.current_kp) ||
	       rcu_access_pointer(peer->keypairs.next_kp);
}

/* Forward everything both send until A has a session and B a keypair. */
static void dp_handshake(struct dp_ctx *c)
{
	unsigned int tries;
	struct dp_rec *r;

	noise_peer_want_handshake(c->pa);
	for (tries = 0; tries < 600; tries++) {
		dp_flush(c);
		while ((r = dp_pop(c))) {
			dp_inject(c, r->nd == c->a ? c->b : c->a, r->data, r->len);
			kfree(r);
		}
		if (rcu_access_pointer(c->pa->keypairs.current_kp) && dp_has_kp(c->pb))
			break;
		usleep_range(5000, 10000);
	}
	dp_flush(c);
	dp_drain(c);
	KUNIT_ASSERT_NOT_NULL(c->test, rcu_access_pointer(c->pa->keypairs.current_kp));
	KUNIT_ASSERT_TRUE(c->test, dp_has_kp(c->pb));
}

/* The next transport message A sent (to B), or NULL. */
static struct dp_rec *dp_next_transport(struct dp_ctx *c)
{
	struct dp_rec *r;

	dp_flush(c);
	while ((r = dp_pop(c))) {
		if (r->nd == c->a && r->len >= NOISE_TRANSPORT_MIN_LEN &&
		    r->data[0] == NOISE_MSG_TRANSPORT)
			return r;
		kfree(r);
	}
	return NULL;
}

/* A sends an inner packet from @saddr to B; the transport message. */
static struct dp_rec *dp_send_inner(struct dp_ctx *c, u32 saddr)
{
	struct net_device *dev = c->a->dev;
	struct sk_buff *skb;

	skb = alloc_skb(NOISE_SKB_HEADROOM + DP_INNER_LEN + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(c->test, skb);
	skb_reserve(skb, NOISE_SKB_HEADROOM);
	skb_reset_network_header(skb);
	dp_inner_header(skb_put_zero(skb, DP_INNER_LEN), saddr);
	skb->protocol = htons(ETH_P_IP);
	skb->dev = dev;
	local_bh_disable();
	dev->netdev_ops->ndo_start_xmit(skb, dev);
	local_bh_enable();
	return dp_next_transport(c);
}

static int dp_device(struct dp_ctx *c, const char *name, struct noise_device **nd,
		     u8 *pub)
{
	u8 priv[NOISE_MAX_DHLEN];
	int err;

	*nd = noise_device_create_test(name);
	if (IS_ERR(*nd)) {
		err = PTR_ERR(*nd);
		*nd = NULL;
		return err;
	}
	err = noise_dh_generate(NOISE_DH_25519, priv, pub);
	if (err)
		return err;
	mutex_lock(&(*nd)->conf_lock);
	err = noise_device_set_protocol(*nd, DP_PROTO, NULL);
	if (!err)
		err = noise_device_set_private_key(*nd, priv);
	mutex_unlock(&(*nd)->conf_lock);
	memzero_explicit(priv, sizeof(priv));
	return err;
}

static void dp_cleanup(void *data)
{
	struct dp_ctx *c = data;

	noise_socket_set_test_tap(NULL);
	WRITE_ONCE(dp_cur, NULL);
	if (c->a)
		noise_device_destroy_test(c->a);
	if (c->b)
		noise_device_destroy_test(c->b);
	dp_drain(c);
	kfree(c);
}

static struct noise_peer *dp_peer(struct dp_ctx *c, struct noise_device *nd,
				  const u8 *pub, u16 port, u32 allowed)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct noise_peer *peer;
	__be32 addr = htonl(allowed);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons(port);
	mutex_lock(&nd->conf_lock);
	peer = noise_peer_create(nd, pub);
	KUNIT_ASSERT_FALSE(c->test, IS_ERR(peer));
	KUNIT_ASSERT_EQ(c->test, noise_allowedips_insert(&nd->aips, AF_INET, &addr, 32,
							 peer, &peer->allowedips, NULL), 0);
	mutex_unlock(&nd->conf_lock);
	KUNIT_ASSERT_EQ(c->test, noise_peer_set_endpoint(peer, (struct sockaddr *)&sa,
							 sizeof(sa)), 0);
	return peer;
}

/* A and B with a session; A routes DP_IN_B to B, B allows DP_IN_A from A. */
static struct dp_ctx *dp_setup(struct kunit *test)
{
	u8 pub_a[NOISE_MAX_DHLEN], pub_b[NOISE_MAX_DHLEN];
	struct dp_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->out);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dp_cleanup, c), 0);
	WRITE_ONCE(dp_cur, c);
	noise_socket_set_test_tap(dp_tap);
	KUNIT_ASSERT_EQ(test, dp_device(c, "ndpa%d", &c->a, pub_a), 0);
	KUNIT_ASSERT_EQ(test, dp_device(c, "ndpb%d", &c->b, pub_b), 0);
	c->pa = dp_peer(c, c->a, pub_b, DP_PORT_B, DP_IN_B);
	c->pb = dp_peer(c, c->b, pub_a, DP_PORT_A, DP_IN_A);
	dp_handshake(c);
	return c;
}

/* Feed @r to B (frag_list, decoy @decoy); rx_packets and drop_source grew by. */
static void dp_feed_frag(struct dp_ctx *c, struct dp_rec *r, u32 decoy, u64 *rx,
			 u64 *src)
{
	struct noise_stats before, after;

	dp_flush(c);
	noise_stats_read(c->b, NULL, &before);
	if (decoy)
		dp_inject_frag(c, c->b, r->data, r->len, decoy);
	else
		dp_inject(c, c->b, r->data, r->len);
	dp_flush(c);
	noise_stats_read(c->b, NULL, &after);
	*rx = after.rx_packets - before.rx_packets;
	*src = after.drops[NOISE_DROP_SOURCE] - before.drops[NOISE_DROP_SOURCE];
}

static void dp_rx_frag_list(struct kunit *test)
{
	struct dp_ctx *c = dp_setup(test);
	struct dp_rec *ok, *bad, *plain;
	u64 rx, src;

	ok = dp_send_inner(c, DP_IN_A);
	bad = dp_send_inner(c, DP_IN_OTHER);
	plain = dp_send_inner(c, DP_IN_A);
	KUNIT_ASSERT_NOT_NULL(test, ok);
	KUNIT_ASSERT_NOT_NULL(test, bad);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_ASSERT_GT(test, ok->len, (unsigned int)DP_INNER_LEN);

	/* Control: the same kind of message, all in the head. */
	dp_feed_frag(c, plain, 0, &rx, &src);
	KUNIT_EXPECT_EQ_MSG(test, rx, 1ULL, "a linear message from A's address");
	KUNIT_EXPECT_EQ(test, src, 0ULL);

	/* From A's address, the decoy says 10.77.0.9: delivered. */
	dp_feed_frag(c, ok, DP_IN_OTHER, &rx, &src);
	KUNIT_EXPECT_EQ_MSG(test, rx, 1ULL,
			    "frag_list message from A's address not delivered");
	KUNIT_EXPECT_EQ_MSG(test, src, 0ULL,
			    "the source check read the decoy header, not the packet");

	/* From 10.77.0.9, the decoy says A's address: dropped by source. */
	dp_feed_frag(c, bad, DP_IN_A, &rx, &src);
	KUNIT_EXPECT_EQ_MSG(test, rx, 0ULL,
			    "frag_list message from a source B does not allow delivered");
	KUNIT_EXPECT_EQ(test, src, 1ULL);
	kfree(ok);
	kfree(bad);
	kfree(plain);
}

static int dp_fake_init(struct crypto_aead *tfm)
{
	struct dp_fake_ctx *ctx = crypto_aead_ctx(tfm);
	struct crypto_aead *child;

	/* Synchronous only: not this driver. */
	child = crypto_alloc_aead(DP_AEAD_NAME, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(child))
		return PTR_ERR(child);
	ctx->child = child;
	crypto_aead_set_reqsize(tfm, sizeof(struct dp_fake_req) +
				crypto_aead_reqsize(child));
	return 0;
}

static void dp_fake_exit(struct crypto_aead *tfm)
{
	struct dp_fake_ctx *ctx = crypto_aead_ctx(tfm);

	crypto_free_aead(ctx->child);
}

static int dp_fake_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int len)
{
	struct dp_fake_ctx *ctx = crypto_aead_ctx(tfm);

	return crypto_aead_setkey(ctx->child, key, len);
}

static int dp_fake_setauthsize(struct crypto_aead *tfm, unsigned int size)
{
	struct dp_fake_ctx *ctx = crypto_aead_ctx(tfm);

	return crypto_aead_setauthsize(ctx->child, size);
}

static int dp_fake_queue(struct aead_request *req, bool enc)
{
	unsigned long delay;
	int err = -EINPROGRESS;

	spin_lock_bh(&dp_fake.lock);
	delay = dp_fake.hold;
	if (dp_fake.n < DP_MAX_REQS) {
		dp_fake.e[dp_fake.n].req = req;
		dp_fake.e[dp_fake.n].enc = enc;
		dp_fake.e[dp_fake.n].at = jiffies + delay;
		dp_fake.n++;
		atomic_inc(&dp_fake.submitted);
	} else {
		err = -ENOSPC;	/* not -EBUSY: that would mean backlogged */
	}
	spin_unlock_bh(&dp_fake.lock);
	if (err == -EINPROGRESS && !delay)
		mod_delayed_work(system_wq, &dp_fake.work, 0);
	else if (err == -EINPROGRESS)
		queue_delayed_work(system_wq, &dp_fake.work, delay);
	return err;
}

static int dp_fake_encrypt(struct aead_request *req)
{
	return dp_fake_queue(req, true);
}

static int dp_fake_decrypt(struct aead_request *req)
{
	return dp_fake_queue(req, false);
}

/* Run one request on the synchronous child and complete it. */
static void dp_fake_run(struct aead_request *req, bool enc)
{
	struct dp_fake_ctx *ctx = crypto_aead_ctx(crypto_aead_reqtfm(req));
	struct dp_fake_req *rctx = aead_request_ctx(req);
	struct aead_request *sub = &rctx->sub;
	int err;

	aead_request_set_tfm(sub, ctx->child);
	aead_request_set_callback(sub, 0, NULL, NULL);
	aead_request_set_crypt(sub, req->src, req->dst, req->cryptlen, req->iv);
	aead_request_set_ad(sub, req->assoclen);
	err = enc ? crypto_aead_encrypt(sub) : crypto_aead_decrypt(sub);
	local_bh_disable();
	aead_request_complete(req, err);
	local_bh_enable();
}

/* Take the first entry that is due; else 0 and *next when one is left. */
static bool dp_fake_take(struct dp_fake_entry *out, unsigned long *next, bool *left)
{
	unsigned int i;

	*left = false;
	spin_lock_bh(&dp_fake.lock);
	for (i = 0; i < dp_fake.n; i++) {
		if (time_before(jiffies, dp_fake.e[i].at)) {
			if (!*left || time_before(dp_fake.e[i].at, *next))
				*next = dp_fake.e[i].at;
			*left = true;
			continue;
		}
		*out = dp_fake.e[i];
		memmove(&dp_fake.e[i], &dp_fake.e[i + 1],
			(dp_fake.n - i - 1) * sizeof(dp_fake.e[0]));
		dp_fake.n--;
		spin_unlock_bh(&dp_fake.lock);
		return true;
	}
	spin_unlock_bh(&dp_fake.lock);
	return false;
}

static void dp_fake_work(struct work_struct *work)
{
	struct dp_fake_entry e;
	unsigned long next = 0;
	bool left;

	while (dp_fake_take(&e, &next, &left)) {
		dp_fake_run(e.req, e.enc);
		atomic_inc(&dp_fake.completed);
		wake_up(&dp_fake.idle);
	}
	if (left)
		queue_delayed_work(system_wq, &dp_fake.work,
				   time_after(next, jiffies) ? next - jiffies : 0);
}

static void dp_fake_flush(void)
{
	flush_delayed_work(&dp_fake.work);
}

static struct aead_alg dp_fake_alg = {
	.init		= dp_fake_init,
	.exit		= dp_fake_exit,
	.setkey		= dp_fake_setkey,
	.setauthsize	= dp_fake_setauthsize,
	.encrypt	= dp_fake_encrypt,
	.decrypt	= dp_fake_decrypt,
	.ivsize		= 12,
	.maxauthsize	= 16,
	.base = {
		.cra_name		= DP_AEAD_NAME,
		.cra_driver_name	= DP_AEAD_DRIVER,
		.cra_priority		= 30000,
		.cra_flags		= CRYPTO_ALG_ASYNC,
		.cra_blocksize		= 1,
		.cra_ctxsize		= sizeof(struct dp_fake_ctx),
		.cra_module		= THIS_MODULE,
	},
};

static void dp_fake_unregister(void *data)
{
	/* Keypairs and their transforms go by RCU. */
	rcu_barrier();
	wait_event_timeout(dp_fake.idle, !dp_fake_in_flight(), 30 * HZ);
	cancel_delayed_work_sync(&dp_fake.work);
	/* Retired cipher states keep their transforms, on this driver too. */
	noise_cipher_pool_drain();
	crypto_unregister_aead(&dp_fake_alg);
	WRITE_ONCE(dp_fake_on, false);
}

/* Register the test AEAD; the engine must pick it for ChaChaPoly. */
static void dp_fake_register(struct kunit *test)
{
	u8 key[NOISE_KEY_LEN] = { 1 };
	struct noise_cipher *ci;

	spin_lock_init(&dp_fake.lock);
	init_waitqueue_head(&dp_fake.idle);
	INIT_DELAYED_WORK(&dp_fake.work, dp_fake_work);
	dp_fake.n = 0;
	dp_fake.hold = 0;
	atomic_set(&dp_fake.submitted, 0);
	atomic_set(&dp_fake.completed, 0);
	KUNIT_ASSERT_EQ(test, crypto_register_aead(&dp_fake_alg), 0);
	WRITE_ONCE(dp_fake_on, true);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dp_fake_unregister, NULL), 0);
	/* A retired state would keep the driver it was made with. */
	noise_cipher_pool_drain();
	/* Also makes the per-CPU requests of devices made next big enough. */
	ci = noise_cipher_new(NOISE_CIPHER_CHACHAPOLY, key, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ci));
	KUNIT_EXPECT_STREQ(test, noise_cipher_driver_name(ci), DP_AEAD_DRIVER);
	noise_cipher_free(ci);
}

static void dp_async_teardown(struct kunit *test)
{
	struct dp_ctx *c;
	struct dp_rec *r;
	unsigned int left;

	dp_fake_register(test);
	c = dp_setup(test);
	KUNIT_ASSERT_GT(test, atomic_read(&dp_fake.completed), 0);
	r = dp_send_inner(c, DP_IN_A);
	KUNIT_ASSERT_NOT_NULL(test, r);

	WRITE_ONCE(dp_fake.hold, DP_HOLD);
	dp_inject(c, c->b, r->data, r->len);
	kfree(r);
	KUNIT_ASSERT_EQ_MSG(test, dp_fake_in_flight(), 1U,
			    "B's decryption is not in flight in the test AEAD");
	noise_device_destroy_test(c->b);
	c->b = NULL;
	left = dp_fake_in_flight();
	WRITE_ONCE(dp_fake.hold, 0);
	KUNIT_EXPECT_EQ_MSG(test, left, 0U,
			    "the device was freed with %u request(s) in flight", left);
	/* Let a late completion run now, under KASAN, not after the test. */
	KUNIT_EXPECT_TRUE(test, wait_event_timeout(dp_fake.idle, !dp_fake_in_flight(),
						   30 * HZ));
}

static struct kunit_case dp_cases[] = {
	KUNIT_CASE(dp_rx_frag_list),
	KUNIT_CASE(dp_async_teardown),
	{}
};

struct kunit_suite dp_suite = {
	.name = "noise_dp",
	.test_cases = dp_cases,
};
