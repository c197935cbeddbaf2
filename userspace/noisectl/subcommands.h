/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NOISECTL_SUBCOMMANDS_H
#define NOISECTL_SUBCOMMANDS_H

#include <stdbool.h>
#include <stdio.h>
#include "util.h"

int genkey_main(int argc, char *argv[]);
int genpsk_main(int argc, char *argv[]);
int pubkey_main(int argc, char *argv[]);
int show_main(int argc, char *argv[]);
int showconf_main(int argc, char *argv[]);
int set_main(int argc, char *argv[]);
int setconf_main(int argc, char *argv[]);
int addconf_main(int argc, char *argv[]);
int syncconf_main(int argc, char *argv[]);
int monitor_main(int argc, char *argv[]);

struct noise_device;
/* `show dump`'s lines for dev (with_ifname: `show all dump`). */
void show_dump(FILE *f, const struct noise_device *dev, bool with_ifname);

/*
 * syncconf's request turning cur (a dump) into want (a config); NULL when
 * the protocol differs (then only a full replace will do).
 */
struct noise_device *syncconf_diff(const struct noise_device *want,
				   const struct noise_device *cur);
bool syncconf_is_empty(const struct noise_device *req);
/*
 * The protocol setconf/syncconf give a file without Protocol on the device
 * now (a dump, or NULL); warns on stderr (one line) as noisectl.8 says.
 */
const char *conf_default_protocol(const struct noise_device *now,
				  const char *path);

/*
 * genkey/genpsk: warn on stderr, as `wg genkey`, when fd is a regular file
 * others may access; true if it did.
 */
bool warn_world_accessible(int fd);

struct dh_func;
/*
 * genkey/pubkey's "[--dh 25519|448]": the DH or NULL; *bad is 1 on misuse
 * (print the usage), 2 for an unknown DH (already said).
 */
const struct dh_func *dh_arg(int argc, char *argv[], int *bad);

#endif
