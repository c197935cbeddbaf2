// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl set DEV [protocol NAME] [private-key FILE] [listen-port N]
 *	[fwmark N] [peer KEY [remove] [preshared-key FILE]...
 *	[endpoint IP:PORT] [persistent-keepalive N|off]
 *	[allowed-ips CIDR[,CIDR...]]]...
 */
#include <string.h>

#include "config.h"
#include "dh.h"
#include "netlink.h"
#include "subcommands.h"

/* An empty private-key file and no other key to size it: ask the device. */
static bool size_zero_key(struct noise_device *dev)
{
	struct noise_device *cur;
	const struct dh_func *dh;

	if (!dev->has_private_key || dev->private_key_len)
		return true;
	cur = noise_get_device(dev->ifname);
	if (!cur)
		return false;
	dh = dh_by_protocol(cur->protocol);
	dev->private_key_len = dh ? dh->len : NOISE_KEY_LEN_25519;
	device_free(cur);
	return true;
}

int set_main(int argc, char *argv[])
{
	struct noise_device *dev;
	int ret = 1;

	if (argc < 3) {
		fprintf(stderr, "Usage: %s %s <interface> %s\n", prog, argv[0],
			"[protocol <name>] [private-key <file>] [listen-port <port>] [fwmark <mark>|off] [peer <base64 public key> [remove] [preshared-key <file>]... [endpoint <ip>:<port>] [persistent-keepalive <seconds>|off] [allowed-ips <ip>/<cidr>[,<ip>/<cidr>]...]]...");
		return 1;
	}
	if (strlen(argv[1]) >= IFNAMSIZ) {
		fprintf(stderr, "%s: set: '%s' is not an interface name\n", prog,
			argv[1]);
		return 1;
	}
	dev = config_read_cmd(argc - 2, argv + 2);
	if (!dev)
		return 1;
	snprintf(dev->ifname, sizeof(dev->ifname), "%s", argv[1]);
	if (config_check(dev, NULL) && size_zero_key(dev) &&
	    noise_set_device(dev))
		ret = 0;
	device_free(dev);
	return ret;
}
