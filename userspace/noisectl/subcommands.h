/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NOISECTL_SUBCOMMANDS_H
#define NOISECTL_SUBCOMMANDS_H

extern const char *prog;

int genkey_main(int argc, char *argv[]);
int pubkey_main(int argc, char *argv[]);

#endif
