/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise generic netlink family through libnl-genl-3: get (a dump,
 * reassembled), set (split over as many requests as needed), the list of
 * noise devices (rtnetlink) and the "peers" multicast group.
 */
#ifndef NOISECTL_NETLINK_H
#define NOISECTL_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <netlink/msg.h>

#include "containers.h"

/* Default size of one set request (NOISECTL_MSG_SIZE overrides it). */
#define NOISE_MSG_SIZE 32768

/* Every call prints one error line on failure (and returns NULL/false). */
struct noise_device *noise_get_device(const char *ifname);

/*
 * A streaming read: peer_done gets each peer once complete, then NULL for
 * the end of the device (the device's own attributes are complete at the
 * first call); restart means the dump changed under us and starts again:
 * forget what was handed over.
 */
struct noise_peer_sink {
	void (*peer_done)(const struct noise_device *dev,
			  const struct noise_peer *peer, void *arg);
	void (*restart)(void *arg);
	void *arg;
};

bool noise_get_device_stream(const char *ifname,
			     const struct noise_peer_sink *sink);
bool noise_set_device(const struct noise_device *dev);
/* The names of the noise devices in this network namespace. */
bool noise_list_devices(char ***names, size_t *n);
void noise_free_names(char **names, size_t n);

/* What a monitor callback gets for one event. */
struct noise_event {
	u8 cmd;				/* NOISE_CMD_*_NTF */
	const char *ifname;
	u32 ifindex;
	const struct noise_peer *peer;	/* may have no key (key_len 0) */
};

bool noise_monitor(void (*fn)(const struct noise_event *ev, void *arg),
		   void *arg);

/*
 * Building and parsing, apart from any socket (the unit tests use them).
 * noise_build_set() fills msgs[0..*n) with the set requests for dev, each
 * at most size bytes: device attributes and NOISE_DEVICE_FLAG_REPLACE_PEERS
 * in the first, peers in order, a peer whose allowed IPs do not fit
 * continued in the next request with NOISE_PEER_FLAG_UPDATE_ONLY (appending).
 */
bool noise_build_set(const struct noise_device *dev, int family, size_t size,
		     struct nl_msg ***msgs, size_t *n);
void noise_free_msgs(struct nl_msg **msgs, size_t n);
/*
 * Add one message of a dump (or a set request) to dev: a peer whose public
 * key is that of dev's last peer is continued, not added again.
 */
bool noise_parse_device(struct nlmsghdr *nlh, struct noise_device *dev);

#endif
