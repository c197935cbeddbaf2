// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl setconf|addconf|syncconf DEV FILE
 *
 * setconf replaces the configuration (peers not in FILE are removed),
 * addconf adds to it, syncconf reads the device first and sends only what
 * differs, so that peers left unchanged keep their sessions.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dh.h"
#include "netlink.h"
#include "pskid.h"
#include "subcommands.h"

enum conf_mode { CONF_SET, CONF_ADD, CONF_SYNC };

static struct noise_peer *copy_peer(struct noise_device *dev,
				    const struct noise_peer *src, bool with_ips)
{
	struct noise_peer *p = device_add_peer(dev);

	*p = *src;
	p->stats = NULL;
	p->psks = NULL;
	if (src->psks)
		memcpy(peer_psk(p, 0), src->psks,
		       NOISE_PEER_PSK_MAX * NOISE_PSK_KEY_LEN);
	p->ips = NULL;
	p->n_ips = 0;
	p->cap_ips = 0;
	if (with_ips) {
		size_t i;

		for (i = 0; i < src->n_ips; i++)
			*peer_add_ip(p) = src->ips[i];
	}
	return p;
}

static bool same_endpoint(const union noise_endpoint *a,
			  const union noise_endpoint *b)
{
	if (a->addr.sa_family != b->addr.sa_family)
		return false;
	if (a->addr.sa_family == AF_INET)
		return a->addr4.sin_port == b->addr4.sin_port &&
		       a->addr4.sin_addr.s_addr == b->addr4.sin_addr.s_addr;
	if (a->addr.sa_family == AF_INET6)
		return a->addr6.sin6_port == b->addr6.sin6_port &&
		       !memcmp(&a->addr6.sin6_addr, &b->addr6.sin6_addr,
			       sizeof(a->addr6.sin6_addr));
	return true;
}

/* The allowed IPs as the kernel keeps them: prefixes, sorted, unique. */
static struct noise_allowedip *canonical_ips(const struct noise_peer *p,
					     size_t *n)
{
	struct noise_allowedip *ips = calloc(p->n_ips + 1, sizeof(*ips));
	size_t i, o = 0;

	if (!ips)
		die_oom();
	for (i = 0; i < p->n_ips; i++) {
		ips[i] = p->ips[i];
		allowedip_canonicalize(&ips[i]);
	}
	qsort(ips, p->n_ips, sizeof(*ips), allowedip_cmp);
	for (i = 0; i < p->n_ips; i++)
		if (!o || allowedip_cmp(&ips[o - 1], &ips[i]))
			ips[o++] = ips[i];
	*n = o;
	return ips;
}

static bool same_ips(const struct noise_peer *a, const struct noise_peer *b)
{
	struct noise_allowedip *x, *y;
	size_t nx, ny, i;
	bool same;

	x = canonical_ips(a, &nx);
	y = canonical_ips(b, &ny);
	same = nx == ny;
	for (i = 0; same && i < nx; i++)
		same = !allowedip_cmp(&x[i], &y[i]);
	free(x);
	free(y);
	return same;
}

/* Do want's preshared keys match the kernel's fingerprint in cur? */
static bool same_psks(const struct noise_peer *want,
		      const struct noise_peer *cur, const char *protocol)
{
	u8 psks[NOISE_PEER_PSK_MAX][NOISE_PSK_KEY_LEN], id[NOISE_PSK_ID_LEN];
	int tokens = protocol_psk_tokens(protocol), n = want->n_psks, i;
	bool same;

	if (!n)
		return !cur->has_psk_id;
	if (!cur->has_psk_id)
		return false;
	if (n == 1 && tokens > 1) {
		for (i = 0; i < tokens; i++)
			memcpy(psks[i], want->psks, NOISE_PSK_KEY_LEN);
		n = tokens;
	} else {
		memcpy(psks, want->psks, (size_t)n * NOISE_PSK_KEY_LEN);
	}
	same = psk_id(id, want->public_key, want->key_len,
		      (const u8 (*)[NOISE_PSK_KEY_LEN])psks, n) &&
	       !memcmp(id, cur->psk_id, sizeof(id));
	explicit_bzero(psks, sizeof(psks));
	return same;
}

/*
 * want's private key into req, always: it cannot be read back, and telling
 * whether it is the device's would take a scalar multiplication here, that
 * is libcrypto loaded (tens of milliseconds of a syncconf's start under
 * UML). The kernel compares it with its own and changes nothing, sessions
 * included, when it is the same.
 */
static void diff_private_key(struct noise_device *req,
			     const struct noise_device *want)
{
	req->has_private_key = true;
	req->private_key_len = want->private_key_len;
	memcpy(req->private_key, want->private_key, want->private_key_len);
}

/* The [Interface] settings of want that cur does not have yet. */
static void diff_interface(struct noise_device *req,
			   const struct noise_device *want,
			   const struct noise_device *cur)
{
	if (want->has_private_key)
		diff_private_key(req, want);
	/* ListenPort 0 or absent: any port, so the current one will do. */
	if (want->has_listen_port && want->listen_port &&
	    want->listen_port != cur->listen_port) {
		req->has_listen_port = true;
		req->listen_port = want->listen_port;
	}
	if (want->fwmark != cur->fwmark) {
		req->has_fwmark = true;
		req->fwmark = want->fwmark;
	}
}

/* The peer of dev with the public key of p, or NULL. */
static struct noise_peer *peer_in(const struct noise_device *dev,
				  const struct noise_peer *p)
{
	return device_find_peer((struct noise_device *)dev, p->public_key,
				p->key_len);
}

/* A removal in req of the peer with c's public key. */
static void remove_peer(struct noise_device *req, const struct noise_peer *c)
{
	struct noise_peer *p = device_add_peer(req);

	memcpy(p->public_key, c->public_key, c->key_len);
	p->key_len = c->key_len;
	p->flags = NOISE_PEER_FLAG_REMOVE_ME;
}

/* An update-only peer in req with what of w differs from c, if anything. */
static void diff_peer(struct noise_device *req, const struct noise_peer *w,
		      const struct noise_peer *c, const char *protocol)
{
	struct noise_peer *p;
	bool ka, ep, ips, psks;

	ep = w->has_endpoint && !same_endpoint(&w->endpoint, &c->endpoint);
	ka = w->keepalive != c->keepalive;
	ips = !same_ips(w, c);
	psks = w->has_psks && !same_psks(w, c, protocol);
	if (!ep && !ka && !ips && !psks)
		return;
	p = copy_peer(req, w, ips);
	p->flags = NOISE_PEER_FLAG_UPDATE_ONLY;
	p->has_endpoint = ep;
	p->has_keepalive = ka;
	if (ips)
		p->flags |= NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS;
	p->has_psks = psks;
	if (psks)
		p->flags |= NOISE_PEER_FLAG_REPLACE_PSKS;
	else
		peer_forget_psks(p);
}

/* cur's peers that want lacks are removed; want's are added or updated. */
static void diff_peers(struct noise_device *req,
		       const struct noise_device *want,
		       const struct noise_device *cur)
{
	size_t i;

	for (i = 0; i < cur->n_peers; i++)
		if (!peer_in(want, &cur->peers[i]))
			remove_peer(req, &cur->peers[i]);
	for (i = 0; i < want->n_peers; i++) {
		const struct noise_peer *w = &want->peers[i];
		const struct noise_peer *c = peer_in(cur, w);

		if (c)
			diff_peer(req, w, c, want->protocol);
		else
			copy_peer(req, w, true);
	}
}

/*
 * The request that turns cur into want, leaving alone what is equal.
 * NULL when only a full setconf can do it (the protocol changes).
 */
struct noise_device *syncconf_diff(const struct noise_device *want,
				   const struct noise_device *cur)
{
	struct noise_device *req;

	if (strcmp(want->protocol, cur->protocol))
		return NULL;
	req = device_new();
	memcpy(req->ifname, want->ifname, sizeof(req->ifname));
	diff_interface(req, want, cur);
	diff_peers(req, want, cur);
	return req;
}

bool syncconf_is_empty(const struct noise_device *req)
{
	return !req->has_protocol && !req->has_private_key &&
	       !req->has_listen_port && !req->has_fwmark && !req->n_peers;
}

/*
 * The protocol of a file without Protocol line (setconf, syncconf), given
 * the device as it is (now, NULL if unknown): a WireGuard-profile device
 * stays one (a `wg` configuration file is taken unchanged), any other gets
 * the default. A warning line when the device changes protocol for that,
 * and when a device with no key and no peer (a new one) gets the default:
 * whoever sets it up with a `wg` file may expect it to talk to WireGuard.
 */
const char *conf_default_protocol(const struct noise_device *now,
				  const char *path)
{
	if (!now)
		return NOISE_DEFAULT_PROTOCOL;
	if (!strcmp(now->protocol, PROFILE_WIREGUARD))
		return PROFILE_WIREGUARD;
	if (strcmp(now->protocol, NOISE_DEFAULT_PROTOCOL))
		fprintf(stderr,
			"%s: warning: %s has no Protocol: %s changes from %s to %s\n",
			prog, path, now->ifname, now->protocol,
			NOISE_DEFAULT_PROTOCOL);
	else if (!now->public_key_len && !now->n_peers)
		fprintf(stderr,
			"%s: warning: %s has no Protocol: %s runs %s, not the WireGuard profile (Protocol = WireGuard talks to wg peers)\n",
			prog, path, now->ifname, NOISE_DEFAULT_PROTOCOL);
	return NOISE_DEFAULT_PROTOCOL;
}

/* The file is the whole configuration: defaults for what it leaves out. */
static void conf_defaults(struct noise_device *dev, const char *path,
			  enum conf_mode mode)
{
	struct noise_device *now;

	if (mode == CONF_ADD)
		return;
	if (!dev->has_protocol) {
		now = noise_get_device(dev->ifname);
		snprintf(dev->protocol, sizeof(dev->protocol), "%s",
			 conf_default_protocol(now, path));
		dev->has_protocol = true;
		device_free(now);
	}
	dev->has_fwmark = true;
	if (mode == CONF_SET) {
		dev->flags |= NOISE_DEVICE_FLAG_REPLACE_PEERS;
		dev->has_listen_port = true;
	}
}

static int conf_main(int argc, char *argv[], enum conf_mode mode)
{
	struct noise_device *dev, *cur = NULL, *req = NULL;
	int ret = 1;

	if (argc != 3) {
		fprintf(stderr, "Usage: %s %s <interface> <configuration file>\n",
			prog, argv[0]);
		return 1;
	}
	if (strlen(argv[1]) >= IFNAMSIZ) {
		fprintf(stderr, "%s: %s: '%s' is not an interface name\n", prog,
			argv[0], argv[1]);
		return 1;
	}
	dev = config_read_file(argv[2]);
	if (!dev)
		return 1;
	snprintf(dev->ifname, sizeof(dev->ifname), "%s", argv[1]);
	conf_defaults(dev, argv[2], mode);
	if (!config_check(dev, argv[2]))
		goto out;
	if (mode == CONF_SYNC) {
		cur = noise_get_device(dev->ifname);
		if (!cur)
			goto out;
		req = syncconf_diff(dev, cur);
		if (!req) {
			/* Another protocol: no session survives; replace all. */
			dev->flags |= NOISE_DEVICE_FLAG_REPLACE_PEERS;
		} else if (syncconf_is_empty(req)) {
			ret = 0;
			goto out;
		}
	}
	if (noise_set_device(req ?: dev))
		ret = 0;
out:
	device_free(req);
	device_free(cur);
	device_free(dev);
	return ret;
}

int setconf_main(int argc, char *argv[])
{
	return conf_main(argc, argv, CONF_SET);
}

int addconf_main(int argc, char *argv[])
{
	return conf_main(argc, argv, CONF_ADD);
}

int syncconf_main(int argc, char *argv[])
{
	return conf_main(argc, argv, CONF_SYNC);
}
