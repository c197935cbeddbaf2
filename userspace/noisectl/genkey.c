// SPDX-License-Identifier: GPL-2.0
/*
 * noisectl genkey [--dh 25519|448]: print a new private key in base64.
 * noisectl genpsk: print a new 32-byte preshared key in base64.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/noise.h>

#include "dh.h"
#include "encoding.h"
#include "subcommands.h"

/* "--dh X", "--dh=X" or a bare "X" (the older form): the DH, or NULL. */
const struct dh_func *dh_arg(int argc, char *argv[], int *bad)
{
	const char *name = NULL;

	*bad = 0;
	if (argc == 2 && !strncmp(argv[1], "--dh=", 5))
		name = argv[1] + 5;
	else if (argc == 3 && !strcmp(argv[1], "--dh"))
		name = argv[2];
	else if (argc == 2 && argv[1][0] != '-')
		name = argv[1];
	else if (argc != 1)
		*bad = 1;
	if (*bad || !name)
		return NULL;
	if (!dh_by_name(name)) {
		fprintf(stderr, "%s: unknown DH function '%s' (25519 or 448)\n",
			prog, name);
		*bad = 2;
	}
	return dh_by_name(name);
}

/* As `wg genkey`: a key going to a file others may read. */
bool warn_world_accessible(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0007))
		return false;
	fprintf(stderr,
		"Warning: writing to world accessible file. Consider setting the umask to 077 and trying again.\n");
	return true;
}

static int print_random_key(size_t len)
{
	u8 key[NOISE_MAX_KEY_LEN];
	char b64[B64_LEN(NOISE_MAX_KEY_LEN) + 1];
	int ret = 0;

	warn_world_accessible(STDOUT_FILENO);
	if (!random_bytes(key, len)) {
		perror("getrandom");
		return 1;
	}
	key_to_base64(b64, key, len);
	explicit_bzero(key, sizeof(key));
	if (puts(b64) < 0 || fflush(stdout))
		ret = 1;
	explicit_bzero(b64, sizeof(b64));
	return ret;
}

int genkey_main(int argc, char *argv[])
{
	const struct dh_func *dh;
	int bad;

	dh = dh_arg(argc, argv, &bad);
	if (bad == 1)
		fprintf(stderr, "Usage: %s %s [--dh 25519|448]\n", prog, argv[0]);
	if (bad)
		return 1;
	return print_random_key(dh ? dh->len : 32);
}

int genpsk_main(int argc, char *argv[])
{
	if (argc != 1) {
		fprintf(stderr, "Usage: %s %s\n", prog, argv[0]);
		return 1;
	}
	return print_random_key(NOISE_PSK_KEY_LEN);
}
