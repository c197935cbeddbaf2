// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: the WireGuard profile's framing (Documentation/wireguard.rst).
 *
 * WireGuard is Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s with the prologue
 * "WireGuard v1 zx2c4 Jason@zx2c4.com", a 12-byte TAI64N timestamp as the
 * payload of message 1 and an empty payload in message 2; our engine runs
 * exactly that. What differs from the tunnel's own framing is only the
 * wire: a type word instead of our header (initiation 148 bytes, response
 * 92, cookie reply 64, data header 16), no receiver index in message 1,
 * MAC1/MAC2 keyed by the *receiver's* static key with WireGuard's labels,
 * and no associated data in transport messages. The ops below translate at
 * the edges; everything else (peers, indices, sessions, replay windows,
 * timers, routing) is the tunnel's code.
 */

#include "../compat.h"	/* first: get_unaligned_le32() on 6.1 and 6.12 */
#include <linux/skbuff.h>
#include <linux/string.h>
#include "cookie.h"
#include "device.h"
#include "wg.h"

static_assert(sizeof(NOISE_WG_IDENTIFIER) - 1 <=
	      sizeof_field(struct noise_tunnel_proto, prologue));

/* Type and length; nothing else is looked at before the MACs. */
static enum noise_drop noise_wg_rx_check(const u8 *msg, unsigned int len, u8 *type)
{
	if (len < sizeof(__le32))
		return NOISE_DROP_BAD_LENGTH;
	switch (get_unaligned_le32(msg)) {
	case NOISE_WG_MSG_INITIATION:
		*type = NOISE_MSG_HANDSHAKE;
		return len == NOISE_WG_INITIATION_LEN ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_WG_MSG_RESPONSE:
		*type = NOISE_MSG_HANDSHAKE;
		return len == NOISE_WG_RESPONSE_LEN ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_WG_MSG_COOKIE_REPLY:
		*type = NOISE_MSG_COOKIE_REPLY;
		return len == NOISE_WG_COOKIE_REPLY_LEN ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	case NOISE_WG_MSG_DATA:
		*type = NOISE_MSG_TRANSPORT;
		return len >= NOISE_WG_DATA_MIN_LEN ? NOISE_MSG_OK : NOISE_DROP_BAD_LENGTH;
	default:
		return NOISE_DROP_BAD_TYPE;
	}
}

static void noise_wg_native_header(u8 *msg, u8 msgno)
{
	struct noise_msg_header *h = (void *)msg;

	h->type = NOISE_MSG_HANDSHAKE;
	h->version = NOISE_WIRE_VERSION;
	h->msgno = msgno;
	h->reserved = 0;
}

/*
 * Its MACs passed noise_cookie_admit() (keyed by our own static key with
 * WireGuard's labels: mac1, and under load mac2 or a cookie reply, as
 * WireGuard); now the native layout: message 1 gains a zero receiver
 * index after the sender index (4 bytes pushed), message 2 keeps its
 * layout.
 */
static int noise_wg_rx_handshake(struct noise_device *nd, struct noise_identity *id,
				 struct sk_buff *skb)
{
	u32 type = get_unaligned_le32(skb->data);

	if (type == NOISE_WG_MSG_RESPONSE) {
		noise_wg_native_header(skb->data, 2);
		return 0;
	}
	if (skb_cow_head(skb, sizeof(__le32)))
		return -ENOMEM;
	skb_push(skb, sizeof(__le32));
	/* type and sender index move to the front; receiver index 0 */
	memmove(skb->data, skb->data + sizeof(__le32), 2 * sizeof(__le32));
	noise_wg_native_header(skb->data, 1);
	put_unaligned_le32(0, skb->data + 2 * sizeof(__le32));
	return 0;
}

/* WireGuard's cookie reply: type 3 as a little-endian word. */
static void noise_wg_cookie_header(u8 hdr[4])
{
	put_unaligned_le32(NOISE_WG_MSG_COOKIE_REPLY, hdr);
}

/*
 * hs_glue.c wrote a native message (header, sender, receiver, Noise message,
 * room for the MACs): WireGuard's layout (hs_glue.c adds the MACs after).
 */
static unsigned int noise_wg_hs_layout(u8 *msg, unsigned int len)
{
	u8 msgno = ((struct noise_msg_header *)msg)->msgno;

	if (msgno == 1) {
		memmove(msg + 2 * sizeof(__le32), msg + 3 * sizeof(__le32),
			len - 3 * sizeof(__le32));
		len -= sizeof(__le32);
		put_unaligned_le32(NOISE_WG_MSG_INITIATION, msg);
	} else {
		put_unaligned_le32(NOISE_WG_MSG_RESPONSE, msg);
	}
	return len;
}

static void noise_wg_data_header(u8 hdr[4])
{
	put_unaligned_le32(NOISE_WG_MSG_DATA, hdr);
}

const struct noise_framing_ops noise_wg_framing = {
	.profile = NOISE_WG_PROFILE,
	.construction = NOISE_WG_CONSTRUCTION,
	.prologue = NOISE_WG_IDENTIFIER,
	.label_mac1 = NOISE_WG_LABEL_MAC1,
	.label_cookie = NOISE_WG_LABEL_COOKIE,
	.rx_check = noise_wg_rx_check,
	.rx_handshake = noise_wg_rx_handshake,
	.cookie_header = noise_wg_cookie_header,
	.hs_layout = noise_wg_hs_layout,
	.data_header = noise_wg_data_header,
	.data_ad = false,
	.fresh_retry = true,
};
EXPORT_SYMBOL_NS_GPL(noise_wg_framing, NOISE_INTERNAL);

/**
 * noise_framing_by_name() - the framing of a configured protocol name.
 * @name: what the user configured.
 *
 * Context: any.
 * Return: the ops of a profile ("WireGuard"), or NULL (a Noise protocol
 * name in the native framing).
 */
const struct noise_framing_ops *noise_framing_by_name(const char *name)
{
	return strcmp(name, NOISE_WG_PROFILE) ? NULL : &noise_wg_framing;
}
EXPORT_SYMBOL_NS_GPL(noise_framing_by_name, NOISE_INTERNAL);

/**
 * noise_framing_labels() - the labels of @p's MAC and cookie keys.
 * @p: a protocol (its framing chooses them; native: ours).
 * @mac1: out: the label of the mac1 key.
 * @cookie: out: the label of the cookie key.
 *
 * Context: any.
 */
void noise_framing_labels(const struct noise_tunnel_proto *p, const char **mac1,
			  const char **cookie)
{
	*mac1 = p->framing ? p->framing->label_mac1 : NOISE_LABEL_MAC1;
	*cookie = p->framing ? p->framing->label_cookie : NOISE_LABEL_COOKIE;
}
EXPORT_SYMBOL_NS_GPL(noise_framing_labels, NOISE_INTERNAL);
