// SPDX-License-Identifier: GPL-2.0
/*
 * Config files and `set` arguments into a struct noise_device.
 *
 * The file format is wg's: sections [Interface] and [Peer], "Key = Value"
 * lines, '#' comments, keys case-insensitive, all whitespace in a line
 * ignored. Every error is one line naming the file and the line.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "config.h"
#include "dh.h"
#include "encoding.h"

struct config_ctx {
	const char *path;		/* NULL: the command line */
	int line;
	struct noise_device *dev;
	struct noise_peer *peer;	/* the current [Peer], or NULL */
	bool in_interface;
};

static void config_err(const struct config_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->path)
		fprintf(stderr, "%s: %s:%d: ", prog, ctx->path, ctx->line);
	else
		fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A base64 key of one of the DH lengths (or a PSK: same as 25519). */
bool parse_key(u8 *key, size_t *len, const char *value)
{
	const struct dh_func *dh = dh_by_b64_len(strlen(value));

	if (!dh)
		return false;
	*len = dh->len;
	return key_from_base64(key, dh->len, value);
}

static bool parse_u32(u32 *out, const char *value, int base, u32 max)
{
	unsigned long long v;
	char *end;

	if (!*value || *value == '-' || *value == '+')
		return false;
	errno = 0;
	v = strtoull(value, &end, base);
	if (errno || *end || v > max)
		return false;
	*out = (u32)v;
	return true;
}

static bool parse_port(u16 *port, const char *value)
{
	u32 v;

	if (!parse_u32(&v, value, 10, 65535))
		return false;
	*port = (u16)v;
	return true;
}

static bool parse_keepalive(u16 *ka, const char *value)
{
	if (!strcasecmp(value, "off")) {
		*ka = 0;
		return true;
	}
	return parse_port(ka, value);
}

static bool parse_fwmark(u32 *mark, const char *value)
{
	if (!strcasecmp(value, "off")) {
		*mark = 0;
		return true;
	}
	return parse_u32(mark, value, 0, UINT32_MAX);
}

const char *protocol_canonical(const char *name)
{
	return strcasecmp(name, PROFILE_WIREGUARD) ? name : PROFILE_WIREGUARD;
}

bool parse_protocol(const char *name, char *err, size_t errlen)
{
	size_t len = strlen(name);
	int fields = 1;
	const char *p;

	if (!strcasecmp(name, PROFILE_WIREGUARD))
		return true;
	if (len > NOISE_PROTOCOL_NAME_MAX) {
		snprintf(err, errlen, "protocol name longer than %d characters",
			 NOISE_PROTOCOL_NAME_MAX);
		return false;
	}
	for (p = name; *p; p++) {
		if (*p == '_')
			fields++;
		else if (!isalnum((unsigned char)*p) && *p != '+' && *p != '/')
			break;
	}
	if (strncmp(name, "Noise_", 6) || *p || fields != 5) {
		snprintf(err, errlen,
			 "'%s' is not a Noise protocol name (Noise_<pattern>_<dh>_<cipher>_<hash>) or WireGuard",
			 name);
		return false;
	}
	if (!dh_by_protocol(name)) {
		snprintf(err, errlen, "protocol '%s': DH must be 25519 or 448",
			 name);
		return false;
	}
	return true;
}

/*
 * Split "host:port" or "[v6]:port" into host (a string of hostlen bytes
 * at most) and the port's text, which points into value.
 */
static bool split_endpoint(const char *value, char *host, size_t hostlen,
			   const char **port, char *err, size_t errlen)
{
	size_t hlen;

	if (value[0] == '[') {
		const char *end = strchr(value, ']');

		if (!end || end[1] != ':') {
			snprintf(err, errlen,
				 "endpoint '%s': expected [IPv6]:port", value);
			return false;
		}
		hlen = end - value - 1;
		memmove(host, value + 1, hlen < hostlen ? hlen : 0);
		*port = end + 2;
	} else {
		*port = strrchr(value, ':');
		if (!*port || *port == value) {
			snprintf(err, errlen,
				 "endpoint '%s': expected host:port", value);
			return false;
		}
		hlen = *port - value;
		memmove(host, value, hlen < hostlen ? hlen : 0);
		(*port)++;
	}
	if (hlen >= hostlen || !hlen) {
		snprintf(err, errlen, "endpoint '%s': bad host", value);
		return false;
	}
	host[hlen] = '\0';
	return true;
}

/* The first address host:port resolves to, IPv4 or IPv6. */
static bool resolve_endpoint(union noise_endpoint *ep, const char *host,
			     const char *port, const char *value,
			     char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_DGRAM,
		.ai_protocol = IPPROTO_UDP,
		.ai_flags = AI_NUMERICSERV,
	};
	struct addrinfo *res;
	int ret;

	ret = getaddrinfo(host, port, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "endpoint '%s': %s", value,
			 gai_strerror(ret));
		return false;
	}
	memset(ep, 0, sizeof(*ep));
	if (res->ai_family == AF_INET && res->ai_addrlen == sizeof(ep->addr4))
		memcpy(&ep->addr4, res->ai_addr, sizeof(ep->addr4));
	else if (res->ai_family == AF_INET6 &&
		 res->ai_addrlen == sizeof(ep->addr6))
		memcpy(&ep->addr6, res->ai_addr, sizeof(ep->addr6));
	else
		ret = -1;
	freeaddrinfo(res);
	if (ret) {
		snprintf(err, errlen, "endpoint '%s': not IPv4 or IPv6", value);
		return false;
	}
	return true;
}

/* Protocol (file) or protocol (set): checked, then the device's. */
static bool set_protocol(struct noise_device *dev, const char *name,
			 char *err, size_t errlen)
{
	if (!parse_protocol(name, err, errlen))
		return false;
	snprintf(dev->protocol, sizeof(dev->protocol), "%s",
		 protocol_canonical(name));
	dev->has_protocol = true;
	return true;
}

/* Drop every blank of s, in place. */
static void strip_blanks(char *s)
{
	char *d;

	for (d = s; *s; s++)
		if (!isspace((unsigned char)*s))
			*d++ = *s;
	*d = '\0';
}

/* "host:port" or "[v6]:port"; the host may be a name. */
bool parse_endpoint(union noise_endpoint *ep, const char *value,
		    char *err, size_t errlen)
{
	const char *port;
	char host[256];
	u16 p;

	if (!split_endpoint(value, host, sizeof(host), &port, err, errlen))
		return false;
	if (!parse_port(&p, port) || !p) {
		snprintf(err, errlen, "endpoint '%s': bad port '%s'", value,
			 port);
		return false;
	}
	return resolve_endpoint(ep, host, port, value, err, errlen);
}

/* A comma-separated list of CIDRs, appended to the peer's allowed IPs. */
bool parse_allowedips(struct noise_peer *peer, const char *value,
		      char *err, size_t errlen)
{
	char *copy = strdup(value), *tok, *save = NULL;
	bool ok = true;

	if (!copy)
		die_oom();
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct noise_allowedip ip = { 0 };
		char *slash = strchr(tok, '/');
		u32 cidr, max;

		if (slash)
			*slash = '\0';
		if (inet_pton(AF_INET, tok, &ip.ip4) == 1) {
			ip.family = AF_INET;
			max = 32;
		} else if (inet_pton(AF_INET6, tok, &ip.ip6) == 1) {
			ip.family = AF_INET6;
			max = 128;
		} else {
			snprintf(err, errlen, "allowed IP '%s' is not an address",
				 tok);
			ok = false;
			break;
		}
		cidr = max;
		if (slash && !parse_u32(&cidr, slash + 1, 10, max)) {
			snprintf(err, errlen, "allowed IP '%s/%s': prefix length must be 0 to %u",
				 tok, slash + 1, max);
			ok = false;
			break;
		}
		ip.cidr = (u8)cidr;
		*peer_add_ip(peer) = ip;
	}
	free(copy);
	return ok;
}

/*
 * A decoded key may be a 448 one (56 bytes): it is read into room for any
 * key, and only a 32-byte one goes on to the peer's preshared keys.
 */
static bool add_psk(struct config_ctx *ctx, struct noise_peer *peer,
		    const char *value)
{
	u8 key[NOISE_MAX_KEY_LEN];
	size_t len;
	bool ok;

	if (peer->n_psks == NOISE_PEER_PSK_MAX) {
		config_err(ctx, "more than %d preshared keys",
			   NOISE_PEER_PSK_MAX);
		return false;
	}
	ok = parse_key(key, &len, value) && len == NOISE_PSK_KEY_LEN;
	if (ok)
		memcpy(peer_psk(peer, peer->n_psks), key, NOISE_PSK_KEY_LEN);
	explicit_bzero(key, sizeof(key));
	if (!ok) {
		config_err(ctx, "PresharedKey is not a base64 32-byte key");
		return false;
	}
	if (!peer->has_psks)
		peer->psk_line = ctx->line;
	peer->has_psks = true;
	peer->flags |= NOISE_PEER_FLAG_REPLACE_PSKS;
	peer->n_psks++;
	return true;
}

static bool new_peer(struct config_ctx *ctx)
{
	ctx->peer = device_add_peer(ctx->dev);
	ctx->peer->line = ctx->line;
	ctx->peer->flags = NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS;
	return true;
}

/* A finished [Peer] must have a key, and only one section per key. */
static bool finish_peer(struct config_ctx *ctx)
{
	struct noise_peer *peer = ctx->peer, *first;
	struct config_ctx at = *ctx;

	if (!peer)
		return true;
	ctx->peer = NULL;
	at.line = peer->line;
	if (!peer->key_len) {
		config_err(&at, "[Peer] without PublicKey");
		return false;
	}
	/* The peers before this one all have a key, each its own. */
	first = device_find_peer(ctx->dev, peer->public_key, peer->key_len);
	if (first != peer) {
		config_err(&at, "a second [Peer] with the PublicKey of line %d",
			   first->line);
		return false;
	}
	return true;
}

static bool interface_line(struct config_ctx *ctx, const char *key,
			   const char *value)
{
	struct noise_device *dev = ctx->dev;
	char err[512];

	if (!strcasecmp(key, "Protocol")) {
		if (!set_protocol(dev, value, err, sizeof(err))) {
			config_err(ctx, "%s", err);
			return false;
		}
		dev->protocol_line = ctx->line;
	} else if (!strcasecmp(key, "PrivateKey")) {
		if (!parse_key(dev->private_key, &dev->private_key_len, value)) {
			config_err(ctx, "PrivateKey is not a base64 25519 or 448 key");
			return false;
		}
		dev->has_private_key = true;
		dev->private_key_line = ctx->line;
	} else if (!strcasecmp(key, "ListenPort")) {
		if (!parse_port(&dev->listen_port, value)) {
			config_err(ctx, "ListenPort '%s' is not 0 to 65535", value);
			return false;
		}
		dev->has_listen_port = true;
	} else if (!strcasecmp(key, "FwMark")) {
		if (!parse_fwmark(&dev->fwmark, value)) {
			config_err(ctx, "FwMark '%s' is not a 32-bit number or off",
				   value);
			return false;
		}
		dev->has_fwmark = true;
	} else {
		config_err(ctx, "unknown key '%s' in [Interface]", key);
		return false;
	}
	return true;
}

static bool peer_line(struct config_ctx *ctx, const char *key,
		      const char *value)
{
	struct noise_peer *peer = ctx->peer;
	char err[512];

	if (!strcasecmp(key, "PublicKey")) {
		if (peer->key_len) {
			config_err(ctx, "a second PublicKey in this [Peer]");
			return false;
		}
		if (!parse_key(peer->public_key, &peer->key_len, value)) {
			peer->key_len = 0;
			config_err(ctx, "PublicKey is not a base64 25519 or 448 key");
			return false;
		}
		peer->line = ctx->line;
	} else if (!strcasecmp(key, "PresharedKey")) {
		return add_psk(ctx, peer, value);
	} else if (!strcasecmp(key, "Endpoint")) {
		if (!parse_endpoint(&peer->endpoint, value, err, sizeof(err))) {
			config_err(ctx, "%s", err);
			return false;
		}
		peer->has_endpoint = true;
	} else if (!strcasecmp(key, "AllowedIPs")) {
		if (!parse_allowedips(peer, value, err, sizeof(err))) {
			config_err(ctx, "%s", err);
			return false;
		}
	} else if (!strcasecmp(key, "PersistentKeepalive")) {
		if (!parse_keepalive(&peer->keepalive, value)) {
			config_err(ctx, "PersistentKeepalive '%s' is not 0 to 65535 or off",
				   value);
			return false;
		}
		peer->has_keepalive = true;
	} else {
		config_err(ctx, "unknown key '%s' in [Peer]", key);
		return false;
	}
	return true;
}

static bool config_line(struct config_ctx *ctx, char *line)
{
	char *hash, *eq;

	/* Drop the comment, then every blank. */
	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	strip_blanks(line);
	if (!*line)
		return true;

	if (line[0] == '[') {
		if (!finish_peer(ctx))
			return false;
		ctx->in_interface = false;
		if (!strcasecmp(line, "[Interface]")) {
			ctx->in_interface = true;
			return true;
		}
		if (!strcasecmp(line, "[Peer]"))
			return new_peer(ctx);
		config_err(ctx, "unknown section '%s' ([Interface] or [Peer])",
			   line);
		return false;
	}
	eq = strchr(line, '=');
	if (!eq || eq == line) {
		config_err(ctx, "expected 'Key = Value', got '%s'", line);
		return false;
	}
	*eq = '\0';
	if (ctx->in_interface)
		return interface_line(ctx, line, eq + 1);
	if (ctx->peer)
		return peer_line(ctx, line, eq + 1);
	config_err(ctx, "'%s' outside of [Interface] or [Peer]", line);
	return false;
}

struct noise_device *config_read(FILE *f, const char *path)
{
	struct config_ctx ctx = { .path = path };
	char *line = NULL;
	size_t cap = 0;
	bool ok = true;

	ctx.dev = device_new();
	while (ok && getline(&line, &cap, f) >= 0) {
		ctx.line++;
		ok = config_line(&ctx, line);
	}
	if (line) {
		explicit_bzero(line, cap);
		free(line);
	}
	if (ok && ferror(f)) {
		config_err(&ctx, "read error");
		ok = false;
	}
	if (ok)
		ok = finish_peer(&ctx);
	if (!ok) {
		device_free(ctx.dev);
		return NULL;
	}
	return ctx.dev;
}

bool config_has_secrets(const struct noise_device *dev)
{
	size_t i;

	if (dev->has_private_key)
		return true;
	for (i = 0; i < dev->n_peers; i++)
		if (dev->peers[i].n_psks)
			return true;
	return false;
}

void config_warn_mode(const struct noise_device *dev, const char *path,
		      mode_t mode)
{
	if (S_ISREG(mode) && (mode & 0044) && config_has_secrets(dev))
		fprintf(stderr,
			"%s: warning: %s holds a private or preshared key and is readable by group or others (chmod 600 it)\n",
			prog, path);
}

struct noise_device *config_read_file(const char *path)
{
	struct noise_device *dev;
	FILE *f = fopen(path, "r");
	struct stat st;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return NULL;
	}
	dev = config_read(f, path);
	if (dev && !fstat(fileno(f), &st))
		config_warn_mode(dev, path, st.st_mode);
	fclose(f);
	return dev;
}

/*
 * The base64 key in file path: the first word (blank: an empty key, which
 * removes). Returns 0 for empty, 1 for a key, -1 after an error line.
 */
static int read_key_file(const struct config_ctx *ctx, const char *what,
			 const char *path, u8 *key, size_t *len)
{
	char buf[128], word[128];
	FILE *f = fopen(path, "r");
	size_t n;
	int ret;

	if (!f) {
		config_err(ctx, "%s %s: %s", what, path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	ret = sscanf(buf, "%127s", word) == 1;
	if (ret && (n == sizeof(buf) - 1 || !parse_key(key, len, word))) {
		config_err(ctx, "%s %s: not a base64 key", what, path);
		ret = -1;
	}
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(word, sizeof(word));
	return ret;
}

/*
 * One `set` argument and its value, for the device (peer NULL) or a peer:
 * 1 taken, 0 not one of these, -1 after an error line.
 */
static int cmd_device_arg(struct config_ctx *ctx, const char *arg,
			  const char *val)
{
	struct noise_device *dev = ctx->dev;
	char err[512];
	int r;

	if (!strcmp(arg, "protocol")) {
		if (!set_protocol(dev, val, err, sizeof(err))) {
			config_err(ctx, "set: %s", err);
			return -1;
		}
	} else if (!strcmp(arg, "private-key")) {
		r = read_key_file(ctx, "private-key", val, dev->private_key,
				  &dev->private_key_len);
		if (r < 0)
			return -1;
		dev->has_private_key = true;
		/* Empty: all zeros (removes), length fixed by config_check. */
		if (!r)
			dev->private_key_len = 0;
	} else if (!strcmp(arg, "listen-port")) {
		if (!parse_port(&dev->listen_port, val)) {
			config_err(ctx, "set: listen-port '%s' is not 0 to 65535", val);
			return -1;
		}
		dev->has_listen_port = true;
	} else if (!strcmp(arg, "fwmark")) {
		if (!parse_fwmark(&dev->fwmark, val)) {
			config_err(ctx, "set: fwmark '%s' is not a 32-bit number or off",
				   val);
			return -1;
		}
		dev->has_fwmark = true;
	} else {
		return 0;
	}
	return 1;
}

static int cmd_peer_psk(struct config_ctx *ctx, struct noise_peer *peer,
			const char *val)
{
	u8 key[NOISE_MAX_KEY_LEN];	/* as in add_psk() */
	size_t len = 0;
	int r;

	if (peer->n_psks == NOISE_PEER_PSK_MAX) {
		config_err(ctx, "set: more than %d preshared keys",
			   NOISE_PEER_PSK_MAX);
		return -1;
	}
	r = read_key_file(ctx, "preshared-key", val, key, &len);
	if (r > 0 && len == NOISE_PSK_KEY_LEN)
		memcpy(peer_psk(peer, peer->n_psks), key, NOISE_PSK_KEY_LEN);
	explicit_bzero(key, sizeof(key));
	if (r < 0)
		return -1;
	if (r && len != NOISE_PSK_KEY_LEN) {
		config_err(ctx, "set: preshared-key %s: not a 32-byte key", val);
		return -1;
	}
	peer->has_psks = true;
	peer->flags |= NOISE_PEER_FLAG_REPLACE_PSKS;
	peer->n_psks += r;
	return 1;
}

static int cmd_peer_ips(struct config_ctx *ctx, struct noise_peer *peer,
			const char *val)
{
	char *v = strdup(val), err[512];
	bool ok;

	if (!v)
		die_oom();
	strip_blanks(v);
	peer->flags |= NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS;
	peer->n_ips = 0;
	ok = parse_allowedips(peer, v, err, sizeof(err));
	free(v);
	if (!ok) {
		config_err(ctx, "set: %s", err);
		return -1;
	}
	return 1;
}

static int cmd_peer_arg(struct config_ctx *ctx, struct noise_peer *peer,
			const char *arg, const char *val)
{
	char err[512];

	if (!strcmp(arg, "preshared-key"))
		return cmd_peer_psk(ctx, peer, val);
	if (!strcmp(arg, "allowed-ips"))
		return cmd_peer_ips(ctx, peer, val);
	if (!strcmp(arg, "endpoint")) {
		if (!parse_endpoint(&peer->endpoint, val, err, sizeof(err))) {
			config_err(ctx, "set: %s", err);
			return -1;
		}
		peer->has_endpoint = true;
		return 1;
	}
	if (!strcmp(arg, "persistent-keepalive")) {
		if (!parse_keepalive(&peer->keepalive, val)) {
			config_err(ctx, "set: persistent-keepalive '%s' is not 0 to 65535 or off",
				   val);
			return -1;
		}
		peer->has_keepalive = true;
		return 1;
	}
	return 0;
}

/* A peer to remove takes no other argument. */
static bool cmd_check_removes(struct config_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->dev->n_peers; i++) {
		struct noise_peer *p = &ctx->dev->peers[i];

		if ((p->flags & NOISE_PEER_FLAG_REMOVE_ME) &&
		    (p->flags != NOISE_PEER_FLAG_REMOVE_ME || p->has_endpoint ||
		     p->has_keepalive || p->has_psks)) {
			config_err(ctx, "set: a peer to remove takes no other argument");
			return false;
		}
	}
	return true;
}

struct noise_device *config_read_cmd(int argc, char *const argv[])
{
	struct config_ctx ctx = { 0 };
	struct noise_peer *peer = NULL;
	int i, r;

	ctx.dev = device_new();
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (peer && !strcmp(arg, "remove")) {
			peer->flags |= NOISE_PEER_FLAG_REMOVE_ME;
			continue;
		}
		if (!val && strcmp(arg, "remove")) {
			config_err(&ctx, "set: '%s' needs a value", arg);
			goto err;
		}
		if (!strcmp(arg, "peer")) {
			peer = device_add_peer(ctx.dev);
			r = parse_key(peer->public_key, &peer->key_len, val) ? 1 : -1;
			if (r < 0)
				config_err(&ctx, "set: peer '%s' is not a base64 25519 or 448 key",
					   val);
		} else {
			r = !val ? 0 : peer ? cmd_peer_arg(&ctx, peer, arg, val) :
					      cmd_device_arg(&ctx, arg, val);
			if (!r)
				config_err(&ctx, "set: unknown or misplaced argument '%s'",
					   arg);
		}
		if (r <= 0)
			goto err;
		i++;
	}
	if (!cmd_check_removes(&ctx))
		goto err;
	return ctx.dev;
err:
	device_free(ctx.dev);
	return NULL;
}

static void key_err(const struct config_ctx *ctx, const char *what,
		    size_t len, const char *why)
{
	const struct dh_func *dh = dh_by_len(len);

	config_err(ctx, "%s is a %s key, %s", what, dh ? dh->name : "?", why);
}

bool config_check(struct noise_device *dev, const char *path)
{
	struct config_ctx ctx = { .path = path };
	const struct dh_func *dh = NULL;
	size_t len = 0, i;
	int tokens = -1;
	char why[400];

	if (dev->has_protocol) {
		dh = dh_by_protocol(dev->protocol);
		len = dh->len;
		tokens = protocol_psk_tokens(dev->protocol);
		snprintf(why, sizeof(why), "but %s uses %s", dev->protocol,
			 dh->name);
	}
	if (dev->has_private_key && dev->private_key_len) {
		ctx.line = dev->private_key_line;
		if (len && dev->private_key_len != len) {
			key_err(&ctx, "PrivateKey", dev->private_key_len, why);
			return false;
		}
		if (!len) {
			len = dev->private_key_len;
			snprintf(why, sizeof(why), "but the PrivateKey is %s",
				 dh_by_len(len)->name);
		}
	}
	for (i = 0; i < dev->n_peers; i++) {
		struct noise_peer *peer = &dev->peers[i];

		ctx.line = peer->line;
		if (len && peer->key_len != len) {
			key_err(&ctx, "PublicKey", peer->key_len, why);
			return false;
		}
		if (!len) {
			len = peer->key_len;
			snprintf(why, sizeof(why), "but another peer's is %s",
				 dh_by_len(len)->name);
		}
		ctx.line = peer->psk_line;
		if (tokens >= 0 && peer->n_psks && !tokens) {
			config_err(&ctx, "PresharedKey, but %s has no psk token",
				   dev->protocol);
			return false;
		}
		if (tokens >= 0 && peer->n_psks > 1 && peer->n_psks != tokens) {
			config_err(&ctx, "%d preshared keys, but %s has %d psk token%s (give one key for all, or one per token)",
				   peer->n_psks, dev->protocol, tokens,
				   tokens == 1 ? "" : "s");
			return false;
		}
	}
	/* An empty private-key file: zeros of the DH's length (removes). */
	if (dev->has_private_key && !dev->private_key_len) {
		memset(dev->private_key, 0, sizeof(dev->private_key));
		dev->private_key_len = len;
	}
	return true;
}
