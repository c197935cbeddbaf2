// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl show [DEV|all|interfaces] [FIELD|dump] [--json]
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "netlink.h"
#include "outbuf.h"
#include "subcommands.h"

static const char *const fields[] = {
	"public-key", "protocol", "listen-port", "fwmark", "peers",
	"preshared-keys", "endpoints", "allowed-ips", "latest-handshakes",
	"transfer", "persistent-keepalive", "drops", "dump",
};

static void show_usage(void)
{
	size_t i;

	fprintf(stderr, "Usage: %s show [<interface>|all|interfaces] [<field>|dump] [--json]\n",
		prog);
	fprintf(stderr, "  <field>:");
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		fprintf(stderr, " %s", fields[i]);
	fputc('\n', stderr);
}

static void print_ago(u64 ns)
{
	struct timespec now;
	static const struct {
		const char *unit;
		u64 secs;
	} units[] = {
		{ "year", 365 * 24 * 3600ULL }, { "day", 24 * 3600 },
		{ "hour", 3600 }, { "minute", 60 }, { "second", 1 },
	};
	u64 t, left;
	bool any = false;
	size_t i;

	clock_gettime(CLOCK_REALTIME, &now);
	t = ns / 1000000000ULL;
	if ((u64)now.tv_sec < t) {
		printf("in the future (clock skew)\n");
		return;
	}
	left = (u64)now.tv_sec - t;
	if (!left) {
		printf("now\n");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		u64 n = left / units[i].secs;

		if (!n)
			continue;
		left -= n * units[i].secs;
		printf("%s%llu %s%s", any ? ", " : "", n, units[i].unit,
		       n == 1 ? "" : "s");
		any = true;
	}
	printf(" ago\n");
}

static void print_bytes(u64 b)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int i = -1;

	if (b < 1024) {
		printf("%llu B", b);
		return;
	}
	while (v >= 1024 && i < 3) {
		v /= 1024;
		i++;
	}
	printf("%.2f %s", v, units[i]);
}

static u64 drops(const struct noise_stats *st)
{
	u64 sum = 0;
	int i;

	for (i = 0; i <= NOISE_A_STATS_MAX; i++)
		if (stats_is_drop(i))
			sum += st->v[i];
	return sum;
}

static void print_drops(const struct noise_stats *st)
{
	bool any = false;
	int i;

	for (i = 0; i <= NOISE_A_STATS_MAX; i++) {
		if (!stats_is_drop(i) || !st->v[i])
			continue;
		printf("%s%s %llu", any ? ", " : "  drops: ",
		       stats_name(i) + 5, st->v[i]);
		any = true;
	}
	if (any)
		putchar('\n');
}

/* Cookie events (only when there are any): replies taken, MAC2s. */
static void print_cookies(const struct noise_stats *st)
{
	u64 r = st->v[NOISE_A_STATS_COOKIE_REPLIES];
	u64 s = st->v[NOISE_A_STATS_MAC2_SENT];
	u64 a = st->v[NOISE_A_STATS_MAC2_ACCEPTED];

	if (r || s || a)
		printf("  cookies: %llu replies taken, mac2 sent %llu, accepted %llu\n",
		       r, s, a);
}

/* Our handshakes as initiator (only when there were any). */
static void print_attempts(const struct noise_peer *p)
{
	const u64 *v = peer_stats(p)->v;

	if (!v[NOISE_A_STATS_HS_INITIATIONS] && !v[NOISE_A_STATS_HS_RESENT])
		return;
	printf("  handshakes begun: %llu, resent %llu, given up %llu",
	       v[NOISE_A_STATS_HS_INITIATIONS], v[NOISE_A_STATS_HS_RESENT],
	       v[NOISE_A_STATS_HS_GIVEN_UP]);
	if (p->last_attempt_ns) {
		printf("; latest attempt: ");
		print_ago(p->last_attempt_ns);
	} else {
		putchar('\n');
	}
}

static void show_pretty(const struct noise_device *dev)
{
	size_t i, j;

	printf("interface: %s\n", dev->ifname);
	if (dev->has_protocol)
		printf("  protocol: %s\n", dev->protocol);
	if (dev->public_key_len) {
		printf("  public key: %s\n",
		       fmt_key(dev->public_key, dev->public_key_len));
		printf("  private key: (hidden)\n");
	}
	if (dev->listen_port)
		printf("  listening port: %u\n", dev->listen_port);
	if (dev->fwmark)
		printf("  fwmark: 0x%x\n", dev->fwmark);
	print_drops(&dev->stats);
	print_cookies(&dev->stats);
	for (i = 0; i < dev->n_peers; i++) {
		const struct noise_peer *p = &dev->peers[i];

		printf("\npeer: %s\n", fmt_key(p->public_key, p->key_len));
		if (p->has_psk_id)
			printf("  preshared key: (hidden)\n");
		if (p->has_endpoint && p->endpoint.addr.sa_family)
			printf("  endpoint: %s\n", fmt_endpoint(&p->endpoint));
		printf("  allowed ips: ");
		for (j = 0; j < p->n_ips; j++)
			printf("%s%s", j ? ", " : "", fmt_allowedip(&p->ips[j]));
		printf("%s\n", p->n_ips ? "" : "(none)");
		if (p->last_handshake_ns) {
			printf("  latest handshake: ");
			print_ago(p->last_handshake_ns);
		}
		if (peer_stats(p)->v[NOISE_A_STATS_RX_BYTES] ||
		    peer_stats(p)->v[NOISE_A_STATS_TX_BYTES]) {
			printf("  transfer: ");
			print_bytes(peer_stats(p)->v[NOISE_A_STATS_RX_BYTES]);
			printf(" received, ");
			print_bytes(peer_stats(p)->v[NOISE_A_STATS_TX_BYTES]);
			printf(" sent\n");
		}
		if (p->keepalive)
			printf("  persistent keepalive: every %u second%s\n",
			       p->keepalive, p->keepalive == 1 ? "" : "s");
		print_drops(peer_stats(p));
		print_cookies(peer_stats(p));
		print_attempts(p);
	}
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_stats(const struct noise_stats *st)
{
	bool first = true;
	int i;

	printf("{");
	for (i = 0; i <= NOISE_A_STATS_MAX; i++) {
		if (!stats_name(i))
			continue;
		printf("%s\"%s\":%llu", first ? "" : ",", stats_name(i),
		       st->v[i]);
		first = false;
	}
	printf("}");
}

static void show_json(const struct noise_device *dev)
{
	size_t i, j;

	printf("{\"ifname\":");
	json_string(dev->ifname);
	printf(",\"ifindex\":%u,\"protocol\":", dev->ifindex);
	json_string(dev->protocol);
	printf(",\"public_key\":");
	if (dev->public_key_len)
		printf("\"%s\"", fmt_key(dev->public_key, dev->public_key_len));
	else
		printf("null");
	printf(",\"listen_port\":%u,\"fwmark\":%u,\"stats\":", dev->listen_port,
	       dev->fwmark);
	json_stats(&dev->stats);
	printf(",\"peers\":[");
	for (i = 0; i < dev->n_peers; i++) {
		const struct noise_peer *p = &dev->peers[i];

		printf("%s{\"public_key\":\"%s\",\"endpoint\":", i ? "," : "",
		       fmt_key(p->public_key, p->key_len));
		if (p->has_endpoint && p->endpoint.addr.sa_family)
			printf("\"%s\"", fmt_endpoint(&p->endpoint));
		else
			printf("null");
		printf(",\"preshared_key\":%s,\"allowed_ips\":[",
		       p->has_psk_id ? "true" : "false");
		for (j = 0; j < p->n_ips; j++)
			printf("%s\"%s\"", j ? "," : "",
			       fmt_allowedip(&p->ips[j]));
		printf("],\"persistent_keepalive\":%u", p->keepalive);
		printf(",\"latest_handshake_ns\":%llu,\"latest_attempt_ns\":%llu,\"stats\":",
		       p->last_handshake_ns, p->last_attempt_ns);
		json_stats(peer_stats(p));
		printf("}");
	}
	printf("]}\n");
}

/* One field, wg-style: device values alone, peer values "<key>\t<value>". */
static void show_field(const struct noise_device *dev, const char *field,
		       bool prefix)
{
	const char *pre = prefix ? dev->ifname : "", *tab = prefix ? "\t" : "";
	size_t i, j;

	if (!strcmp(field, "public-key")) {
		printf("%s%s%s\n", pre, tab,
		       fmt_key(dev->public_key, dev->public_key_len));
		return;
	}
	if (!strcmp(field, "protocol")) {
		printf("%s%s%s\n", pre, tab, dev->protocol);
		return;
	}
	if (!strcmp(field, "listen-port")) {
		printf("%s%s%u\n", pre, tab, dev->listen_port);
		return;
	}
	if (!strcmp(field, "fwmark")) {
		if (dev->fwmark)
			printf("%s%s0x%x\n", pre, tab, dev->fwmark);
		else
			printf("%s%soff\n", pre, tab);
		return;
	}
	for (i = 0; i < dev->n_peers; i++) {
		const struct noise_peer *p = &dev->peers[i];

		printf("%s%s%s", pre, tab, fmt_key(p->public_key, p->key_len));
		if (!strcmp(field, "peers")) {
			putchar('\n');
		} else if (!strcmp(field, "preshared-keys")) {
			printf("\t%s\n", p->has_psk_id ? "(hidden)" : "(none)");
		} else if (!strcmp(field, "endpoints")) {
			printf("\t%s\n", p->has_endpoint ?
			       fmt_endpoint(&p->endpoint) : "(none)");
		} else if (!strcmp(field, "allowed-ips")) {
			putchar('\t');
			for (j = 0; j < p->n_ips; j++)
				printf("%s%s", j ? " " : "",
				       fmt_allowedip(&p->ips[j]));
			printf("%s\n", p->n_ips ? "" : "(none)");
		} else if (!strcmp(field, "latest-handshakes")) {
			printf("\t%llu\n", p->last_handshake_ns / 1000000000ULL);
		} else if (!strcmp(field, "transfer")) {
			printf("\t%llu\t%llu\n",
			       peer_stats(p)->v[NOISE_A_STATS_RX_BYTES],
			       peer_stats(p)->v[NOISE_A_STATS_TX_BYTES]);
		} else if (!strcmp(field, "persistent-keepalive")) {
			if (p->keepalive)
				printf("\t%u\n", p->keepalive);
			else
				printf("\toff\n");
		} else if (!strcmp(field, "drops")) {
			printf("\t%llu\n", drops(peer_stats(p)));
		}
	}
}

/*
 * `show dump`, as `wg show dump`: tab-separated, a line for the device
 * (private key, public key, listen port, fwmark), then one per peer
 * (public key, preshared key, endpoint, allowed IPs, latest handshake in
 * seconds, bytes received, bytes sent, persistent keepalive); with `all`,
 * the interface name first on every line. The kernel never returns private
 * and preshared keys: "(hidden)" when there is one, "(none)" when not.
 */
static void dump_head(FILE *f, const struct noise_device *dev,
		      bool with_ifname)
{
	if (with_ifname)
		fprintf(f, "%s\t", dev->ifname);
	fprintf(f, "%s\t%s\t%u\t", dev->public_key_len ? "(hidden)" : "(none)",
		fmt_key(dev->public_key, dev->public_key_len), dev->listen_port);
	if (dev->fwmark)
		fprintf(f, "0x%x\n", dev->fwmark);
	else
		fprintf(f, "off\n");
}

static void dump_peer(FILE *f, const struct noise_device *dev,
		      const struct noise_peer *p, bool with_ifname)
{
	size_t j;

	if (with_ifname)
		fprintf(f, "%s\t", dev->ifname);
	fprintf(f, "%s\t%s\t%s\t", fmt_key(p->public_key, p->key_len),
		p->has_psk_id ? "(hidden)" : "(none)",
		p->has_endpoint ? fmt_endpoint(&p->endpoint) : "(none)");
	for (j = 0; j < p->n_ips; j++)
		fprintf(f, "%s%s", j ? "," : "", fmt_allowedip(&p->ips[j]));
	fprintf(f, "%s\t%llu\t%llu\t%llu\t", p->n_ips ? "" : "(none)",
		p->last_handshake_ns / 1000000000ULL,
		peer_stats(p)->v[NOISE_A_STATS_RX_BYTES],
		peer_stats(p)->v[NOISE_A_STATS_TX_BYTES]);
	if (p->keepalive)
		fprintf(f, "%u\n", p->keepalive);
	else
		fprintf(f, "off\n");
}

void show_dump(FILE *f, const struct noise_device *dev, bool with_ifname)
{
	size_t i;

	dump_head(f, dev, with_ifname);
	for (i = 0; i < dev->n_peers; i++)
		dump_peer(f, dev, &dev->peers[i], with_ifname);
}

/*
 * show DEV dump without the model: each peer is printed as the dump
 * completes it, into a buffer written out once the whole device was read
 * (a dump the device changed under starts the buffer again).
 */
struct dump_stream {
	struct outbuf out;
	bool with_ifname, head;
};

static void dump_stream_peer(const struct noise_device *dev,
			     const struct noise_peer *peer, void *arg)
{
	struct dump_stream *ds = arg;

	if (!ds->head) {
		dump_head(ds->out.f, dev, ds->with_ifname);
		ds->head = true;
	}
	if (peer)
		dump_peer(ds->out.f, dev, peer, ds->with_ifname);
}

static void dump_stream_restart(void *arg)
{
	struct dump_stream *ds = arg;

	outbuf_discard(&ds->out);
	outbuf_open(&ds->out);
	ds->head = false;
}

static bool show_dump_stream(const char *ifname, bool with_ifname)
{
	struct dump_stream ds = { .with_ifname = with_ifname };
	struct noise_peer_sink sink = {
		.peer_done = dump_stream_peer,
		.restart = dump_stream_restart,
		.arg = &ds,
	};

	outbuf_open(&ds.out);
	if (!noise_get_device_stream(ifname, &sink)) {
		outbuf_discard(&ds.out);
		return false;
	}
	if (outbuf_write_out(&ds.out, stdout))
		return true;
	fprintf(stderr, "%s: show: writing the dump: %m\n", prog);
	return false;
}

/* The field (NULL: none) is known, and goes with the rest of the line. */
static bool check_field(const char *field, bool json)
{
	size_t i;

	if (!field)
		return true;
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(field, fields[i]))
			break;
	if (i < ARRAY_SIZE(fields) && !json)
		return true;
	if (json)
		fprintf(stderr, "%s: show: --json prints every field\n", prog);
	else
		fprintf(stderr, "%s: show: unknown field '%s'\n", prog, field);
	show_usage();
	return false;
}

/* The devices `what` names: all of them, or one. */
static bool show_names(const char *what, char ***names, size_t *n)
{
	if (!strcmp(what, "all") || !strcmp(what, "interfaces"))
		return noise_list_devices(names, n);
	if (strlen(what) >= IFNAMSIZ) {
		fprintf(stderr, "%s: show: '%s' is not an interface name\n",
			prog, what);
		return false;
	}
	*names = malloc(sizeof(**names));
	if (!*names)
		die_oom();
	(*names)[0] = strdup(what);
	if (!(*names)[0])
		die_oom();
	*n = 1;
	return true;
}

static void show_one(const struct noise_device *dev, const char *field,
		     bool json, bool all)
{
	if (json)
		show_json(dev);
	else if (field && !strcmp(field, "dump"))
		show_dump(stdout, dev, all);
	else if (field)
		show_field(dev, field, all);
	else
		show_pretty(dev);
}

int show_main(int argc, char *argv[])
{
	const char *what = NULL, *field = NULL;
	char **names = NULL;
	bool json = false, ok = true, all;
	size_t n = 0, i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json")) {
			json = true;
		} else if (!what) {
			what = argv[a];
		} else if (!field) {
			field = argv[a];
		} else {
			show_usage();
			return 1;
		}
	}
	if (!check_field(field, json))
		return 1;
	if (!what)
		what = "all";
	all = !strcmp(what, "all");
	if (!strcmp(what, "interfaces") && (field || json)) {
		show_usage();
		return 1;
	}
	if (!show_names(what, &names, &n))
		return 1;
	for (i = 0; i < n; i++) {
		struct noise_device *dev;

		if (!strcmp(what, "interfaces")) {
			printf("%s%s", names[i], i + 1 < n ? " " : "\n");
			continue;
		}
		if (!json && field && !strcmp(field, "dump")) {
			ok = show_dump_stream(names[i], all) && ok;
			continue;
		}
		dev = noise_get_device(names[i]);
		if (!dev) {
			ok = false;
			continue;
		}
		show_one(dev, field, json, all);
		if (!json && !field && i + 1 < n)
			putchar('\n');
		device_free(dev);
	}
	noise_free_names(names, n);
	return ok ? 0 : 1;
}
