/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Older kernels (Debian 12's 6.1): the few kernel API differences the
 * module meets, in one place; nothing here changes anything on 6.12.
 * Include it before code that uses what it patches: it includes the
 * kernel headers concerned first.
 *
 * An out-of-tree module has to follow the kernel it is built against, so
 * the version test below is deliberate; it compares the major and minor
 * numbers of <linux/version.h> (LINUX_VERSION_CODE is meant for code that
 * lives in one kernel tree). Where a kernel header tells by itself, as for
 * strscpy(), that is tested instead.
 */
#ifndef _NOISE_COMPAT_H
#define _NOISE_COMPAT_H

#include <linux/version.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/crypto.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>

/* True when building against kernel @major.@minor or later. */
#define NOISE_KERNEL_AT_LEAST(major, minor)				\
	((LINUX_VERSION_MAJOR << 8 | LINUX_VERSION_PATCHLEVEL) >=	\
	 ((major) << 8 | (minor)))

/*
 * Crypto API completion callbacks receive the request's data pointer since
 * 6.3 (crypto_completion_t is void (*)(void *data, int err)); before, they
 * received the struct crypto_async_request whose ->data it is. Write the
 * callback the 6.3 way as void fn(void *data, int err), put the line
 * NOISE_CRYPTO_DONE_WRAP(fn) (no semicolon) after it, and pass
 * NOISE_CRYPTO_DONE(fn) to aead_request_set_callback(). The wrapper has the
 * kernel's type and calls fn, which the compiler inlines. crypto_req_done()
 * needs nothing: it always has the kernel's own type.
 */
#if NOISE_KERNEL_AT_LEAST(6, 3)
#define __NOISE_CRYPTO_DONE_WRAP(fn, wrapper)				\
	static void wrapper(void *data, int err)			\
	{								\
		fn(data, err);						\
	}
#else
#define __NOISE_CRYPTO_DONE_WRAP(fn, wrapper)				\
	static void wrapper(struct crypto_async_request *req, int err)	\
	{								\
		fn(req->data, err);					\
	}
#endif
#define NOISE_CRYPTO_DONE_WRAP(fn) __NOISE_CRYPTO_DONE_WRAP(fn, fn##_crypto_done)
#define NOISE_CRYPTO_DONE(fn)	(fn##_crypto_done)

/*
 * strscpy(dst, src) with an array @dst, the size taken from it, exists
 * since 6.8 (where strscpy is a macro); before, the size is a required
 * third argument. Passing the size works everywhere and is preferred; this
 * keeps the two-argument form building on 6.1.
 */
#ifndef strscpy
#define __noise_strscpy(dst, src, size, ...)	strscpy(dst, src, size)
#define strscpy(dst, src, ...)						\
	__noise_strscpy(dst, src, ##__VA_ARGS__,			\
			sizeof(dst) + __must_be_array(dst))
#endif

/*
 * u128 is in <linux/types.h> since 6.5 (where the compiler has __int128);
 * before, only some .c files had a local one. A macro rather than a
 * typedef: where the kernel's typedef exists it names the same type, and
 * an older crypto/b128ops.h struct u128 included before this header keeps
 * working for its own users.
 */
#if !NOISE_KERNEL_AT_LEAST(6, 5) && defined(__SIZEOF_INT128__)
#define u128 __uint128_t
#endif

/*
 * Lockless transmit (the driver serializes itself): the NETIF_F_LLTX
 * feature bit until 6.11, the net_device lltx flag since 6.12.
 */
static inline void noise_netdev_set_lltx(struct net_device *dev)
{
#ifdef NETIF_F_LLTX
	dev->features |= NETIF_F_LLTX;
#else
	dev->lltx = true;
#endif
}

/*
 * The generic netlink code the kernel's YNL generator makes from the spec
 * (tunnel/noise-nl-gen.c, which Kbuild compiles with this header included
 * first): split ops (struct genl_split_ops, 6.2; on 6.1 the same members
 * exist in struct genl_ops, and the generated table has one entry per
 * command), and NLA_UINT attributes (6.7; before, a read-only attribute
 * of ours is a u64 there, and nla_put_uint() below writes what a 6.7
 * kernel writes: 4 bytes when the value fits, else 8). The family
 * registers the generated table noise_nl_ops with NOISE_GENL_OPS.
 */
#if NOISE_KERNEL_AT_LEAST(6, 2)
#define NOISE_GENL_OPS	.split_ops = noise_nl_ops, .n_split_ops = ARRAY_SIZE(noise_nl_ops)
#else
#define genl_split_ops	genl_ops
#define NOISE_GENL_OPS	.ops = noise_nl_ops, .n_ops = ARRAY_SIZE(noise_nl_ops)
#endif
#if !NOISE_KERNEL_AT_LEAST(6, 7)
#define NLA_UINT			NLA_U64
static inline int nla_put_uint(struct sk_buff *skb, int attrtype, u64 value)
{
	u32 value32 = value;

	if (value32 == value)
		return nla_put_u32(skb, attrtype, value32);
	return nla_put(skb, attrtype, sizeof(value), &value);
}
#endif

/*
 * The attributes genetlink parsed for a dump (in .start and .dumpit):
 * genl_dumpit_info(cb)->attrs until 6.5, genl_info_dump(cb)->attrs since
 * 6.6 (the struct now holds a whole struct genl_info).
 */
#if NOISE_KERNEL_AT_LEAST(6, 6)
#define noise_genl_dump_attrs(cb)	(genl_info_dump(cb)->attrs)
#else
#define noise_genl_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

/*
 * A multicast group only for listeners with CAP_NET_ADMIN in the
 * namespace's user namespace: GENL_MCAST_CAP_NET_ADMIN since 6.7; before
 * (5.18 to 6.6, so 6.1), genl_bind() made the same check for
 * GENL_UNS_ADMIN_PERM in the group's flags.
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define NOISE_GENL_MCAST_NET_ADMIN	GENL_MCAST_CAP_NET_ADMIN
#else
#define NOISE_GENL_MCAST_NET_ADMIN	GENL_UNS_ADMIN_PERM
#endif

/* get_unaligned_be32() and friends: <linux/unaligned.h> since 6.12. */
#if NOISE_KERNEL_AT_LEAST(6, 12)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _NOISE_COMPAT_H */
