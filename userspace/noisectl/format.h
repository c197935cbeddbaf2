/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text forms of keys, endpoints, allowed IPs and counters, shared by show,
 * showconf and monitor. Each call returns one of a few rotating static
 * buffers: valid until eight more calls.
 */
#ifndef NOISECTL_FORMAT_H
#define NOISECTL_FORMAT_H

#include "containers.h"

const char *fmt_key(const u8 *key, size_t len);
const char *fmt_endpoint(const union noise_endpoint *ep);
const char *fmt_allowedip(const struct noise_allowedip *ip);
/* "rx_bytes", "drop_auth", ...: the uapi name, lowercase, no prefix. */
const char *stats_name(int attr);
bool stats_is_drop(int attr);

#endif
