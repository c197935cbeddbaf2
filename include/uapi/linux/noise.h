/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * noise: the generic netlink interface of the noise tunnel device.
 *
 * Family "noise" (NOISE_GENL_NAME), version 1, described by
 * Documentation/netlink/specs/noise.yaml. Two requests and four events:
 *
 * NOISE_CMD_GET_DEVICE (dump only, CAP_NET_ADMIN in the device's network
 *	namespace's user namespace): the request names one device by
 *	NOISE_A_DEVICE_IFINDEX or NOISE_A_DEVICE_IFNAME. The answer is split
 *	over as many messages as needed; each carries IFINDEX and IFNAME, the
 *	first also the device attributes, and then a run of NOISE_A_DEVICE_PEER
 *	nests. A peer whose allowed IPs do not fit is continued in the next
 *	message, repeating its NOISE_A_PEER_PUBLIC_KEY. Private keys and
 *	preshared keys are never returned (write-only); the public key and a
 *	preshared-key fingerprint are.
 *
 * NOISE_CMD_SET_DEVICE (do, CAP_NET_ADMIN): the device attributes to change
 *	and any number of NOISE_A_DEVICE_PEER nests. The request is validated
 *	whole before anything is applied: a request with one bad attribute
 *	changes nothing and is answered with an extack message naming it.
 *	Attributes left out are left unchanged.
 *
 * Events on the multicast group NOISE_MCGRP_PEERS ("peers"), each with
 *	IFINDEX, IFNAME and one NOISE_A_DEVICE_PEER nest holding at least the
 *	peer's public key: NOISE_CMD_PEER_ADD_NTF, NOISE_CMD_PEER_DEL_NTF,
 *	NOISE_CMD_HANDSHAKE_NTF (a session was established; with
 *	LAST_HANDSHAKE_TIME), NOISE_CMD_ENDPOINT_NTF (the endpoint changed:
 *	roaming or configuration; with ENDPOINT) and
 *	NOISE_CMD_HANDSHAKE_FAILED_NTF (we gave up a handshake: no session
 *	for REKEY_ATTEMPT_TIME; with LAST_ATTEMPT_TIME and STATS).
 *
 * All integers are in host byte order except NOISE_A_PEER_ENDPOINT, a
 * struct sockaddr_in or sockaddr_in6 (network byte order inside, as from
 * the socket API), and NOISE_A_ALLOWEDIP_ADDR (network byte order).
 * 64-bit attributes are sent without padding (the *_PAD attributes are
 * reserved and never sent): read them with a copy (nla_get_u64() does).
 * Requests are parsed strictly: unknown attributes, nests without
 * NLA_F_NESTED, trailing bytes and a second copy of a non-repeated
 * attribute are refused.
 *
 * NOISE_A_PEER_PSK_ID = BLAKE2s(outlen 16, key k, n || psk[0] || ... ||
 * psk[n-1]) with k = BLAKE2s-256("noise psk id" || the peer's public key)
 * (the 12 ASCII bytes, no NUL), n (one byte) the number of psk tokens and
 * psk[i] the key used for token i (one key given for all tokens counts
 * once per token). Absent when the peer has no PSKs.
 */
#ifndef _UAPI_LINUX_NOISE_H
#define _UAPI_LINUX_NOISE_H

#define NOISE_GENL_NAME		"noise"
#define NOISE_GENL_VERSION	1
#define NOISE_MCGRP_PEERS	"peers"

/* Key sizes: X25519 and X448 (DHLEN), and a PSK. */
#define NOISE_KEY_LEN_25519	32
#define NOISE_KEY_LEN_448	56
#define NOISE_PSK_KEY_LEN	32
#define NOISE_PSK_ID_LEN	16
/* The longest protocol name, without its NUL. */
#define NOISE_PROTOCOL_NAME_MAX	255
/* Preshared keys per peer: one per psk token (psk0 ... psk4). */
#define NOISE_PEER_PSK_MAX	5

enum noise_cmd {
	NOISE_CMD_UNSPEC,
	NOISE_CMD_GET_DEVICE,
	NOISE_CMD_SET_DEVICE,
	NOISE_CMD_PEER_ADD_NTF,
	NOISE_CMD_PEER_DEL_NTF,
	NOISE_CMD_HANDSHAKE_NTF,
	NOISE_CMD_ENDPOINT_NTF,
	NOISE_CMD_HANDSHAKE_FAILED_NTF,
	__NOISE_CMD_MAX
};

#define NOISE_CMD_MAX (__NOISE_CMD_MAX - 1)

/* NOISE_A_DEVICE_FLAGS */
enum noise_device_flag {
	/* Remove every peer not named in this request. */
	NOISE_DEVICE_F_REPLACE_PEERS = 1U << 0,
	__NOISE_DEVICE_F_ALL = NOISE_DEVICE_F_REPLACE_PEERS
};

enum noise_device_attr {
	NOISE_A_DEVICE_UNSPEC,
	NOISE_A_DEVICE_PAD,		/* reserved; never sent (u64 unpadded) */
	NOISE_A_DEVICE_IFINDEX,		/* u32 */
	NOISE_A_DEVICE_IFNAME,		/* string, < IFNAMSIZ */
	NOISE_A_DEVICE_PROTOCOL,	/* string: a Noise protocol name */
	/* binary, DHLEN; write-only; all zeros removes the key */
	NOISE_A_DEVICE_PRIVATE_KEY,
	NOISE_A_DEVICE_PUBLIC_KEY,	/* binary, DHLEN; read-only */
	NOISE_A_DEVICE_LISTEN_PORT,	/* u16; 0: any free port */
	NOISE_A_DEVICE_FWMARK,		/* u32; 0: none */
	NOISE_A_DEVICE_FLAGS,		/* u32, enum noise_device_flag */
	/* nest, enum noise_stats_attr; read-only */
	NOISE_A_DEVICE_STATS,
	/* nest, enum noise_peer_attr; repeated, one per peer */
	NOISE_A_DEVICE_PEER,
	__NOISE_A_DEVICE_MAX
};

#define NOISE_A_DEVICE_MAX (__NOISE_A_DEVICE_MAX - 1)

/* NOISE_A_PEER_FLAGS */
enum noise_peer_flag {
	/* Remove this peer (only PUBLIC_KEY may accompany it). */
	NOISE_PEER_F_REMOVE_ME = 1U << 0,
	/* Replace the peer's allowed IPs with those in this request. */
	NOISE_PEER_F_REPLACE_ALLOWEDIPS = 1U << 1,
	/* Change the peer only if it exists; never create it. */
	NOISE_PEER_F_UPDATE_ONLY = 1U << 2,
	/* Replace the peer's preshared keys (none given: remove them). */
	NOISE_PEER_F_REPLACE_PSKS = 1U << 3,
	__NOISE_PEER_F_ALL = NOISE_PEER_F_REMOVE_ME |
			     NOISE_PEER_F_REPLACE_ALLOWEDIPS |
			     NOISE_PEER_F_UPDATE_ONLY |
			     NOISE_PEER_F_REPLACE_PSKS
};

enum noise_peer_attr {
	NOISE_A_PEER_UNSPEC,
	NOISE_A_PEER_PAD,
	NOISE_A_PEER_PUBLIC_KEY,	/* binary, DHLEN: the peer's identity */
	/*
	 * binary, 32; write-only; repeated: one key for every psk token, or
	 * one per token in order
	 */
	NOISE_A_PEER_PRESHARED_KEY,
	/*
	 * binary, 16: a keyed fingerprint of the preshared keys; read-only
	 * (lets syncconf compare)
	 */
	NOISE_A_PEER_PSK_ID,
	NOISE_A_PEER_FLAGS,		/* u32, enum noise_peer_flag */
	NOISE_A_PEER_ENDPOINT,		/* binary: sockaddr_in/sockaddr_in6 */
	NOISE_A_PEER_PERSISTENT_KEEPALIVE, /* u16 seconds; 0: off */
	/* u64 ns since the epoch (CLOCK_REALTIME); 0: never */
	NOISE_A_PEER_LAST_HANDSHAKE_TIME,
	NOISE_A_PEER_STATS,		/* nest, enum noise_stats_attr */
	/* nest, enum noise_allowedip_attr; repeated */
	NOISE_A_PEER_ALLOWEDIP,
	/*
	 * u64 ns since the epoch (CLOCK_REALTIME): our latest message 1 to
	 * the peer (a new handshake or a retry); 0: never
	 */
	NOISE_A_PEER_LAST_ATTEMPT_TIME,
	__NOISE_A_PEER_MAX
};

#define NOISE_A_PEER_MAX (__NOISE_A_PEER_MAX - 1)

enum noise_allowedip_attr {
	NOISE_A_ALLOWEDIP_UNSPEC,
	NOISE_A_ALLOWEDIP_FAMILY,	/* u16: AF_INET or AF_INET6 */
	NOISE_A_ALLOWEDIP_ADDR,		/* binary: 4 or 16 bytes */
	NOISE_A_ALLOWEDIP_CIDR_MASK,	/* u8: prefix length */
	__NOISE_A_ALLOWEDIP_MAX
};

#define NOISE_A_ALLOWEDIP_MAX (__NOISE_A_ALLOWEDIP_MAX - 1)

/* Counters (u64), per device and per peer; all read-only. */
enum noise_stats_attr {
	NOISE_A_STATS_UNSPEC,
	NOISE_A_STATS_PAD,
	/*
	 * On the wire, as WireGuard counts: every message from the peer that
	 * was taken (a handshake message read, a data message or keepalive
	 * authenticated and delivered) and every one sent to it, each by its
	 * UDP payload (header, padding and tag included).
	 */
	NOISE_A_STATS_RX_BYTES,
	NOISE_A_STATS_RX_PACKETS,
	NOISE_A_STATS_TX_BYTES,
	NOISE_A_STATS_TX_PACKETS,
	NOISE_A_STATS_HANDSHAKES,	/* sessions established */
	/* Drops, by reason. */
	NOISE_A_STATS_DROP_BAD_TYPE,	/* unknown message type or version */
	NOISE_A_STATS_DROP_BAD_LENGTH,	/* wrong length for its type */
	NOISE_A_STATS_DROP_UNKNOWN_INDEX, /* no session or handshake has it */
	NOISE_A_STATS_DROP_AUTH,	/* transport authentication failed */
	NOISE_A_STATS_DROP_REPLAY,	/* counter seen or outside window */
	NOISE_A_STATS_DROP_SOURCE,	/* inner source not in allowed IPs */
	NOISE_A_STATS_DROP_NO_PEER,	/* no peer for the destination */
	/*
	 * handshake message refused (failed read, unknown key, other
	 * protocol; a bad MAC1 is DROP_MAC1)
	 */
	NOISE_A_STATS_DROP_HANDSHAKE,
	/* no usable session, queue full or key expired */
	NOISE_A_STATS_DROP_NO_KEY,
	/* decrypted packet is not IP, or its length is wrong */
	NOISE_A_STATS_DROP_INNER,
	/* handshake message with a bad MAC1 (one keyed hash spent) */
	NOISE_A_STATS_DROP_MAC1,
	/* under load without a valid MAC2: a cookie reply was sent instead */
	NOISE_A_STATS_DROP_COOKIE,
	/* under load, valid MAC2, but its source is over its rate */
	NOISE_A_STATS_DROP_RATELIMIT,
	/* the handshake queue is full */
	NOISE_A_STATS_DROP_HS_QUEUE,
	/* not sent: the route to the peer's endpoint goes through this device */
	NOISE_A_STATS_DROP_LOOP,
	/* Cookie events (Documentation/cookies.rst). */
	/* cookie replies received, authenticated and taken (peer: from it) */
	NOISE_A_STATS_COOKIE_REPLIES,
	/* handshake messages sent with a MAC2 (a cookie was held) */
	NOISE_A_STATS_MAC2_SENT,
	/* handshake messages received under load with a valid MAC2 (device) */
	NOISE_A_STATS_MAC2_ACCEPTED,
	/* Our handshakes as initiator. */
	/* handshakes we began (a first message 1) */
	NOISE_A_STATS_HS_INITIATIONS,
	/* our handshake messages sent again for want of an answer */
	NOISE_A_STATS_HS_RESENT,
	/* handshakes given up (REKEY_ATTEMPT_TIME without a session) */
	NOISE_A_STATS_HS_GIVEN_UP,
	__NOISE_A_STATS_MAX
};

#define NOISE_A_STATS_MAX (__NOISE_A_STATS_MAX - 1)

#endif /* _UAPI_LINUX_NOISE_H */
