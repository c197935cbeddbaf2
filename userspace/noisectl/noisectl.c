// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl: configure the noise kernel module. One file per subcommand.
 */
#include <stdio.h>
#include <string.h>

#include "subcommands.h"
#include "util.h"

const char *prog;

static const struct {
	const char *name;
	int (*main)(int argc, char *argv[]);
	const char *help;
} subcommands[] = {
	{ "genkey", genkey_main, "Generate a new private key (25519 or 448), print it in base64" },
	{ "pubkey", pubkey_main, "Read a private key from stdin and print its public key" },
};

static void show_help(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: %s <cmd> [<args>]\n\n", prog);
	fprintf(f, "Available subcommands:\n");
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		fprintf(f, "  %s: %s\n", subcommands[i].name, subcommands[i].help);
	fprintf(f, "\nYou may pass '--help' to any of these subcommands to view usage.\n");
}

int main(int argc, char *argv[])
{
	size_t i;

	prog = argv[0];
	if (argc < 2) {
		show_help(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		show_help(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		if (argc > 2 && !strcmp(argv[2], "--help")) {
			printf("%s %s: %s\n", prog, argv[1], subcommands[i].help);
			return 0;
		}
		return subcommands[i].main(argc - 1, argv + 1);
	}
	fprintf(stderr, "%s: invalid subcommand '%s' (try '%s --help')\n", prog, argv[1], prog);
	return 1;
}
