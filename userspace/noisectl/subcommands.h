/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NOISECTL_SUBCOMMANDS_H
#define NOISECTL_SUBCOMMANDS_H

#include <stdbool.h>
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

struct dh_func;
/* genkey/pubkey's "[--dh 25519|448]": the DH or NULL; *bad on misuse. */
const struct dh_func *dh_arg(int argc, char *argv[], bool *bad);

#endif
