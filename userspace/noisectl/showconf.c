// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl showconf DEV: the device as a config file. Private and
 * preshared keys are write-only: comments say where they would go.
 */
#include <string.h>

#include "format.h"
#include "netlink.h"
#include "subcommands.h"

int showconf_main(int argc, char *argv[])
{
	struct noise_device *dev;
	size_t i, j;

	if (argc != 2) {
		fprintf(stderr, "Usage: %s %s <interface>\n", prog, argv[0]);
		return 1;
	}
	dev = noise_get_device(argv[1]);
	if (!dev)
		return 1;
	printf("[Interface]\n");
	if (dev->has_protocol)
		printf("Protocol = %s\n", dev->protocol);
	if (dev->public_key_len)
		printf("# PrivateKey is write-only: not shown (public key %s)\n",
		       fmt_key(dev->public_key, dev->public_key_len));
	else
		printf("# PrivateKey: none set\n");
	if (dev->listen_port)
		printf("ListenPort = %u\n", dev->listen_port);
	if (dev->fwmark)
		printf("FwMark = 0x%x\n", dev->fwmark);
	for (i = 0; i < dev->n_peers; i++) {
		const struct noise_peer *p = &dev->peers[i];

		printf("\n[Peer]\nPublicKey = %s\n",
		       fmt_key(p->public_key, p->key_len));
		if (p->has_psk_id)
			printf("# PresharedKey is write-only: not shown\n");
		if (p->has_endpoint && p->endpoint.addr.sa_family)
			printf("Endpoint = %s\n", fmt_endpoint(&p->endpoint));
		if (p->n_ips) {
			printf("AllowedIPs = ");
			for (j = 0; j < p->n_ips; j++)
				printf("%s%s", j ? ", " : "",
				       fmt_allowedip(&p->ips[j]));
			putchar('\n');
		}
		if (p->keepalive)
			printf("PersistentKeepalive = %u\n", p->keepalive);
	}
	device_free(dev);
	return fflush(stdout) ? 1 : 0;
}
