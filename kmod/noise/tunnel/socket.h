/* SPDX-License-Identifier: GPL-2.0 */
/* noise tunnel: the UDP sockets of a device (socket.c). */
#ifndef _NOISE_TUNNEL_SOCKET_H
#define _NOISE_TUNNEL_SOCKET_H

#include <linux/skbuff.h>

struct noise_device;
struct noise_peer;
struct noise_endpoint;

/* Room in front of an skb for the outer headers we add. */
#define NOISE_SKB_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr) + 16 + NET_SKB_PAD)

int noise_socket_open(struct noise_device *nd, u16 port);
void noise_socket_close(struct noise_device *nd);
int noise_socket_send_skb(struct noise_peer *peer, struct sk_buff *skb);
bool noise_socket_gso_ok(void);
bool noise_socket_gso_fits(const struct sk_buff *skb, unsigned int n,
			   unsigned int total, unsigned int size);
int noise_socket_send_run(struct noise_peer *peer, struct sk_buff_head *run);
int noise_socket_send_buffer(struct noise_peer *peer, const void *buf,
			     size_t len);
int noise_socket_send_buffer_to(struct noise_device *nd,
				const struct noise_endpoint *ep,
				const void *buf, size_t len);
int noise_endpoint_from_skb(struct noise_endpoint *ep, const struct sk_buff *skb);

#endif /* _NOISE_TUNNEL_SOCKET_H */
