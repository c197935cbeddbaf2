// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: hostile SET_DEVICE requests. Each request is a real netlink
 * message (nlmsghdr, genlmsghdr, attributes) run as genetlink runs the
 * command (noise_nl_set_test(): genetlink's length checks, then the
 * doit, which parses strictly itself). A request is a plausible change
 * of a configured device (its peers, new peers, keys, endpoints, allowed
 * IPs, fwmark, flags), or a random attribute tree, or random bytes, with
 * exactly one defect planted at a random place: an unknown attribute, a
 * wrong length, a duplicate, a read-only attribute, an out-of-range value,
 * a missing nest flag, a truncated or too short attribute, a deep or huge
 * nest, the same peer twice, the device's own key, a wrong device. Every
 * request must be refused with an extack message, and the device's whole
 * GET_DEVICE dump (made by the dumpit: noise_nl_dump_test()) must be the
 * same before and after. A valid request now and then must be accepted
 * and change the dump (so the comparison can fail).
 */

#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <uapi/linux/noise.h>
#include "tunnel/device.h"
#include "fuzz_test.h"

static unsigned int requests = 10000;
module_param(requests, uint, 0444);
MODULE_PARM_DESC(requests, "malformed netlink requests fed");

#define FN_BUF		(192 * 1024)
#define FN_DEPTH	256
#define FN_PEERS	4
/* Attribute 1 of the device and peer sets: reserved, never valid. */
#define FN_RESERVED	1

enum fn_defect {
	/* top level */
	FN_T_UNKNOWN, FN_T_U32_LEN, FN_T_U16_LEN, FN_T_DUP, FN_T_RO, FN_T_FLAGS,
	FN_T_PRIVKEY_LEN, FN_T_PROTO, FN_T_PEER_FLAT, FN_T_TRUNC, FN_T_SHORT,
	FN_T_DEEP, FN_T_HUGE, FN_T_SAME_PEER, FN_T_OWN_KEY, FN_T_DEV,
	/* in a peer */
	FN_P_UNKNOWN, FN_P_KEY_LEN, FN_P_NO_KEY, FN_P_DUP, FN_P_RO, FN_P_FLAGS,
	FN_P_REMOVE_EXTRA, FN_P_PSK, FN_P_ENDPOINT, FN_P_KEEPALIVE_LEN, FN_P_AIP_FLAT,
	/* in an allowed IP */
	FN_A_FAMILY, FN_A_ADDR_LEN, FN_A_CIDR, FN_A_MISSING, FN_A_DUP, FN_A_UNKNOWN,
	FN_A_INT_LEN,
	/* whole requests */
	FN_RANDOM_TREE, FN_GARBAGE,
	FN_DEFECTS
};

static const char * const fn_name[FN_DEFECTS] = {
	"unknown-attr", "u32-length", "u16-length", "duplicate", "read-only",
	"flags-range", "private-key-length", "protocol", "peer-not-nested",
	"truncated-attr", "short-attr", "deep-nest", "huge-nest", "same-peer-twice",
	"own-key-as-peer", "wrong-device",
	"peer-unknown-attr", "peer-key-length", "peer-no-key", "peer-duplicate",
	"peer-read-only", "peer-flags", "remove-with-attrs", "psk-count-length",
	"endpoint", "keepalive-length", "allowedip-not-nested",
	"aip-family", "aip-addr-length", "aip-cidr-range", "aip-missing",
	"aip-duplicate", "aip-unknown-attr", "aip-int-length",
	"random-tree", "random-bytes",
};

struct fn_ctx {
	struct kunit *test;
	struct noise_device *nd;
	struct rnd_state rng;
	u8 *buf;
	unsigned int len;
	unsigned int stack[FN_DEPTH], depth;
	u8 dev_pub[NOISE_KEY_LEN_25519];
	u8 peer_pub[FN_PEERS][NOISE_KEY_LEN_25519];
	enum fn_defect defect;
	unsigned int slot, slots;	/* where the defect goes */
	bool planted;
	void *ref;
	size_t ref_len;
	u64 fed[FN_DEFECTS], refused, accepted_controls;
};

static_assert(ARRAY_SIZE(fn_name) == FN_DEFECTS);

/* The writer: attributes into c->buf (bounded: FN_BUF never overflows). */
static void *fn_put(struct fn_ctx *c, u16 type, const void *data, unsigned int len)
{
	struct nlattr *a = (void *)(c->buf + c->len);

	if (WARN_ON(c->len + nla_total_size(len) > FN_BUF))
		return NULL;
	a->nla_type = type;
	a->nla_len = nla_attr_size(len);
	if (data)
		memcpy(nla_data(a), data, len);
	else
		prandom_bytes_state(&c->rng, nla_data(a), len);
	memset((u8 *)nla_data(a) + len, 0, nla_padlen(len));
	c->len += nla_total_size(len);
	return nla_data(a);
}

static void fn_u32(struct fn_ctx *c, u16 type, u32 v)
{
	fn_put(c, type, &v, sizeof(v));
}

static void fn_u16(struct fn_ctx *c, u16 type, u16 v)
{
	fn_put(c, type, &v, sizeof(v));
}

static void fn_u8(struct fn_ctx *c, u16 type, u8 v)
{
	fn_put(c, type, &v, sizeof(v));
}

static void fn_nest(struct fn_ctx *c, u16 type, bool flag)
{
	fn_put(c, type | (flag ? NLA_F_NESTED : 0), NULL, 0);
	c->stack[c->depth++] = c->len - NLA_HDRLEN;
}

static void fn_end(struct fn_ctx *c)
{
	struct nlattr *a = (void *)(c->buf + c->stack[--c->depth]);

	a->nla_len = c->len - c->stack[c->depth];
}

static u32 fn_below(struct fn_ctx *c, u32 n)
{
	return fz_below(&c->rng, n);
}

/* A place where a defect may go: plant it at the chosen one. */
static bool fn_here(struct fn_ctx *c)
{
	return !c->planted && c->slots++ == c->slot;
}

static bool fn_top(enum fn_defect d)
{
	return d <= FN_T_DEV;
}

static bool fn_in_peer(enum fn_defect d)
{
	return d >= FN_P_UNKNOWN && d <= FN_P_AIP_FLAT;
}

static bool fn_in_aip(enum fn_defect d)
{
	return d >= FN_A_FAMILY && d <= FN_A_INT_LEN;
}

static void fn_aip_body(struct fn_ctx *c, bool bad)
{
	enum fn_defect d = bad ? c->defect : FN_DEFECTS;
	bool v6 = fn_below(c, 2);
	u16 family = v6 ? AF_INET6 : AF_INET;
	unsigned int alen = v6 ? 16 : 4, max = v6 ? 128 : 32;
	u8 cidr = fn_below(c, max + 1);
	unsigned int skip = d == FN_A_MISSING ? fn_below(c, 3) : 3;

	if (d == FN_A_FAMILY)
		family = fn_below(c, 2) ? fn_below(c, AF_INET) : AF_INET6 + 1 + fn_below(c, 100);
	if (d == FN_A_ADDR_LEN) {
		switch (fn_below(c, 3)) {
		case 0:
			alen = v6 ? 4 : 16;
			break;
		case 1:
			alen = 5 + fn_below(c, 11);
			break;
		default:
			alen = fn_below(c, 2) ? fn_below(c, 4) : 17 + fn_below(c, 40);
			break;
		}
	}
	if (d == FN_A_CIDR)
		cidr = max + 1 + fn_below(c, 255 - max);
	if (skip != 0) {
		if (d == FN_A_INT_LEN && fn_below(c, 2))
			fn_put(c, NOISE_A_ALLOWEDIP_FAMILY, NULL,
			       fn_below(c, 2) ? 1 : 3 + fn_below(c, 6));
		else
			fn_u16(c, NOISE_A_ALLOWEDIP_FAMILY, family);
	}
	if (skip != 1)
		fn_put(c, NOISE_A_ALLOWEDIP_ADDR, NULL, alen);
	if (skip != 2) {
		if (d == FN_A_INT_LEN)
			fn_put(c, NOISE_A_ALLOWEDIP_CIDR_MASK, NULL, 2 + fn_below(c, 6));
		else
			fn_u8(c, NOISE_A_ALLOWEDIP_CIDR_MASK, cidr);
	}
	if (d == FN_A_DUP)
		fn_u16(c, NOISE_A_ALLOWEDIP_FAMILY, family);
	if (d == FN_A_UNKNOWN)
		fn_put(c, NOISE_A_ALLOWEDIP_MAX + 1 + fn_below(c, 100), NULL, fn_below(c, 9));
}

static void fn_aip(struct fn_ctx *c)
{
	bool bad = fn_in_aip(c->defect) && fn_here(c);

	if (bad)
		c->planted = true;
	fn_nest(c, NOISE_A_PEER_ALLOWEDIP, true);
	fn_aip_body(c, bad);
	fn_end(c);
}

static void fn_endpoint(struct fn_ctx *c, bool bad)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };

	s6.sin6_port = htons(1 + fn_below(c, 65535));
	s4.sin_port = s6.sin6_port;

	s4.sin_addr.s_addr = htonl(0x0a000000 | fn_below(c, 1 << 24));
	s6.sin6_addr.s6_addr[0] = 0xfd;
	s6.sin6_addr.s6_addr[15] = fn_below(c, 256);
	if (!bad) {
		if (fn_below(c, 2))
			fn_put(c, NOISE_A_PEER_ENDPOINT, &s4, sizeof(s4));
		else
			fn_put(c, NOISE_A_PEER_ENDPOINT, &s6, sizeof(s6));
		return;
	}
	switch (fn_below(c, 4)) {
	case 0:		/* an IPv4 address the size of an IPv6 one */
		memcpy(&s6, &s4, sizeof(s4));
		fn_put(c, NOISE_A_PEER_ENDPOINT, &s6, sizeof(s6));
		break;
	case 1:		/* an IPv6 family in a sockaddr_in */
		s6.sin6_family = AF_INET6;
		fn_put(c, NOISE_A_PEER_ENDPOINT, &s6, sizeof(s4));
		break;
	case 2:		/* neither family */
		s4.sin_family = fn_below(c, 2) ? AF_UNSPEC : AF_INET6 + 1 + fn_below(c, 30);
		fn_put(c, NOISE_A_PEER_ENDPOINT, &s4, sizeof(s4));
		break;
	default:	/* outside the policy's range */
		fn_put(c, NOISE_A_PEER_ENDPOINT, NULL,
		       fn_below(c, 2) ? fn_below(c, sizeof(s4)) : sizeof(s6) + 1 + fn_below(c, 30));
		break;
	}
}

static void fn_peer_defect(struct fn_ctx *c, const u8 *key)
{
	u32 flags;

	switch (c->defect) {
	case FN_P_UNKNOWN:
		fn_put(c, NOISE_A_PEER_MAX + 1 + fn_below(c, 200), NULL, fn_below(c, 20));
		break;
	case FN_P_DUP:
		switch (fn_below(c, 4)) {
		case 0:
			fn_endpoint(c, false);
			fn_endpoint(c, false);
			break;
		case 1:
			fn_u16(c, NOISE_A_PEER_PERSISTENT_KEEPALIVE, 1);
			fn_u16(c, NOISE_A_PEER_PERSISTENT_KEEPALIVE, 2);
			break;
		case 2:
			fn_u32(c, NOISE_A_PEER_FLAGS, 0);
			fn_u32(c, NOISE_A_PEER_FLAGS, 0);
			break;
		default:
			fn_put(c, NOISE_A_PEER_PUBLIC_KEY, key, NOISE_KEY_LEN_25519);
			break;
		}
		break;
	case FN_P_RO:
		switch (fn_below(c, 4)) {
		case 0:
			fn_put(c, NOISE_A_PEER_PSK_ID, NULL, NOISE_PSK_ID_LEN);
			break;
		case 1:
			fn_put(c, NOISE_A_PEER_LAST_HANDSHAKE_TIME, NULL, 8);
			break;
		case 2:
			fn_nest(c, NOISE_A_PEER_STATS, true);
			fn_put(c, NOISE_A_STATS_RX_BYTES, NULL, 8);
			fn_end(c);
			break;
		default:
			fn_put(c, FN_RESERVED, NULL, fn_below(c, 9));
			break;
		}
		break;
	case FN_P_FLAGS:
		if (fn_below(c, 2))
			flags = BIT(4 + fn_below(c, 28)) | fn_below(c, 16);
		else
			flags = NOISE_PEER_FLAG_REMOVE_ME | BIT(1 + fn_below(c, 3));
		fn_u32(c, NOISE_A_PEER_FLAGS, flags);
		break;
	case FN_P_REMOVE_EXTRA:
		fn_u32(c, NOISE_A_PEER_FLAGS, NOISE_PEER_FLAG_REMOVE_ME);
		if (fn_below(c, 2))
			fn_u16(c, NOISE_A_PEER_PERSISTENT_KEEPALIVE, fn_below(c, 100));
		else
			fn_aip(c);
		break;
	case FN_P_PSK:
		if (fn_below(c, 2)) {
			/* not a whole number of keys */
			fn_put(c, NOISE_A_PEER_PRESHARED_KEY, NULL,
			       fn_below(c, 2) ? 1 + fn_below(c, 31) : 33 + fn_below(c, 31));
		} else {
			/* one psk token in the protocol: 2..6 keys are too many */
			fn_put(c, NOISE_A_PEER_PRESHARED_KEY, NULL,
			       (2 + fn_below(c, 5)) * NOISE_PSK_KEY_LEN);
		}
		break;
	case FN_P_ENDPOINT:
		fn_endpoint(c, true);
		break;
	case FN_P_KEEPALIVE_LEN:
		fn_put(c, NOISE_A_PEER_PERSISTENT_KEEPALIVE, NULL,
		       fn_below(c, 2) ? fn_below(c, 2) : 3 + fn_below(c, 8));
		break;
	case FN_P_AIP_FLAT:
		fn_nest(c, NOISE_A_PEER_ALLOWEDIP, false);
		fn_aip_body(c, false);
		fn_end(c);
		break;
	default:
		break;
	}
}

/* A plausible peer; @key NULL: a new random one. */
static void fn_peer(struct fn_ctx *c, const u8 *key, bool flat)
{
	u8 newkey[NOISE_KEY_LEN_25519];
	bool bad = fn_in_peer(c->defect) && fn_here(c);
	unsigned int i, n, at;

	if (!key) {
		prandom_bytes_state(&c->rng, newkey, sizeof(newkey));
		key = newkey;
	}
	if (bad)
		c->planted = true;
	fn_nest(c, NOISE_A_DEVICE_PEER, !flat);
	at = fn_below(c, 6);
	if (bad && c->defect == FN_P_KEY_LEN) {
		unsigned int len = fn_below(c, 3) ? 33 + fn_below(c, 24) : fn_below(c, 32);

		if (fn_below(c, 4) == 0)
			len = 57 + fn_below(c, 40);
		fn_put(c, NOISE_A_PEER_PUBLIC_KEY, NULL, len);
	} else if (!(bad && c->defect == FN_P_NO_KEY)) {
		fn_put(c, NOISE_A_PEER_PUBLIC_KEY, key, NOISE_KEY_LEN_25519);
	}
	if (!fn_below(c, 8) && !bad) {	/* a removal: key and flag only */
		fn_u32(c, NOISE_A_PEER_FLAGS, NOISE_PEER_FLAG_REMOVE_ME);
		fn_end(c);
		return;
	}
	for (i = 0; i < 5; i++) {
		if (bad && i == at)
			fn_peer_defect(c, key);
		switch (fn_below(c, 6)) {
		case 0:
			fn_put(c, NOISE_A_PEER_PRESHARED_KEY, NULL, NOISE_PSK_KEY_LEN);
			break;
		case 1:
			if (i == 1)
				fn_endpoint(c, false);
			break;
		case 2:
			if (i == 2)
				fn_u16(c, NOISE_A_PEER_PERSISTENT_KEEPALIVE, fn_below(c, 65536));
			break;
		case 3:
			if (i == 3)
				fn_u32(c, NOISE_A_PEER_FLAGS,
				       fn_below(c, 16) & ~NOISE_PEER_FLAG_REMOVE_ME);
			break;
		default:
			n = fn_below(c, 3);
			while (n--)
				fn_aip(c);
			break;
		}
	}
	if (bad && at == 5)
		fn_peer_defect(c, key);
	if (fn_in_aip(c->defect) && !c->planted)
		fn_aip(c);
	fn_end(c);
	memzero_explicit(newkey, sizeof(newkey));
}

/* A random attribute tree: random types, lengths, nest flags, depth. */
static void fn_tree(struct fn_ctx *c, unsigned int depth)
{
	unsigned int i, n = 1 + fn_below(c, 6);
	u16 type;

	for (i = 0; i < n && c->len < FN_BUF / 2; i++) {
		type = fn_below(c, 4) ? fn_below(c, 16) : prandom_u32_state(&c->rng) & 0xffff;
		if (depth < 5 && fn_below(c, 3) == 0) {
			fn_nest(c, type & ~NLA_F_NESTED, fn_below(c, 4) != 0);
			fn_tree(c, depth + 1);
			fn_end(c);
		} else {
			fn_put(c, type, NULL, fn_below(c, 4) ? fn_below(c, 9) : fn_below(c, 80));
		}
	}
}

static void fn_device_id(struct fn_ctx *c, bool bad)
{
	const char *name = c->nd->dev->name;
	char other[IFNAMSIZ];

	if (!bad) {
		switch (fn_below(c, 3)) {
		case 0:
			fn_u32(c, NOISE_A_DEVICE_IFINDEX, c->nd->dev->ifindex);
			break;
		case 1:
			fn_put(c, NOISE_A_DEVICE_IFNAME, name, strlen(name) + 1);
			break;
		default:
			fn_u32(c, NOISE_A_DEVICE_IFINDEX, c->nd->dev->ifindex);
			fn_put(c, NOISE_A_DEVICE_IFNAME, name, strlen(name) + 1);
			break;
		}
		return;
	}
	switch (fn_below(c, 5)) {
	case 0:		/* no such index */
		fn_u32(c, NOISE_A_DEVICE_IFINDEX, 0x7fff0000 + fn_below(c, 0xffff));
		break;
	case 1:		/* index and name disagree */
		fn_u32(c, NOISE_A_DEVICE_IFINDEX, c->nd->dev->ifindex);
		fn_put(c, NOISE_A_DEVICE_IFNAME, "lo", 3);
		break;
	case 2:		/* not a noise device */
		fn_u32(c, NOISE_A_DEVICE_IFINDEX, init_net.loopback_dev->ifindex);
		break;
	case 3:		/* no such name */
		snprintf(other, sizeof(other), "nfzx%u", fn_below(c, 100000));
		fn_put(c, NOISE_A_DEVICE_IFNAME, other, strlen(other) + 1);
		break;
	default:	/* no device at all */
		break;
	}
}

static void fn_top_defect(struct fn_ctx *c)
{
	static const char * const bad_proto[] = {
		"Noise_NN_25519_ChaChaPoly_BLAKE2s", "Noise_Foo_25519_ChaChaPoly_BLAKE2s",
		"Noise_IK_25519_ChaChaPoly", "Noise_XXfallback_25519_ChaChaPoly_BLAKE2s",
		"", "Noise_IK_25519_ChaChaPoly_MD5",
	};
	const char *s;
	unsigned int i, n;
	u8 *p;

	switch (c->defect) {
	case FN_T_UNKNOWN:
		fn_put(c, NOISE_A_DEVICE_MAX + 1 + fn_below(c, 1000), NULL, fn_below(c, 20));
		break;
	case FN_T_U32_LEN:
		n = fn_below(c, 8);
		fn_put(c, fn_below(c, 2) ? NOISE_A_DEVICE_FWMARK : NOISE_A_DEVICE_FLAGS, NULL,
		       n < 4 ? n : n + 1);
		break;
	case FN_T_U16_LEN:
		n = fn_below(c, 4);
		fn_put(c, NOISE_A_DEVICE_LISTEN_PORT, NULL, n < 2 ? n : n + 1);
		break;
	case FN_T_DUP:
		if (fn_below(c, 2)) {
			fn_u32(c, NOISE_A_DEVICE_FWMARK, 1);
			fn_u32(c, NOISE_A_DEVICE_FWMARK, 1);
		} else {
			fn_u16(c, NOISE_A_DEVICE_LISTEN_PORT, 0);
			fn_u16(c, NOISE_A_DEVICE_LISTEN_PORT, 0);
		}
		break;
	case FN_T_RO:
		switch (fn_below(c, 3)) {
		case 0:
			fn_put(c, NOISE_A_DEVICE_PUBLIC_KEY, c->dev_pub, sizeof(c->dev_pub));
			break;
		case 1:
			fn_nest(c, NOISE_A_DEVICE_STATS, true);
			fn_end(c);
			break;
		default:
			fn_put(c, FN_RESERVED, NULL, 8);
			break;
		}
		break;
	case FN_T_FLAGS:
		fn_u32(c, NOISE_A_DEVICE_FLAGS, BIT(1 + fn_below(c, 31)) | fn_below(c, 2));
		break;
	case FN_T_PRIVKEY_LEN:
		n = fn_below(c, 2) ? fn_below(c, 32) : 33 + fn_below(c, 60);
		fn_put(c, NOISE_A_DEVICE_PRIVATE_KEY, NULL, n);
		break;
	case FN_T_PROTO:
		switch (fn_below(c, 3)) {
		case 0:
			s = bad_proto[fn_below(c, ARRAY_SIZE(bad_proto))];
			fn_put(c, NOISE_A_DEVICE_PROTOCOL, s, strlen(s) + 1);
			break;
		case 1:		/* no NUL */
			s = "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s";
			fn_put(c, NOISE_A_DEVICE_PROTOCOL, s, strlen(s));
			break;
		default:	/* too long */
			n = NOISE_PROTOCOL_NAME_MAX + 1 + fn_below(c, 100);
			p = fn_put(c, NOISE_A_DEVICE_PROTOCOL, NULL, n + 1);
			if (p) {
				memset(p, 'A', n);
				p[n] = 0;
			}
			break;
		}
		break;
	case FN_T_PEER_FLAT:
		fn_peer(c, c->peer_pub[fn_below(c, FN_PEERS)], true);
		break;
	case FN_T_DEEP:
		n = 2 + fn_below(c, FN_DEPTH - 8);
		if (fn_below(c, 2)) {	/* peers in peers */
			for (i = 0; i < n; i++)
				fn_nest(c, NOISE_A_DEVICE_PEER, true);
		} else {		/* nests of unknown type under an allowed IP */
			fn_nest(c, NOISE_A_DEVICE_PEER, true);
			fn_put(c, NOISE_A_PEER_PUBLIC_KEY, c->peer_pub[0], NOISE_KEY_LEN_25519);
			fn_nest(c, NOISE_A_PEER_ALLOWEDIP, true);
			for (i = 3; i < n; i++)
				fn_nest(c, NOISE_A_ALLOWEDIP_MAX + 1 + fn_below(c, 10), true);
		}
		fn_put(c, fn_below(c, 16), NULL, fn_below(c, 9));
		while (c->depth)
			fn_end(c);
		break;
	case FN_T_HUGE:
		/* many good allowed IPs, one bad among them */
		n = 500 + fn_below(c, 1500);
		i = fn_below(c, n);
		fn_nest(c, NOISE_A_DEVICE_PEER, true);
		fn_put(c, NOISE_A_PEER_PUBLIC_KEY, c->peer_pub[fn_below(c, FN_PEERS)],
		       NOISE_KEY_LEN_25519);
		while (n--) {
			fn_nest(c, NOISE_A_PEER_ALLOWEDIP, true);
			fn_u16(c, NOISE_A_ALLOWEDIP_FAMILY, AF_INET);
			fn_put(c, NOISE_A_ALLOWEDIP_ADDR, NULL, 4);
			fn_u8(c, NOISE_A_ALLOWEDIP_CIDR_MASK, n == i ? 33 + fn_below(c, 96) : 32);
			fn_end(c);
		}
		fn_end(c);
		break;
	case FN_T_SAME_PEER:
		i = fn_below(c, FN_PEERS);
		fn_peer(c, c->peer_pub[i], false);
		fn_peer(c, c->peer_pub[i], false);
		break;
	case FN_T_OWN_KEY:
		fn_peer(c, c->dev_pub, false);
		break;
	default:
		break;
	}
}

/* Emit a top-level slot: the defect goes here if chosen. */
static void fn_top_slot(struct fn_ctx *c)
{
	if (fn_top(c->defect) && c->defect != FN_T_DEV && c->defect != FN_T_TRUNC &&
	    c->defect != FN_T_SHORT && fn_here(c)) {
		c->planted = true;
		fn_top_defect(c);
	}
}

static void fn_begin(struct fn_ctx *c)
{
	struct nlmsghdr *nlh = (void *)c->buf;
	struct genlmsghdr *g = nlmsg_data(nlh);

	memset(c->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = fn_below(c, 1000);
	g->cmd = NOISE_CMD_SET_DEVICE;
	g->version = NOISE_FAMILY_VERSION;
	c->len = NLMSG_HDRLEN + GENL_HDRLEN;
	c->depth = 0;
	c->slots = 0;
	c->planted = false;
}

/* A plausible request with the defect c->defect planted in it. */
static void fn_build(struct fn_ctx *c)
{
	unsigned int i, n, extra;

	fn_begin(c);
	c->slot = fn_below(c, 4);
	if (c->defect == FN_RANDOM_TREE || c->defect == FN_GARBAGE) {
		/* the defect first: nothing random after it can hide it */
		fn_device_id(c, false);
		c->defect = FN_T_UNKNOWN + fn_below(c, FN_T_SAME_PEER + 1);
		if (c->defect == FN_T_TRUNC || c->defect == FN_T_SHORT)
			c->defect = FN_T_UNKNOWN;
		fn_top_defect(c);
		if (fn_below(c, 2)) {
			fn_tree(c, 0);
		} else {
			n = fn_below(c, 400);
			prandom_bytes_state(&c->rng, c->buf + c->len, n);
			c->len += n;
		}
		c->planted = true;
		return;
	}
	for (;;) {
		fn_top_slot(c);
		fn_device_id(c, c->defect == FN_T_DEV);
		if (c->defect == FN_T_DEV)
			c->planted = true;
		fn_top_slot(c);
		if (fn_below(c, 3) == 0)
			fn_u32(c, NOISE_A_DEVICE_FWMARK, prandom_u32_state(&c->rng));
		fn_top_slot(c);
		if (fn_below(c, 4) == 0)
			fn_u16(c, NOISE_A_DEVICE_LISTEN_PORT, 1024 + fn_below(c, 60000));
		/*
		 * Rare: checking it costs a DH. (A new key would make the old
		 * one a stranger's, a valid peer.)
		 */
		if (fn_below(c, 100) == 0 && c->defect != FN_T_OWN_KEY)
			fn_put(c, NOISE_A_DEVICE_PRIVATE_KEY, NULL, NOISE_KEY_LEN_25519);
		if (fn_below(c, 6) == 0)
			fn_u32(c, NOISE_A_DEVICE_FLAGS, fn_below(c, 2));
		fn_top_slot(c);
		n = fn_below(c, 5);
		if (fn_in_peer(c->defect) || fn_in_aip(c->defect))
			n = max(n, 2U);
		for (i = 0; i < n; i++) {
			/* mostly a configured peer, else a new one */
			fn_peer(c, fn_below(c, 3) ? c->peer_pub[fn_below(c, FN_PEERS)] : NULL,
				false);
			fn_top_slot(c);
		}
		if (c->planted || c->defect == FN_T_TRUNC || c->defect == FN_T_SHORT)
			break;
		/* the chosen slot did not come: start again with one that did */
		c->slot = c->slots ? fn_below(c, c->slots) : 0;
		fn_begin(c);
	}
	if (c->defect == FN_T_SHORT) {
		extra = 1 + fn_below(c, 3);
		if (fn_below(c, 2)) {	/* bytes left over */
			memset(c->buf + c->len, 0, extra);
		} else {		/* an attribute shorter than its header */
			struct nlattr *a = (void *)(c->buf + c->len);

			a->nla_type = NOISE_A_DEVICE_FWMARK;
			a->nla_len = extra;
			extra = NLA_HDRLEN;
		}
		c->len += extra;
		c->planted = true;
	}
	if (c->defect == FN_T_TRUNC) {	/* its length runs past the message */
		struct nlattr *a = (void *)(c->buf + c->len);

		n = fn_below(c, 40);
		a->nla_type = fn_below(c, 2) ? NOISE_A_DEVICE_PEER | NLA_F_NESTED :
			      NOISE_A_DEVICE_PRIVATE_KEY;
		a->nla_len = NLA_HDRLEN + n + 1 + fn_below(c, 100);
		prandom_bytes_state(&c->rng, c->buf + c->len + NLA_HDRLEN, n);
		c->len += NLA_HDRLEN + n;
		c->planted = true;
	}
}

/* Run the request in c->buf; returns its error, *msg the extack message. */
static int fn_run(struct fn_ctx *c, const char **msg)
{
	struct netlink_ext_ack ext = {};
	struct sk_buff *skb;
	int err;

	((struct nlmsghdr *)c->buf)->nlmsg_len = c->len;
	skb = alloc_skb(c->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(c->test, skb);
	skb_put_data(skb, c->buf, c->len);
	err = noise_nl_set_test(skb, &ext);
	kfree_skb(skb);
	*msg = ext._msg;
	return err;
}

static bool fn_same(struct fn_ctx *c)
{
	size_t len;
	void *now = noise_nl_dump_test(c->nd, &len);
	bool same;

	KUNIT_ASSERT_NOT_NULL(c->test, now);
	same = len == c->ref_len && !memcmp(now, c->ref, len);
	kvfree(now);
	return same;
}

static void fn_snapshot(struct fn_ctx *c)
{
	kvfree(c->ref);
	c->ref = noise_nl_dump_test(c->nd, &c->ref_len);
	KUNIT_ASSERT_NOT_NULL(c->test, c->ref);
}

/* The device's configuration through a valid request (it must pass). */
static void fn_configure(struct fn_ctx *c)
{
	u8 priv[NOISE_KEY_LEN_25519];
	const char *msg;
	unsigned int i;
	int err;

	fn_begin(c);
	fn_u32(c, NOISE_A_DEVICE_IFINDEX, c->nd->dev->ifindex);
	KUNIT_ASSERT_EQ(c->test, noise_dh_generate(NOISE_DH_25519, priv, c->dev_pub), 0);
	fn_put(c, NOISE_A_DEVICE_PRIVATE_KEY, priv, sizeof(priv));
	memzero_explicit(priv, sizeof(priv));
	fn_u32(c, NOISE_A_DEVICE_FWMARK, 0x1234);
	for (i = 0; i < FN_PEERS; i++) {
		struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(1000 + i) };
		__be32 a4 = htonl(0x0a000000 | (i << 16));
		struct in6_addr a6 = { .s6_addr = { 0xfd, 0, 0, i } };

		err = noise_dh_generate(NOISE_DH_25519, priv, c->peer_pub[i]);
		KUNIT_ASSERT_EQ(c->test, err, 0);
		memzero_explicit(priv, sizeof(priv));
		s4.sin_addr.s_addr = htonl(0xc0000200 | i);
		fn_nest(c, NOISE_A_DEVICE_PEER, true);
		fn_put(c, NOISE_A_PEER_PUBLIC_KEY, c->peer_pub[i], NOISE_KEY_LEN_25519);
		fn_put(c, NOISE_A_PEER_PRESHARED_KEY, NULL, NOISE_PSK_KEY_LEN);
		fn_put(c, NOISE_A_PEER_ENDPOINT, &s4, sizeof(s4));
		fn_u16(c, NOISE_A_PEER_PERSISTENT_KEEPALIVE, 25);
		fn_nest(c, NOISE_A_PEER_ALLOWEDIP, true);
		fn_u16(c, NOISE_A_ALLOWEDIP_FAMILY, AF_INET);
		fn_put(c, NOISE_A_ALLOWEDIP_ADDR, &a4, sizeof(a4));
		fn_u8(c, NOISE_A_ALLOWEDIP_CIDR_MASK, 16);
		fn_end(c);
		fn_nest(c, NOISE_A_PEER_ALLOWEDIP, true);
		fn_u16(c, NOISE_A_ALLOWEDIP_FAMILY, AF_INET6);
		fn_put(c, NOISE_A_ALLOWEDIP_ADDR, &a6, sizeof(a6));
		fn_u8(c, NOISE_A_ALLOWEDIP_CIDR_MASK, 64);
		fn_end(c);
		fn_end(c);
	}
	err = fn_run(c, &msg);
	KUNIT_ASSERT_EQ_MSG(c->test, err, 0, "configuration refused: %s", msg ?: "(no message)");
}

static void fn_cleanup(void *data)
{
	struct fn_ctx *c = data;

	if (c->nd)
		noise_device_destroy_test(c->nd);
	kvfree(c->ref);
	kvfree(c->buf);
	kfree(c);
}

static void fn_set_flood(struct kunit *test)
{
	struct fn_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);
	u64 t0 = ktime_get_ns(), fed = 0;
	size_t empty_len;
	const char *msg;
	void *empty;
	unsigned int i;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fn_cleanup, c), 0);
	c->test = test;
	c->buf = kvzalloc(FN_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->buf);
	fz_rng_init(&c->rng, 100);
	c->nd = noise_device_create_test("nfzn%d");
	if (IS_ERR(c->nd)) {
		err = PTR_ERR(c->nd);
		c->nd = NULL;
		KUNIT_ASSERT_EQ(test, err, 0);
	}
	empty = noise_nl_dump_test(c->nd, &empty_len);
	KUNIT_ASSERT_NOT_NULL(test, empty);
	kvfree(empty);
	fn_configure(c);
	fn_snapshot(c);
	/* the dump shows the configuration: its peers and allowed IPs */
	KUNIT_ASSERT_GT(test, c->ref_len, empty_len + FN_PEERS * 100);

	for (i = 0; fed < requests; i++) {
		if (i % 1000 == 999) {
			/* control: a valid change is accepted and seen in the dump */
			fn_begin(c);
			fn_u32(c, NOISE_A_DEVICE_IFINDEX, c->nd->dev->ifindex);
			fn_u32(c, NOISE_A_DEVICE_FWMARK, 0x10000 + i);
			err = fn_run(c, &msg);
			KUNIT_ASSERT_EQ_MSG(test, err, 0, "valid request refused: %s", msg ?: "");
			KUNIT_ASSERT_FALSE(test, fn_same(c));
			fn_snapshot(c);
			c->accepted_controls++;
			continue;
		}
		c->defect = fn_below(c, FN_DEFECTS);
		/* the huge nest is heavy: a tenth of its share */
		if (c->defect == FN_T_HUGE && fn_below(c, 10))
			c->defect = FN_T_UNKNOWN;
		c->fed[c->defect]++;
		fn_build(c);
		KUNIT_ASSERT_TRUE(test, c->planted);
		err = fn_run(c, &msg);
		fed++;
		if (err < 0)
			c->refused++;
		KUNIT_EXPECT_LT_MSG(test, err, 0, "request %u (%s) accepted, seed %llu",
				    i, fn_name[c->defect], fz_seed());
		KUNIT_EXPECT_NOT_NULL_MSG(test, msg,
					  "request %u (%s, %d): no extack message, seed %llu",
					  i, fn_name[c->defect], err, fz_seed());
		if (!fn_same(c)) {
			KUNIT_FAIL(test, "request %u (%s, %d: %s) changed the dump, seed %llu",
				   i, fn_name[c->defect], err, msg ?: "", fz_seed());
			fn_snapshot(c);
		}
		if (err >= 0 || !msg)
			break;
	}
	for (i = 0; i < FN_DEFECTS; i++)
		kunit_info(test, "fed %-20s %llu\n", fn_name[i], c->fed[i]);
	kunit_info(test, "%llu malformed requests fed, %llu refused with a message and no change; %llu valid controls accepted; %llu ms; seed %llu\n",
		   fed, c->refused, c->accepted_controls,
		   div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC), fz_seed());
	KUNIT_EXPECT_EQ(test, c->refused, fed);
}

static struct kunit_case fz_nl_cases[] = {
	KUNIT_CASE(fn_set_flood),
	{}
};

struct kunit_suite fz_nl_suite = {
	.name = "noise_fuzz_netlink",
	.test_cases = fz_nl_cases,
};
