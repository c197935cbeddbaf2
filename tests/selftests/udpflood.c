// SPDX-License-Identifier: GPL-2.0
/*
 * udpflood SRC DST PORT LEN SECONDS FILE: send the LEN-byte messages of
 * FILE (made by wg-flood.py msgs), round robin, to DST:PORT from address
 * SRC (IPv4) for SECONDS, as fast as the machine allows: sendmmsg() with
 * 64 messages per system call, since in UML every system call is a round
 * trip through the host and a Python loop of sendto() cannot outrun a DH
 * worker. Prints "# flooding" when it starts and "# sent=N seconds=S" at
 * the end (also when stopped by SIGTERM or SIGINT), as wg-flood.py does.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "msgfile.h"

#define BATCH 64

static atomic_int stop;	/* lock-free: safe to set in a handler */

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

int main(int argc, char **argv)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	unsigned long long sent = 0;
	unsigned char *msgs;
	size_t len, count, next = 0;
	double start, end;
	int s, i, n;

	if (argc != 7) {
		fprintf(stderr, "usage: %s SRC DST PORT LEN SECONDS FILE\n", argv[0]);
		return 2;
	}
	len = strtoul(argv[4], NULL, 10);
	if (inet_pton(AF_INET, argv[1], &src.sin_addr) != 1 ||
	    inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1 || !len) {
		fprintf(stderr, "udpflood: bad address or length\n");
		return 2;
	}
	dst.sin_port = htons(atoi(argv[3]));
	if (read_msgs(argv[6], len, &msgs, &count)) {
		fprintf(stderr, "udpflood: %s: not a whole number of %zu-byte messages\n",
			argv[6], len);
		return 2;
	}
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&src, sizeof(src))) {
		perror("udpflood: socket");
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	memset(mm, 0, sizeof(mm));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_len = len;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_name = &dst;
		mm[i].msg_hdr.msg_namelen = sizeof(dst);
	}
	printf("# flooding\n");
	fflush(stdout);
	start = now();
	end = start + atof(argv[5]);
	while (!atomic_load(&stop) && now() < end) {
		for (i = 0; i < BATCH; i++) {
			iov[i].iov_base = msgs + len * next;
			next = (next + 1) % count;
		}
		n = sendmmsg(s, mm, BATCH, 0);
		if (n > 0)
			sent += n;
		else if (n < 0 && errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			break;
	}
	printf("# sent=%llu seconds=%.2f\n", sent, now() - start);
	free(msgs);
	close(s);
	return 0;
}
