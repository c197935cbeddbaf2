// SPDX-License-Identifier: GPL-2.0
/*
 * noise tunnel: which Noise protocols the tunnel runs, and what a protocol
 * means for the wire (message lengths, hint, overhead, prologue).
 *
 * The lengths come from a calibration handshake with throwaway keys run
 * through the engine when the protocol is configured, so they are exactly
 * what the engine produces for every pattern, modifier and DH.
 */

#include <linux/ipv6.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/udp.h>
#include "device.h"
#include "messages.h"
#include "proto.h"
#include "wg.h"

/* The pattern part of a name: "Noise_<pattern>_<dh>_<cipher>_<hash>". */
static int noise_pattern_of(const char *name, char *out, size_t cap)
{
	const char *p, *end;

	if (strncmp(name, "Noise_", 6))
		return -EINVAL;
	p = name + 6;
	end = strchr(p, '_');
	if (!end || end == p || end - p >= cap)
		return -EINVAL;
	memcpy(out, p, end - p);
	out[end - p] = '\0';
	return 0;
}

/*
 * Must the responder know its peer before it reads message 1? Yes when the
 * initiator's s is a pre-message (K...), or when a psk token is processed
 * by the responder before the message carrying the initiator's s (pskN at
 * the end of message N, psk0 before message 1; s is in message 1 for I...
 * and message 3 for X...).
 */
static bool noise_pattern_hinted(const char *pattern)
{
	const char *m;
	unsigned int s_msg;

	if (pattern[0] == 'K')
		return true;
	s_msg = pattern[0] == 'I' ? 1 : 3;
	for (m = pattern; (m = strstr(m, "psk")); m += 3)
		if (m[3] >= '0' && m[3] <= '9' && (unsigned int)(m[3] - '0') < s_msg)
			return true;
	return false;
}

static int noise_proto_check(const char *name, struct noise_protocol_info *info,
			     struct netlink_ext_ack *extack)
{
	const struct noise_framing_ops *f = noise_framing_by_name(name);

	if (f)		/* a profile: the Noise protocol it runs */
		name = f->construction;
	if (strnlen(name, NOISE_PROTOCOL_NAME_MAX + 1) > NOISE_PROTOCOL_NAME_MAX ||
	    noise_protocol_info(name, info)) {
		NL_SET_ERR_MSG(extack, "unknown Noise protocol");
		return -EINVAL;
	}
	if (info->one_way) {
		NL_SET_ERR_MSG(extack, "one-way pattern: the tunnel needs both directions");
		return -EINVAL;
	}
	if (info->fallback) {
		NL_SET_ERR_MSG(extack, "fallback patterns are not supported by the tunnel");
		return -EINVAL;
	}
	if (!info->needs_local_static[NOISE_INITIATOR]) {
		NL_SET_ERR_MSG(extack, "pattern leaves the initiator anonymous");
		return -EINVAL;
	}
	if (!info->needs_local_static[NOISE_RESPONDER]) {
		NL_SET_ERR_MSG(extack, "pattern leaves the responder anonymous");
		return -EINVAL;
	}
	return 0;
}

/**
 * noise_tunnel_protocol_ok() - can the tunnel run this protocol?
 * @name: a Noise protocol name.
 * @dh_len: out: DHLEN of its DH (key length), may be NULL.
 * @extack: where the reason goes.
 *
 * Context: any (no allocation).
 * Return: 0 or -EINVAL with an extack message.
 */
int noise_tunnel_protocol_ok(const char *name, unsigned int *dh_len,
			     struct netlink_ext_ack *extack)
{
	struct noise_protocol_info info;
	int err = noise_proto_check(name, &info, extack);

	if (!err && dh_len)
		*dh_len = info.dh_len;
	return err;
}
EXPORT_SYMBOL_NS_GPL(noise_tunnel_protocol_ok, NOISE_INTERNAL);

/**
 * noise_tunnel_protocol_info() - the engine's view of a configured name.
 * @name: a Noise protocol name or a profile ("WireGuard").
 * @info: out.
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int noise_tunnel_protocol_info(const char *name, struct noise_protocol_info *info)
{
	const struct noise_framing_ops *f = noise_framing_by_name(name);

	return noise_protocol_info(f ? f->construction : name, info);
}
EXPORT_SYMBOL_NS_GPL(noise_tunnel_protocol_info, NOISE_INTERNAL);

struct noise_calib {
	u8 priv[2][NOISE_MAX_DHLEN], pub[2][NOISE_MAX_DHLEN];
	u8 psks[NOISE_MAX_PSKS][NOISE_PSK_LEN];
	u8 msg[NOISE_MAX_HS_MSG_LEN], payload[NOISE_MAX_HS_MSG_LEN];
	struct noise_handshake *hs[2];
};

static int noise_calib_start(struct noise_calib *c, const struct noise_tunnel_proto *p)
{
	struct noise_keys keys = {
		.psks = (const u8 (*)[NOISE_PSK_LEN])c->psks,
		.num_psks = p->info.num_psks,
	};
	int r, err;

	for (r = 0; r < 2; r++) {
		err = noise_dh_generate(p->info.dh, c->priv[r], c->pub[r]);
		if (err)
			return err;
	}
	for (r = 0; r < 2; r++) {
		keys.local_static = c->priv[r];
		keys.local_static_public = c->pub[r];
		keys.remote_static = c->pub[!r];
		c->hs[r] = noise_handshake_new_from(&p->hs_tmpl, r, &keys, GFP_KERNEL);
		if (IS_ERR(c->hs[r])) {
			err = PTR_ERR(c->hs[r]);
			c->hs[r] = NULL;
			return err;
		}
	}
	return 0;
}

/* Message i (1-based) from @from to the other side; records its length. */
static int noise_calib_step(struct noise_calib *c, struct noise_tunnel_proto *p,
			    unsigned int i, int from)
{
	size_t len, plen, cap = NOISE_MAX_HS_MSG_LEN - sizeof(struct noise_msg_handshake) -
		sizeof(struct noise_msg_hint) - sizeof(struct noise_msg_macs);
	int err;

	if (noise_handshake_next(c->hs[from]) != NOISE_ACTION_WRITE ||
	    noise_handshake_next(c->hs[!from]) != NOISE_ACTION_READ)
		return -EPROTO;
	memset(c->payload, 0, NOISE_TIMESTAMP_LEN);
	err = noise_handshake_write(c->hs[from], c->payload,
				    i == 1 ? NOISE_TIMESTAMP_LEN : 0, c->msg, cap, &len);
	if (err)
		return err;
	err = noise_handshake_read(c->hs[!from], c->msg, len, c->payload,
				   sizeof(c->payload), &plen);
	if (err)
		return err;
	p->noise_len[i] = len;
	p->msg_len[i] = sizeof(struct noise_msg_handshake) + len +
			sizeof(struct noise_msg_macs) +
			(i == 1 && p->hinted ? sizeof(struct noise_msg_hint) : 0);
	p->max_msg_len = max(p->max_msg_len, p->msg_len[i]);
	return 0;
}

static int noise_calibrate(struct noise_tunnel_proto *p)
{
	struct noise_calib *c = kzalloc(sizeof(*c), GFP_KERNEL);
	unsigned int i;
	int err, r;

	if (!c)
		return -ENOMEM;
	err = noise_calib_start(c, p);
	for (i = 1; !err && i <= p->info.num_msgs; i++)
		err = noise_calib_step(c, p, i, (i - 1) & 1);
	if (!err && (noise_handshake_next(c->hs[0]) != NOISE_ACTION_SPLIT ||
		     noise_handshake_next(c->hs[1]) != NOISE_ACTION_SPLIT))
		err = -EPROTO;
	for (r = 0; r < 2; r++)
		noise_handshake_free(c->hs[r]);
	kfree_sensitive(c);
	return err;
}

static void noise_proto_prologue(struct noise_tunnel_proto *p)
{
	size_t pre = sizeof(NOISE_PROLOGUE_PREFIX) - 1, n = strlen(p->name);

	if (p->framing) {
		p->prologue_len = strlen(p->framing->prologue);
		memcpy(p->prologue, p->framing->prologue, p->prologue_len);
		return;
	}

	memcpy(p->prologue, NOISE_PROLOGUE_PREFIX, pre);
	p->prologue[pre] = NOISE_WIRE_VERSION;
	memcpy(p->prologue + pre + 1, p->name, n);
	p->prologue_len = pre + 1 + n;
}

/*
 * The protocols calibrated last, most recent first. What the tunnel needs
 * of a protocol depends on its name alone (and on this module's engine),
 * so making a device (its default protocol) or setting a protocol met
 * recently copies the result instead of running another calibration
 * handshake. Only names that calibrated are kept; a few entries cover the
 * protocols a host runs, and a name not among them calibrates again.
 */
static struct noise_tunnel_proto noise_proto_cache[NOISE_PROTO_CACHE_SIZE];
static unsigned int noise_proto_cache_len;
static DEFINE_MUTEX(noise_proto_cache_lock);

/* Moves entry @i to the front, @n entries being in use after the move. */
static void noise_proto_cache_front(unsigned int i, unsigned int n,
				    const struct noise_tunnel_proto *p)
{
	struct noise_tunnel_proto *c = noise_proto_cache;

	lockdep_assert_held(&noise_proto_cache_lock);
	memmove(&c[1], &c[0], min(i, n - 1) * sizeof(*c));
	c[0] = *p;
	noise_proto_cache_len = n;
}

/* The index of @name among the kept entries, or noise_proto_cache_len. */
static unsigned int noise_proto_cache_find(const char *name)
{
	unsigned int i;

	lockdep_assert_held(&noise_proto_cache_lock);
	for (i = 0; i < noise_proto_cache_len; i++)
		if (!strcmp(noise_proto_cache[i].name, name))
			break;
	return i;
}

static bool noise_proto_cache_get(const char *name, struct noise_tunnel_proto *p)
{
	unsigned int i;
	bool hit;

	mutex_lock(&noise_proto_cache_lock);
	i = noise_proto_cache_find(name);
	hit = i < noise_proto_cache_len;
	if (hit) {
		*p = noise_proto_cache[i];
		noise_proto_cache_front(i, noise_proto_cache_len, p);
	}
	mutex_unlock(&noise_proto_cache_lock);
	return hit;
}

static void noise_proto_cache_put(const struct noise_tunnel_proto *p)
{
	unsigned int i, n;

	mutex_lock(&noise_proto_cache_lock);
	i = noise_proto_cache_find(p->name);
	/* A name met again moves up; a new one pushes the last out. */
	n = noise_proto_cache_len + (i == noise_proto_cache_len);
	noise_proto_cache_front(i, min_t(unsigned int, n, NOISE_PROTO_CACHE_SIZE), p);
	mutex_unlock(&noise_proto_cache_lock);
}

/**
 * noise_tunnel_protocol_cached() - would parsing @name skip the calibration?
 * @name: a protocol name as configured.
 *
 * Context: process, may sleep.
 * Return: true while @name's calibration is kept.
 */
bool noise_tunnel_protocol_cached(const char *name)
{
	bool hit;

	mutex_lock(&noise_proto_cache_lock);
	hit = noise_proto_cache_find(name) < noise_proto_cache_len;
	mutex_unlock(&noise_proto_cache_lock);
	return hit;
}
EXPORT_SYMBOL_NS_GPL(noise_tunnel_protocol_cached, NOISE_INTERNAL);

/**
 * noise_tunnel_protocol_parse() - everything the tunnel needs of a protocol.
 * @name: the protocol name.
 * @p: filled in.
 * @extack: where a refusal is explained.
 *
 * Runs one calibration handshake (a few DH operations) unless @name was
 * calibrated recently.
 * Context: process, may sleep.
 * Return: 0 or -errno.
 */
int noise_tunnel_protocol_parse(const char *name, struct noise_tunnel_proto *p,
				struct netlink_ext_ack *extack)
{
	char pattern[NOISE_PROTOCOL_NAME_MAX + 1];
	int err;

	memset(p, 0, sizeof(*p));
	err = noise_proto_check(name, &p->info, extack);
	if (err)
		return err;
	if (noise_proto_cache_get(name, p))
		return 0;
	p->framing = noise_framing_by_name(name);
	if (noise_pattern_of(p->framing ? p->framing->construction : name, pattern,
			     sizeof(pattern)))
		return -EINVAL;
	strscpy(p->name, name, sizeof(p->name));
	p->hinted = noise_pattern_hinted(pattern);
	p->overhead = sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
		      sizeof(struct noise_msg_transport) + NOISE_TAG_LEN;
	noise_proto_prologue(p);
	err = noise_handshake_template_init(&p->hs_tmpl, noise_proto_hs_name(p),
					    p->prologue, p->prologue_len);
	if (!err)
		err = noise_calibrate(p);
	if (err) {
		NL_SET_ERR_MSG(extack, "the engine cannot run this protocol");
		return err;
	}
	noise_proto_cache_put(p);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(noise_tunnel_protocol_parse, NOISE_INTERNAL);
