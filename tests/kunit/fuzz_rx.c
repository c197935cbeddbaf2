// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: hostile input to the tunnel's receive path. Two test devices, A
 * (initiator) and B, make a real handshake through a tap on their send
 * path (noise_socket_set_test_tap()): what one sends is handed to the
 * other's receive path as the UDP socket would (noise_receive_test()).
 * The captured handshake messages (every message number) and transport
 * messages (keepalives A sent on the session) are then the material of a
 * flood into B: random bytes, valid headers with corrupted fields,
 * truncated and extended messages, every type at every wrong length,
 * bad types and versions, replays, unknown receiver indices, later
 * handshake messages naming no handshake, malformed UDP lengths.
 *
 * Every packet fed has a reason it must be dropped for, computed from the
 * packet alone (fz_expect()); packets whose fate depends on more (a
 * replayed XX message 1 starts a new handshake) are not fed. Every 1024
 * packets the handshake and crypt workqueues are flushed and B's drop
 * counters must have grown by exactly the expected count per reason.
 *
 *   insmod kmod/noise/noise.ko; insmod tests/kunit/noise_fuzz_kunit.ko [seed=N]
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/ip.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include "compat.h"
#include "tunnel/device.h"
#include "tunnel/identity.h"
#include "tunnel/stats.h"
#include "tunnel/messages.h"
#include "tunnel/peer.h"
#include "tunnel/peer_conf.h"
#include "tunnel/proto.h"
#include "tunnel/send.h"
#include "tunnel/hs_glue.h"
#include "fuzz_test.h"

MODULE_IMPORT_NS(NOISE_INTERNAL);

static unsigned long long seed;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "the fuzzers' seed (0: a random one, printed)");

static unsigned int packets = 50000;
module_param(packets, uint, 0444);
MODULE_PARM_DESC(packets, "malformed packets fed per protocol");

u64 fz_seed(void)
{
	static u64 chosen;

	if (seed)
		return seed;
	if (!chosen)
		chosen = get_random_u64() | 1;
	return chosen;
}

#define FZ_MAX_MSG	1600
#define FZ_POOL		512		/* keepalives captured from A */
#define FZ_MAX_IDX	64
#define FZ_BATCH	1024
#define FZ_PORT_A	51820
#define FZ_PORT_B	51821
#define FZ_UNDET	(NOISE_DROP_COUNT + 1)	/* fate not known: not fed */
#define FZ_NONE		NOISE_DROP_COUNT	/* valid: not dropped */

enum fz_class {
	FZ_RANDOM, FZ_CORRUPT, FZ_TRUNC, FZ_WRONG_LEN, FZ_BAD_TYPE, FZ_REPLAY,
	FZ_UNKNOWN_IDX, FZ_OUT_OF_ORDER, FZ_BAD_UDP, FZ_CLASSES
};

static const char * const fz_class_name[FZ_CLASSES] = {
	"random", "corrupt-field", "truncated-extended", "wrong-length",
	"bad-type-version", "replay", "unknown-index", "out-of-order",
	"bad-udp-length",
};

static const char * const fz_drop_name[NOISE_DROP_COUNT] = {
	"bad_type", "bad_length", "unknown_index", "auth", "replay", "source",
	"no_peer", "handshake", "no_key", "inner", "mac1", "cookie",
	"ratelimit", "hs_queue", "loop",
};

static_assert(ARRAY_SIZE(fz_drop_name) == NOISE_DROP_COUNT);

struct fz_rec {
	struct list_head node;
	struct noise_device *nd;
	unsigned int len;
	u8 data[];
};

struct fz_rx {
	struct kunit *test;
	struct noise_device *a, *b;
	struct noise_peer *pa, *pb;	/* A's peer (B), B's peer (A) */
	struct noise_tunnel_proto proto;
	spinlock_t lock;		/* out, b_idx */
	struct list_head out;		/* captured by the tap */
	__le32 b_idx[FZ_MAX_IDX];	/* B's own indices seen on the wire */
	unsigned int n_b_idx;
	u8 hs[NOISE_MAX_MESSAGES + 1][NOISE_MAX_HS_MSG_LEN];
	unsigned int hs_len[NOISE_MAX_MESSAGES + 1];
	u8 pool[FZ_POOL][64];
	unsigned int pool_len[FZ_POOL];
	u64 pool_ctr[FZ_POOL];
	unsigned int n_pool, next_fresh;
	unsigned int delivered[FZ_POOL];	/* pool indices given to B */
	unsigned int n_delivered;
	u64 base[NOISE_DROP_COUNT], expect[NOISE_DROP_COUNT];
	u64 fed[FZ_CLASSES], skipped, valid, hs_replays;
	unsigned int sweep;
	struct rnd_state rng;
	u8 buf[FZ_MAX_MSG];
};

static struct fz_rx *fz_cur;

static void fz_tap(struct noise_device *nd, struct sk_buff *skb)
{
	struct fz_rx *c = READ_ONCE(fz_cur);
	struct fz_rec *r;

	if (!c || (nd != c->a && nd != c->b) || skb->len > FZ_MAX_MSG)
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
	if (nd == c->b && r->len >= sizeof(struct noise_msg_handshake) &&
	    r->data[0] == NOISE_MSG_HANDSHAKE && c->n_b_idx < FZ_MAX_IDX)
		memcpy(&c->b_idx[c->n_b_idx++], r->data + 4, sizeof(__le32));
	list_add_tail(&r->node, &c->out);
	spin_unlock_bh(&c->lock);
out:
	consume_skb(skb);
}

static struct fz_rec *fz_pop(struct fz_rx *c)
{
	struct fz_rec *r;

	spin_lock_bh(&c->lock);
	r = list_first_entry_or_null(&c->out, struct fz_rec, node);
	if (r)
		list_del(&r->node);
	spin_unlock_bh(&c->lock);
	return r;
}

static void fz_drain(struct fz_rx *c)
{
	struct fz_rec *r;

	while ((r = fz_pop(c)))
		kfree(r);
}

static bool fz_b_index(struct fz_rx *c, __le32 idx)
{
	bool found = false;
	unsigned int i;

	spin_lock_bh(&c->lock);
	for (i = 0; i < c->n_b_idx; i++)
		found |= c->b_idx[i] == idx;
	spin_unlock_bh(&c->lock);
	return found;
}

/* A datagram to @nd from the other device, UDP length off by @udp_delta. */
static void fz_inject(struct fz_rx *c, struct noise_device *nd, const u8 *msg,
		      unsigned int len, int udp_delta)
{
	struct sk_buff *skb;
	struct iphdr *ip;
	struct udphdr *udp;

	skb = alloc_skb(NET_SKB_PAD + sizeof(*ip) + sizeof(*udp) + len, GFP_KERNEL);
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
	udp->source = htons(nd == c->b ? FZ_PORT_A : FZ_PORT_B);
	udp->dest = htons(nd == c->b ? FZ_PORT_B : FZ_PORT_A);
	udp->len = htons((u16)(sizeof(*udp) + len + udp_delta));
	skb_put_data(skb, msg, len);
	skb->protocol = htons(ETH_P_IP);
	skb_pull(skb, sizeof(*ip));
	noise_receive_test(nd, skb);
}

static bool fz_has_kp(struct noise_peer *peer)
{
	return rcu_access_pointer(peer->keypairs.current_kp) ||
	       rcu_access_pointer(peer->keypairs.next_kp);
}

static void fz_flush(struct fz_rx *c)
{
	flush_workqueue(c->a->hs_wq);
	flush_workqueue(c->a->wq);
	flush_workqueue(c->b->hs_wq);
	flush_workqueue(c->b->wq);
	/* the deliveries of the per-CPU workers run from the crypt wq too */
	flush_workqueue(c->b->wq);
}

static u64 fz_ctr(const u8 *msg)
{
	return le64_to_cpu(((const struct noise_msg_transport *)msg)->counter);
}

/* Forward what the devices send until both have a session. */
static void fz_handshake(struct fz_rx *c)
{
	unsigned int tries, msgno, n = c->proto.info.num_msgs;
	struct fz_rec *r;
	bool all;

	noise_peer_want_handshake(c->pa);
	for (tries = 0; tries < 600; tries++) {
		fz_flush(c);
		while ((r = fz_pop(c))) {
			if (r->len >= sizeof(struct noise_msg_handshake) &&
			    r->data[0] == NOISE_MSG_HANDSHAKE) {
				msgno = r->data[2];
				if (msgno >= 1 && msgno <= n && !c->hs_len[msgno] &&
				    r->len <= NOISE_MAX_HS_MSG_LEN) {
					memcpy(c->hs[msgno], r->data, r->len);
					c->hs_len[msgno] = r->len;
				}
				fz_inject(c, r->nd == c->a ? c->b : c->a, r->data, r->len, 0);
			} else if (r->nd == c->a && r->data[0] == NOISE_MSG_TRANSPORT &&
				   r->len <= sizeof(c->pool[0]) && c->n_pool < FZ_POOL) {
				/* kept for later: B has not seen it */
				memcpy(c->pool[c->n_pool], r->data, r->len);
				c->pool_len[c->n_pool] = r->len;
				c->pool_ctr[c->n_pool++] = fz_ctr(r->data);
			}
			kfree(r);
		}
		all = fz_has_kp(c->pa) && fz_has_kp(c->pb);
		for (msgno = 1; msgno <= n; msgno++)
			all &= c->hs_len[msgno] != 0;
		if (all)
			return;
		usleep_range(5000, 10000);
	}
}

/* Keepalives A sends on its session: the transport material. */
static void fz_collect_transport(struct fz_rx *c)
{
	struct fz_rec *r;
	unsigned int i;

	/*
	 * The writer of the final message (A in XX) waits for a packet on
	 * the session before it sends on it: B's keepalive, given to A.
	 */
	for (i = 0; i < 100 && !rcu_access_pointer(c->pa->keypairs.current_kp); i++) {
		local_bh_disable();
		noise_send_keepalive(c->pb);
		local_bh_enable();
		fz_flush(c);
		while ((r = fz_pop(c))) {
			if (r->nd == c->b && r->data[0] == NOISE_MSG_TRANSPORT)
				fz_inject(c, c->a, r->data, r->len, 0);
			kfree(r);
		}
		fz_flush(c);
	}
	fz_drain(c);
	for (i = 0; i < FZ_POOL && c->n_pool < FZ_POOL; i++) {
		local_bh_disable();
		noise_send_keepalive(c->pa);
		local_bh_enable();
		if (i % 32 != 31)
			continue;
		fz_flush(c);
		while ((r = fz_pop(c))) {
			if (r->nd == c->a && r->data[0] == NOISE_MSG_TRANSPORT &&
			    r->len <= sizeof(c->pool[0]) && c->n_pool < FZ_POOL) {
				memcpy(c->pool[c->n_pool], r->data, r->len);
				c->pool_len[c->n_pool] = r->len;
				c->pool_ctr[c->n_pool++] = fz_ctr(r->data);
			}
			kfree(r);
		}
	}
}

static bool fz_was_delivered(struct fz_rx *c, u64 ctr)
{
	unsigned int i;

	for (i = 0; i < c->n_delivered; i++)
		if (c->pool_ctr[c->delivered[i]] == ctr)
			return true;
	return false;
}

/* Is @msg exactly one of the transport messages A sent? */
static bool fz_is_pool(struct fz_rx *c, const u8 *msg, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < c->n_pool; i++)
		if (c->pool_len[i] == len && !memcmp(c->pool[i], msg, len))
			return true;
	return false;
}

/* Is @msg (@len) A's odd handshake message @msgno up to its MAC1? */
static bool fz_is_original(struct fz_rx *c, const u8 *msg, unsigned int len,
			   unsigned int msgno)
{
	return c->hs_len[msgno] == len &&
	       !memcmp(c->hs[msgno], msg, len - NOISE_MAC_LEN);
}

/*
 * Why B must drop @msg, from the packet alone (the documented checks in
 * their order: receive.c, hs_glue.c), FZ_NONE if it is valid, FZ_UNDET if its
 * fate depends on more than that.
 */
static unsigned int fz_expect(struct fz_rx *c, const u8 *msg, unsigned int len)
{
	const struct noise_tunnel_proto *p = &c->proto;
	unsigned int msgno;
	__le32 idx;
	u64 ctr;

	if (len < sizeof(struct noise_msg_header))
		return NOISE_DROP_BAD_LENGTH;
	if (msg[1] != NOISE_WIRE_VERSION)
		return NOISE_DROP_BAD_TYPE;
	switch (msg[0]) {
	case NOISE_MSG_HANDSHAKE:
		msgno = msg[2];
		if (msgno < 1 || msgno > p->info.num_msgs)
			return NOISE_DROP_BAD_TYPE;
		if (len != p->msg_len[msgno])
			return NOISE_DROP_BAD_LENGTH;
		if (msgno & 1) {
			/* MAC1 keyed by B's key covers all before it */
			if (!fz_is_original(c, msg, len, msgno))
				return NOISE_DROP_MAC1;
			/* a replayed message 1 of IK: its timestamp is old */
			if (msgno == 1 && p->info.num_msgs == 2 &&
			    !memcmp(c->hs[1], msg, len))
				return NOISE_DROP_HANDSHAKE;
			return FZ_UNDET;
		}
		memcpy(&idx, msg + 8, sizeof(idx));
		return fz_b_index(c, idx) ? FZ_UNDET : NOISE_DROP_UNKNOWN_INDEX;
	case NOISE_MSG_COOKIE_REPLY:
		if (len != sizeof(struct noise_msg_cookie_reply))
			return NOISE_DROP_BAD_LENGTH;
		memcpy(&idx, msg + 4, sizeof(idx));
		return fz_b_index(c, idx) ? FZ_UNDET : NOISE_DROP_UNKNOWN_INDEX;
	case NOISE_MSG_TRANSPORT:
		if (len < NOISE_TRANSPORT_MIN_LEN)
			return NOISE_DROP_BAD_LENGTH;
		memcpy(&idx, msg + 4, sizeof(idx));
		if (!fz_b_index(c, idx))
			return NOISE_DROP_UNKNOWN_INDEX;
		ctr = fz_ctr(msg);
		if (ctr >= NOISE_REJECT_AFTER_MESSAGES || fz_was_delivered(c, ctr))
			return NOISE_DROP_REPLAY;
		if (fz_is_pool(c, msg, len))
			return FZ_UNDET;	/* a real one B has not seen: valid */
		/* a counter B has not accepted: the tag decides */
		return NOISE_DROP_AUTH;
	default:
		return NOISE_DROP_BAD_TYPE;
	}
}

static void fz_random_bytes(struct fz_rx *c, u8 *p, unsigned int len)
{
	prandom_bytes_state(&c->rng, p, len);
}

/* A real message into c->buf: handshake @msgno (0: a transport one). */
static unsigned int fz_real(struct fz_rx *c, unsigned int msgno)
{
	unsigned int i;

	if (msgno) {
		memcpy(c->buf, c->hs[msgno], c->hs_len[msgno]);
		return c->hs_len[msgno];
	}
	i = fz_below(&c->rng, c->n_pool);
	memcpy(c->buf, c->pool[i], c->pool_len[i]);
	return c->pool_len[i];
}

static unsigned int fz_any_real(struct fz_rx *c)
{
	return fz_real(c, fz_below(&c->rng, c->proto.info.num_msgs + 1));
}

static void fz_random_index(struct fz_rx *c, u8 *at)
{
	__le32 idx;

	do {
		idx = cpu_to_le32(prandom_u32_state(&c->rng));
	} while (fz_b_index(c, idx));
	memcpy(at, &idx, sizeof(idx));
}

/* One packet of class @cls into c->buf; its length, *udp_delta set. */
static unsigned int fz_make(struct fz_rx *c, enum fz_class cls, int *udp_delta)
{
	unsigned int n = c->proto.info.num_msgs, len, i, k, m, lo, hi;
	struct rnd_state *r = &c->rng;

	*udp_delta = 0;
	switch (cls) {
	case FZ_RANDOM:
		len = fz_below(r, 1500);
		fz_random_bytes(c, c->buf, len);
		if (len >= 4 && fz_below(r, 2)) {	/* plausible header */
			c->buf[0] = 1 + fz_below(r, 3);
			c->buf[1] = NOISE_WIRE_VERSION;
			c->buf[2] = fz_below(r, n + 2);
		}
		return len;
	case FZ_CORRUPT:
		m = fz_below(r, n + 1);
		len = fz_real(c, m);
		k = 1 + fz_below(r, 4);
		for (i = 0; i < k; i++) {
			if (!m) {		/* transport: all is authenticated */
				lo = 2;
				hi = len;
			} else if (m & 1) {	/* all MAC1 covers, and MAC1 */
				lo = 4;
				hi = len - NOISE_MAC_LEN;
			} else {		/* even: the receiver index */
				lo = 8;
				hi = 12;
			}
			c->buf[lo + fz_below(r, hi - lo)] ^= 1 + fz_below(r, 255);
		}
		return len;
	case FZ_TRUNC:
		len = fz_any_real(c);
		if (fz_below(r, 2) || len >= FZ_MAX_MSG - 1) {
			k = fz_below(r, len);
		} else {
			k = len + 1 + fz_below(r, min(200U, FZ_MAX_MSG - len - 1));
			fz_random_bytes(c, c->buf + len, k - len);
		}
		return k;
	case FZ_WRONG_LEN:
		/* a sweep: each type (message number) at lengths 0..599 */
		m = c->sweep / 600 % (n + 2);
		k = c->sweep % 600;
		c->sweep++;
		if (m == n + 1) {	/* cookie reply */
			fz_random_bytes(c, c->buf, k);
			if (k >= 4) {
				c->buf[0] = NOISE_MSG_COOKIE_REPLY;
				c->buf[1] = NOISE_WIRE_VERSION;
			}
			if (k == sizeof(struct noise_msg_cookie_reply))
				k++;
			return k;
		}
		len = fz_real(c, m);
		if (k == len)
			k++;
		if (k > len)
			fz_random_bytes(c, c->buf + len, k - len);
		return k;
	case FZ_BAD_TYPE:
		len = 4 + fz_below(r, 600);
		fz_random_bytes(c, c->buf, len);
		switch (fz_below(r, 3)) {
		case 0:
			c->buf[0] = (4 + fz_below(r, 253)) & 0xff;	/* or 0 */
			break;
		case 1:
			c->buf[0] = 1 + fz_below(r, 3);
			c->buf[1] = NOISE_WIRE_VERSION + 1 + fz_below(r, 255);
			break;
		default:
			c->buf[0] = NOISE_MSG_HANDSHAKE;
			c->buf[1] = NOISE_WIRE_VERSION;
			c->buf[2] = fz_below(r, 2) ? 0 : n + 1 + fz_below(r, 255 - n);
			break;
		}
		return len;
	case FZ_REPLAY:
		/* mostly a transport message B accepted; else a handshake one */
		if (!c->n_delivered || fz_below(r, 8) == 0) {
			m = 1 + fz_below(r, n);
			if (m == 1 && c->hs_replays >= 50)
				m = 2;		/* message 1 costs a DH each */
			if (m == 1)
				c->hs_replays++;
			return fz_real(c, m);
		}
		i = c->delivered[fz_below(r, c->n_delivered)];
		memcpy(c->buf, c->pool[i], c->pool_len[i]);
		return c->pool_len[i];
	case FZ_UNKNOWN_IDX:
		switch (fz_below(r, 3)) {
		case 0:
			len = fz_real(c, 0);
			fz_random_index(c, c->buf + 4);
			return len;
		case 1:
			len = sizeof(struct noise_msg_cookie_reply);
			fz_random_bytes(c, c->buf, len);
			c->buf[0] = NOISE_MSG_COOKIE_REPLY;
			c->buf[1] = NOISE_WIRE_VERSION;
			c->buf[2] = 0;
			c->buf[3] = 0;
			fz_random_index(c, c->buf + 4);
			return len;
		default:
			len = fz_real(c, 2);
			fz_random_index(c, c->buf + 8);
			return len;
		}
	case FZ_OUT_OF_ORDER:
		/* a later message naming a handshake B does not have */
		m = 2 + fz_below(r, n - 1);
		len = fz_real(c, m);
		fz_random_index(c, c->buf + 8);
		return len;
	case FZ_BAD_UDP:
		len = fz_any_real(c);
		switch (fz_below(r, 3)) {
		case 0:		/* shorter than the UDP header */
			*udp_delta = -(int)(len + 1 + fz_below(r, 8));
			break;
		case 1:		/* longer than the datagram */
			*udp_delta = 1 + fz_below(r, 100);
			break;
		default:	/* the UDP length cuts the message */
			*udp_delta = -(int)(1 + fz_below(r, len));
			break;
		}
		return len;
	default:
		return 0;
	}
}

static void fz_read_drops(struct noise_device *nd, u64 *out)
{
	struct noise_stats st;

	noise_stats_read(nd, NULL, &st);
	memcpy(out, st.drops, sizeof(st.drops));
}

/* Flush; B's counters must have grown by exactly what was expected. */
static bool fz_check(struct fz_rx *c)
{
	u64 now[NOISE_DROP_COUNT];
	bool ok = true;
	unsigned int i;

	fz_flush(c);
	fz_drain(c);
	fz_read_drops(c->b, now);
	for (i = 0; i < NOISE_DROP_COUNT; i++) {
		if (now[i] - c->base[i] == c->expect[i])
			continue;
		KUNIT_FAIL(c->test, "drop_%s grew by %llu, expected %llu (seed %llu)",
			   fz_drop_name[i], now[i] - c->base[i], c->expect[i], fz_seed());
		ok = false;
	}
	return ok;
}

/* Feed @buf; returns false when it was not fed (fate undetermined). */
static bool fz_feed(struct fz_rx *c, unsigned int len, int udp_delta)
{
	unsigned int why, wire = len;

	if (udp_delta < 0 && -udp_delta > (int)len)
		why = NOISE_DROP_BAD_LENGTH;		/* UDP length < 8 */
	else if (udp_delta > 0)
		why = NOISE_DROP_BAD_LENGTH;		/* beyond the datagram */
	else
		why = fz_expect(c, c->buf, len + udp_delta);
	if (why == FZ_UNDET || why == FZ_NONE)
		return false;
	fz_inject(c, c->b, c->buf, wire, udp_delta);
	c->expect[why]++;
	return true;
}

/* A fresh transport message B must accept (not dropped). */
static void fz_deliver_fresh(struct fz_rx *c)
{
	unsigned int i = c->next_fresh++;

	fz_inject(c, c->b, c->pool[i], c->pool_len[i], 0);
	c->delivered[c->n_delivered++] = i;
	c->valid++;
}

struct fz_proto {
	const char *name;
};

static const struct fz_proto fz_protos[] = {
	{ "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s" },
	{ "Noise_XX_25519_ChaChaPoly_BLAKE2s" },
};

static void fz_proto_desc(const struct fz_proto *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fz_proto, fz_protos, fz_proto_desc);

static int fz_device(struct kunit *test, struct fz_rx *c, const char *name,
		     struct noise_device **nd, u8 *pub)
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
	err = noise_device_set_protocol(*nd, c->proto.name, NULL);
	if (!err)
		err = noise_device_set_private_key(*nd, priv);
	mutex_unlock(&(*nd)->conf_lock);
	memzero_explicit(priv, sizeof(priv));
	return err;
}

static void fz_free(struct fz_rx *c)
{
	noise_socket_set_test_tap(NULL);
	WRITE_ONCE(fz_cur, NULL);
	if (c->a)
		noise_device_destroy_test(c->a);
	if (c->b)
		noise_device_destroy_test(c->b);
	fz_drain(c);
	kvfree(c);
}

static void fz_rx_cleanup(void *data)
{
	fz_free(data);
}

static struct fz_rx *fz_setup(struct kunit *test)
{
	const struct fz_proto *fp = test->param_value;
	u8 pub_a[NOISE_MAX_DHLEN], pub_b[NOISE_MAX_DHLEN];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct fz_rx *c = kvzalloc(sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->out);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fz_rx_cleanup, c), 0);
	KUNIT_ASSERT_EQ(test, noise_tunnel_protocol_parse(fp->name, &c->proto, NULL), 0);
	WRITE_ONCE(fz_cur, c);
	noise_socket_set_test_tap(fz_tap);
	KUNIT_ASSERT_EQ(test, fz_device(test, c, "nfza%d", &c->a, pub_a), 0);
	KUNIT_ASSERT_EQ(test, fz_device(test, c, "nfzb%d", &c->b, pub_b), 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	mutex_lock(&c->a->conf_lock);
	c->pa = noise_peer_create(c->a, pub_b);
	mutex_unlock(&c->a->conf_lock);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->pa));
	mutex_lock(&c->b->conf_lock);
	c->pb = noise_peer_create(c->b, pub_a);
	mutex_unlock(&c->b->conf_lock);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->pb));
	sa.sin_port = htons(FZ_PORT_B);
	KUNIT_ASSERT_EQ(test, noise_peer_set_endpoint(c->pa, (struct sockaddr *)&sa,
						      sizeof(sa)), 0);
	sa.sin_port = htons(FZ_PORT_A);
	KUNIT_ASSERT_EQ(test, noise_peer_set_endpoint(c->pb, (struct sockaddr *)&sa,
						      sizeof(sa)), 0);
	fz_rng_init(&c->rng, 1 + (fp - fz_protos));
	return c;
}

static void fz_rx_flood(struct kunit *test)
{
	/* weights of the classes, out of 100 */
	static const u8 weight[FZ_CLASSES] = { 16, 16, 12, 14, 8, 10, 10, 6, 8 };
	struct fz_rx *c = fz_setup(test);
	u64 t0 = ktime_get_ns(), total = 0, fed = 0, sum = 0;
	unsigned int i, cls, len, n = c->proto.info.num_msgs;
	bool ok = true;
	int udp_delta;

	fz_handshake(c);
	for (i = 1; i <= n; i++)
		KUNIT_ASSERT_NE_MSG(test, c->hs_len[i], 0U, "handshake message %u not seen", i);
	KUNIT_ASSERT_TRUE(test, fz_has_kp(c->pa) && fz_has_kp(c->pb));
	fz_collect_transport(c);
	KUNIT_ASSERT_GE(test, c->n_pool, 64U);
	/* B's own index is known (message 2 named it); A's are not B's */
	KUNIT_ASSERT_GT(test, c->n_b_idx, 0U);

	/* Control: a real transport message is accepted, and confirms B. */
	fz_flush(c);
	fz_drain(c);
	fz_read_drops(c->b, c->base);
	fz_deliver_fresh(c);
	KUNIT_ASSERT_TRUE(test, fz_check(c));
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(c->pb->keypairs.current_kp));

	while (fed < packets) {
		cls = fz_below(&c->rng, 100);
		for (i = 0; cls >= weight[i]; i++)
			cls -= weight[i];
		cls = i;
		/* now and then B accepts a fresh one: the window moves */
		if (cls == FZ_REPLAY && c->next_fresh < c->n_pool && !fz_below(&c->rng, 16))
			fz_deliver_fresh(c);
		len = fz_make(c, cls, &udp_delta);
		if (!fz_feed(c, len, udp_delta)) {
			c->skipped++;
			continue;
		}
		c->fed[cls]++;
		if (++fed % FZ_BATCH == 0 && !fz_check(c)) {
			ok = false;
			break;
		}
	}
	if (ok)
		ok = fz_check(c);
	for (i = 0; i < FZ_CLASSES; i++) {
		kunit_info(test, "fed %-18s %llu\n", fz_class_name[i], c->fed[i]);
		total += c->fed[i];
	}
	for (i = 0; i < NOISE_DROP_COUNT; i++) {
		if (c->expect[i])
			kunit_info(test, "drop_%-13s +%llu expected%s\n", fz_drop_name[i],
				   c->expect[i], ok ? " and counted" : "");
		sum += c->expect[i];
	}
	KUNIT_EXPECT_EQ(test, sum, total);
	kunit_info(test, "%s: %llu malformed packets fed, %s; %llu valid accepted; %llu not fed (fate undetermined); %llu ms; seed %llu\n",
		   c->proto.name, total,
		   ok ? "each counted by its reason" : "COUNTERS DO NOT MATCH",
		   c->valid, c->skipped,
		   div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC), fz_seed());
}

/*
 * The protocol changes while a message 1, checked (type, length, MAC1)
 * against the old protocol, waits in B's handshake queue: the work drops
 * it (drop_hs_queue); it is never parsed with the new protocol's lengths.
 */
static void fz_rx_proto_swap(struct kunit *test)
{
#if NOISE_KERNEL_AT_LEAST(6, 10)
	static const char other[] = "Noise_XX_448_ChaChaPoly_BLAKE2b";
	u64 before[NOISE_DROP_COUNT], after[NOISE_DROP_COUNT];
	u8 priv[NOISE_MAX_DHLEN], pub[NOISE_MAX_DHLEN];
	struct fz_rx *c = fz_setup(test);
	int err;

	fz_handshake(c);
	KUNIT_ASSERT_NE(test, c->hs_len[1], 0U);
	fz_flush(c);
	fz_drain(c);
	disable_work_sync(&c->b->hs_work);
	fz_read_drops(c->b, before);
	fz_inject(c, c->b, c->hs[1], c->hs_len[1], 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&c->b->hs_queue), 1U);
	KUNIT_ASSERT_EQ(test, noise_dh_generate(NOISE_DH_448, priv, pub), 0);
	mutex_lock(&c->b->conf_lock);
	err = noise_device_set_protocol(c->b, other, NULL);
	if (!err)
		err = noise_device_set_private_key(c->b, priv);
	mutex_unlock(&c->b->conf_lock);
	memzero_explicit(priv, sizeof(priv));
	enable_work(&c->b->hs_work);
	KUNIT_ASSERT_EQ(test, err, 0);
	queue_work(c->b->hs_wq, &c->b->hs_work);
	fz_flush(c);
	fz_read_drops(c->b, after);
	KUNIT_EXPECT_EQ(test, after[NOISE_DROP_HS_QUEUE] - before[NOISE_DROP_HS_QUEUE], 1ULL);
	KUNIT_EXPECT_EQ(test, after[NOISE_DROP_HANDSHAKE], before[NOISE_DROP_HANDSHAKE]);
	KUNIT_EXPECT_EQ(test, c->b->num_anon, 0U);
#else
	kunit_skip(test, "needs disable_work_sync() (6.10)");
#endif
}

static int fz_suite_init(struct kunit_suite *suite)
{
	pr_info("noise_fuzz: seed %llu (replay: insmod noise_fuzz_kunit.ko seed=%llu)\n",
		fz_seed(), fz_seed());
	return 0;
}

static struct kunit_case fz_rx_cases[] = {
	KUNIT_CASE_PARAM(fz_rx_flood, fz_proto_gen_params),
	KUNIT_CASE_PARAM(fz_rx_proto_swap, fz_proto_gen_params),
	{}
};

static struct kunit_suite fz_rx_suite = {
	.name = "noise_fuzz_rx",
	.suite_init = fz_suite_init,
	.test_cases = fz_rx_cases,
};

kunit_test_suites(&fz_rx_suite, &fz_nl_suite, &dp_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: hostile packets and netlink requests for the noise tunnel");
