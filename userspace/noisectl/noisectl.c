// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl: configure the noise kernel module. One file per subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands.h"
#include "util.h"
#include "version.h"

const char *prog = "noisectl";

static const struct {
	const char *name;
	int (*main)(int argc, char *argv[]);
	const char *help;
	const char *usage;
} subcommands[] = {
	{ "show", show_main, "Show the configuration and state of devices",
	  "[<interface>|all|interfaces] [<field>|dump] [--json]\n"
	  "  <field>: public-key protocol listen-port fwmark peers preshared-keys\n"
	  "           endpoints allowed-ips latest-handshakes transfer\n"
	  "           persistent-keepalive drops\n"
	  "  dump: every field, tab-separated, as `wg show dump`" },
	{ "showconf", showconf_main, "Show a device's configuration as a config file",
	  "<interface>" },
	{ "set", set_main, "Change a device's configuration",
	  "<interface> [protocol <name>] [private-key <file>] [listen-port <port>]\n"
	  "  [fwmark <mark>|off] [peer <base64 public key> [remove]\n"
	  "  [preshared-key <file>]... [endpoint <ip>:<port>|[<ip6>]:<port>]\n"
	  "  [persistent-keepalive <seconds>|off] [allowed-ips <ip>/<cidr>[,...]]]..." },
	{ "setconf", setconf_main, "Replace a device's configuration with a config file",
	  "<interface> <configuration file>" },
	{ "addconf", addconf_main, "Add a config file to a device's configuration",
	  "<interface> <configuration file>" },
	{ "syncconf", syncconf_main,
	  "Change only what differs from a config file, keeping live sessions",
	  "<interface> <configuration file>" },
	{ "monitor", monitor_main, "Print peer events as they happen",
	  "[<interface>]\n"
	  "  one line per event: <interface>\\t<event>\\t<peer public key>[\\t<detail>]\n"
	  "  events: peer-added, peer-removed, handshake (detail: its time),\n"
	  "          endpoint (detail: the new endpoint)" },
	{ "genkey", genkey_main, "Generate a new private key, print it in base64",
	  "[--dh 25519|448]" },
	{ "genpsk", genpsk_main, "Generate a new preshared key, print it in base64",
	  "" },
	{ "pubkey", pubkey_main, "Read a private key from stdin, print its public key",
	  "[--dh 25519|448] < private.key" },
};

/* Printed by --help and by the help of the verbs that set a protocol. */
static const char protocols_help[] =
	"Protocols (set ... protocol <name>, Protocol = <name> in a file):\n"
	"  Noise_<pattern>_<DH>_<cipher>_<hash>\n"
	"    e.g. Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s (the default)\n"
	"  Noise_<pattern>hfs_<DH>+<KEM>_<cipher>_<hash>: post-quantum hybrid\n"
	"    (hfs), KEM MLKEM768 or MLKEM1024, modifiers joined by '+',\n"
	"    e.g. Noise_IKhfs+psk2_25519+MLKEM768_ChaChaPoly_BLAKE2s\n"
	"  WireGuard: the WireGuard profile (talks to wg(8) peers)\n"
	"  <pattern>: one that authenticates both sides by static keys\n"
	"    (IK, XX, KK, IX, XK, KX, deferred forms, psk modifiers)\n"
	"  <DH>: 25519 448  <cipher>: ChaChaPoly AESGCM\n"
	"  <hash>: BLAKE2s BLAKE2b SHA256 SHA512\n";

/* The verbs that set a protocol: their help lists the names. */
static bool sets_protocol(const char *verb)
{
	return !strcmp(verb, "set") || !strcmp(verb, "setconf") ||
	       !strcmp(verb, "addconf") || !strcmp(verb, "syncconf");
}

void die_oom(void)
{
	fprintf(stderr, "%s: out of memory\n", prog);
	exit(1);
}

static void show_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: %s <cmd> [<args>]\n\n", prog);
	fprintf(f, "Available subcommands:\n");
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		fprintf(f, "  %-9s %s\n", subcommands[i].name, subcommands[i].help);
	fprintf(f, "  %-9s %s\n", "version", "Print the version of noisectl");
	fprintf(f, "\nYou may pass '--help' to any of these subcommands to view usage.\n");
	fprintf(f, "\n%s", protocols_help);
}

static bool wants_help(int argc, char *argv[])
{
	int i;

	for (i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int main(int argc, char *argv[])
{
	size_t i;

	if (argc < 2) {
		show_help(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		show_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v") ||
	    !strcmp(argv[1], "version")) {
		printf("%s %s\n", prog, NOISECTL_VERSION);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		if (wants_help(argc, argv)) {
			printf("%s %s: %s\n\nUsage: %s %s %s\n", prog, argv[1],
			       subcommands[i].help, prog, argv[1],
			       subcommands[i].usage);
			if (sets_protocol(argv[1]))
				printf("\n%s", protocols_help);
			return 0;
		}
		return subcommands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "%s: invalid subcommand '%s' (try '%s --help')\n", prog,
		argv[1], prog);
	return 1;
}
