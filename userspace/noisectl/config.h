/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The config file (INI, as wg's) and the `set` command line, both parsed
 * into a struct noise_device; nothing here talks to the kernel.
 */
#ifndef NOISECTL_CONFIG_H
#define NOISECTL_CONFIG_H

#include <stdio.h>
#include <sys/types.h>
#include "containers.h"

/*
 * Parse the config in f (named path in messages) into a new device: only
 * what the file says is marked present. Every peer gets
 * NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS, and NOISE_PEER_FLAG_REPLACE_PSKS when it
 * has PresharedKey lines. NULL after one error line on stderr.
 */
struct noise_device *config_read(FILE *f, const char *path);
struct noise_device *config_read_file(const char *path);
/*
 * config_read_file() warns (one line) when a regular file holding a
 * PrivateKey or PresharedKey is readable by group or others.
 */
bool config_has_secrets(const struct noise_device *dev);
void config_warn_mode(const struct noise_device *dev, const char *path,
		      mode_t mode);

/* `noisectl set DEV ARGS...`: argv holds ARGS. */
struct noise_device *config_read_cmd(int argc, char *const argv[]);

/*
 * Check the keys against the protocol (when dev has one) and one another,
 * and the number of preshared keys against the protocol's psk tokens.
 * path names the config in messages (NULL: the command line).
 */
bool config_check(struct noise_device *dev, const char *path);

/* Parsers shared with the tests. */
bool parse_allowedips(struct noise_peer *peer, const char *value,
		      char *err, size_t errlen);
bool parse_endpoint(union noise_endpoint *ep, const char *value,
		    char *err, size_t errlen);
bool parse_key(u8 *key, size_t *len, const char *value);
bool parse_protocol(const char *name, char *err, size_t errlen);
/* The name a protocol goes by: "WireGuard" for it in any case. */
const char *protocol_canonical(const char *name);

#endif
