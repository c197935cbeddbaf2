/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the guest-side flooders (tests/selftests/udpflood.c,
 * bench/tunnels/hsflood.c): the monotonic clock in seconds, and a file of
 * fixed-size messages read whole. Userspace; static functions only.
 */
#ifndef NOISE_MSGFILE_H
#define NOISE_MSGFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* read_msgs: PATH holds *count messages of LEN bytes, read into *out. */
static inline int read_msgs(const char *path, size_t len, unsigned char **out,
			    size_t *count)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long size;

	if (!f)
		return -1;
	size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	if (size <= 0 || size % len || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc(size);
	if (!buf || fread(buf, 1, size, f) != (size_t)size) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*out = buf;
	*count = size / len;
	return 0;
}

#endif /* NOISE_MSGFILE_H */
