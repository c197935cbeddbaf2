// SPDX-License-Identifier: GPL-2.0
/*
 * udpseq: a numbered UDP stream, to check that a tunnel delivers it in
 * order and complete (tests/qemu/t-order). Built static on the host by
 * tests/qemu/mkinitramfs (the guest has no compiler and no python).
 *
 *   udpseq recv ADDR PORT COUNT [IDLE_SECONDS]
 *	binds ADDR:PORT, prints "ready", receives until COUNT distinct
 *	datagrams arrived or none came for IDLE_SECONDS (default 10), and
 *	acknowledges every 16th datagram (and the last) to its sender with
 *	the number received so far. Prints what arrived; exits 0 when all
 *	COUNT arrived, each once, intact and in order, 1 otherwise.
 *   udpseq send ADDR PORT COUNT [SIZE [WINDOW]]
 *	sends datagrams 0..COUNT-1 of SIZE bytes (default 1000) as fast as
 *	the receiver's acknowledgments allow: at most WINDOW (default 128)
 *	sent and not yet acknowledged. When no acknowledgment comes for a
 *	second it takes half the window as acknowledged (a lost datagram or
 *	acknowledgment must not stall it; the receiver reports the loss).
 *	Never retransmits.
 *
 * Datagram: magic, sequence number, size (32-bit, network order), then
 * bytes (seq * 31 + i) & 0xff, checked by the receiver.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

typedef __u32 u32;
typedef __s64 s64;

#define MAGIC 0x4e534551u	/* "NSEQ" */
#define ACK_MAGIC 0x4e41434bu	/* "NACK" */
#define ACK_EVERY 16
#define MAXSIZE 65000

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void parse_addr(const char *a, const char *p, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)atoi(p));
	if (inet_pton(AF_INET, a, &sin->sin_addr) != 1) {
		fprintf(stderr, "udpseq: bad address %s\n", a);
		exit(2);
	}
}

static unsigned char pattern(u32 seq, u32 i)
{
	return (unsigned char)((seq * 31u + i) & 0xff);
}

static int do_send(int argc, char **argv)
{
	struct sockaddr_in dst;
	u32 count, size = 1000, window = 128, seq, acked = 0, stalls = 0;
	unsigned char *buf;
	int fd;

	if (argc < 5)
		return 2;
	parse_addr(argv[2], argv[3], &dst);
	count = (u32)strtoul(argv[4], NULL, 0);
	if (argc > 5)
		size = (u32)strtoul(argv[5], NULL, 0);
	if (argc > 6)
		window = (u32)strtoul(argv[6], NULL, 0);
	if (size < 12 || size > MAXSIZE || !window)
		return 2;
	buf = malloc(MAXSIZE);
	if (!buf)
		die("malloc");
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	if (connect(fd, (struct sockaddr *)&dst, sizeof(dst)))
		die("connect");
	for (seq = 0; seq < count; seq++) {
		u32 h[3] = { htonl(MAGIC), htonl(seq), htonl(size) }, i;

		/* Drain acknowledgments; wait while the window is full. */
		for (;;) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			int full = seq - acked >= window, r;
			u32 ack[2];

			r = poll(&pfd, 1, full ? 1000 : 0);
			if (r < 0 && errno != EINTR)
				die("poll");
			if (r <= 0) {
				/* Nothing for a second: go on as if half the window arrived. */
				if (full) {
					stalls++;
					acked += window / 2;
				}
				break;
			}
			if (recv(fd, ack, sizeof(ack), 0) == sizeof(ack) &&
			    ntohl(ack[0]) == ACK_MAGIC && ntohl(ack[1]) > acked)
				acked = ntohl(ack[1]);
		}
		memcpy(buf, h, sizeof(h));
		for (i = 12; i < size; i++)
			buf[i] = pattern(seq, i);
		while (send(fd, buf, size, 0) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN &&
			    errno != ECONNREFUSED)
				die("send");
			usleep(1000);
		}
	}
	printf("udpseq: sent %u datagrams of %u bytes, window %u, %u ack timeouts\n",
	       count, size, window, stalls);
	return 0;
}

static int do_recv(int argc, char **argv)
{
	struct sockaddr_in me, from;
	socklen_t fl;
	u32 count, idle = 10, got = 0, dups = 0, reord = 0, bad = 0;
	u32 next = 0, first_reord_seq = 0, first_reord_after = 0;
	s64 high = -1;
	unsigned char *seen, *buf;
	int fd, rcvbuf = 8 << 20, have_from = 0;

	if (argc < 5)
		return 2;
	parse_addr(argv[2], argv[3], &me);
	count = (u32)strtoul(argv[4], NULL, 0);
	if (argc > 5)
		idle = (u32)strtoul(argv[5], NULL, 0);
	seen = calloc(count ? count : 1, 1);
	buf = malloc(MAXSIZE);
	if (!seen || !buf)
		die("malloc");
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	/* As root: past net.core.rmem_max, so the socket never drops. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)))
		die("bind");
	printf("ready\n");
	fflush(stdout);
	while (got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		u32 h[3], seq, size, i;
		ssize_t n;
		int r;

		r = poll(&pfd, 1, (int)idle * 1000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("poll");
		if (!r)
			break;
		fl = sizeof(from);
		n = recvfrom(fd, buf, MAXSIZE, 0, (struct sockaddr *)&from, &fl);
		if (n < 0)
			die("recvfrom");
		have_from = 1;
		if (n < 12) {
			bad++;
			continue;
		}
		memcpy(h, buf, sizeof(h));
		seq = ntohl(h[1]);
		size = ntohl(h[2]);
		if (ntohl(h[0]) != MAGIC || size != (u32)n || seq >= count) {
			bad++;
			continue;
		}
		for (i = 12; i < size; i++)
			if (buf[i] != pattern(seq, i))
				break;
		if (i < size) {
			bad++;
			continue;
		}
		if (seen[seq]) {
			dups++;
			continue;
		}
		seen[seq] = 1;
		got++;
		if ((s64)seq < high) {
			if (!reord++) {
				first_reord_seq = seq;
				first_reord_after = (u32)high;
			}
		} else {
			high = seq;
		}
		if (got % ACK_EVERY == 0 || got == count) {
			u32 ack[2] = { htonl(ACK_MAGIC), htonl(got) };

			sendto(fd, ack, sizeof(ack), 0, (struct sockaddr *)&from, fl);
		}
	}
	while (next < count && seen[next])
		next++;
	printf("udpseq: received %u of %u, %u out of order, %u dup, %u bad, %u missing",
	       got, count, reord, dups, bad, count - got);
	if (next < count)
		printf(" (first missing: %u)", next);
	if (reord)
		printf(" (first out of order: %u after %u)", first_reord_seq,
		       first_reord_after);
	printf("%s\n", have_from ? "" : " (nothing arrived)");
	return got == count && !reord && !dups && !bad ? 0 : 1;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc > 1 && !strcmp(argv[1], "send"))
		rc = do_send(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "recv"))
		rc = do_recv(argc, argv);
	if (rc == 2 && argc < 5)
		fprintf(stderr, "usage: udpseq send ADDR PORT COUNT [SIZE [WINDOW]]\n"
				"       udpseq recv ADDR PORT COUNT [IDLE_SECONDS]\n");
	return rc;
}
