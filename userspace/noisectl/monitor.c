// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl monitor [DEV]: print the events of the "peers" multicast group
 * as they come, one line each: "<dev>\t<event>\t<peer key>[\t<detail>]".
 */
#include <string.h>

#include "format.h"
#include "netlink.h"
#include "subcommands.h"

static void print_event(const struct noise_event *ev, void *arg)
{
	const char *want = arg, *name;
	const struct noise_peer *p = ev->peer;

	if (want && strcmp(want, ev->ifname))
		return;
	switch (ev->cmd) {
	case NOISE_CMD_PEER_ADD_NTF:
		name = "peer-added";
		break;
	case NOISE_CMD_PEER_DEL_NTF:
		name = "peer-removed";
		break;
	case NOISE_CMD_HANDSHAKE_NTF:
		name = "handshake";
		break;
	case NOISE_CMD_ENDPOINT_NTF:
		name = "endpoint";
		break;
	case NOISE_CMD_HANDSHAKE_FAILED_NTF:
		name = "handshake-failed";
		break;
	default:
		return;
	}
	printf("%s\t%s\t%s", ev->ifname, name,
	       fmt_key(p->public_key, p->key_len));
	if (ev->cmd == NOISE_CMD_HANDSHAKE_NTF && p->last_handshake_ns)
		printf("\t%llu", p->last_handshake_ns / 1000000000ULL);
	if (ev->cmd == NOISE_CMD_ENDPOINT_NTF && p->has_endpoint)
		printf("\t%s", fmt_endpoint(&p->endpoint));
	if (ev->cmd == NOISE_CMD_HANDSHAKE_FAILED_NTF)
		printf("\t%llu begun, %llu resent, %llu given up",
		       peer_stats(p)->v[NOISE_A_STATS_HS_INITIATIONS],
		       peer_stats(p)->v[NOISE_A_STATS_HS_RESENT],
		       peer_stats(p)->v[NOISE_A_STATS_HS_GIVEN_UP]);
	putchar('\n');
	fflush(stdout);
}

int monitor_main(int argc, char *argv[])
{
	if (argc > 2 || (argc == 2 && strlen(argv[1]) >= IFNAMSIZ)) {
		fprintf(stderr, "Usage: %s %s [<interface>]\n", prog, argv[0]);
		return 1;
	}
	return noise_monitor(print_event, argc == 2 ? (void *)argv[1] : NULL) ? 0 : 1;
}
