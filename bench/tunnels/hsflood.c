// SPDX-License-Identifier: GPL-2.0
/*
 * hsflood SRC DST PORT FILE SECONDS WINDOW [MSGLEN RESPLEN]: send the
 * handshake initiations of FILE (made by bench/tunnels/hsrate.py, each one
 * valid and sent once, in order; MSGLEN bytes each, default 148) to
 * DST:PORT from address SRC (IPv4), with at most WINDOW of them unanswered
 * at a time, for at most SECONDS; count what comes back: handshake
 * responses (RESPLEN bytes, default 92, whose receiver index names an
 * initiation of FILE: its position), cookie replies (64 bytes) and
 * anything else. The framing is read from the first message of FILE:
 * WireGuard's (type 1, then three zero bytes: a response is type 2, a
 * cookie reply type 3) or the tunnel's own (type 1, version 1, message 1,
 * Documentation/wire-format.rst: a response is type 1, version 1, message
 * 2; a cookie reply type 2, version 1). Either way the receiver index is
 * at offset 8. sendmmsg() and recvmmsg(), 64 messages
 * per system call: in UML every system call is a round trip through the
 * host, and the sender shares the one CPU with the responder: it sends
 * when a quarter of the window (at most 32) is free and otherwise sleeps
 * 5 ms between looks, so it wakes once per batch of answers, not per answer.
 *
 * A window below the responders' "under load" threshold (512 queued
 * handshakes, WireGuard's and ours) measures the responder's own rate
 * with its defences idle; an initiation that got no answer for 0.5 s
 * while nothing came back is counted lost and leaves the window.
 *
 * Prints one JSON object at the end (also when stopped by SIGTERM/SIGINT):
 * counts, the sender's times (CLOCK_MONOTONIC, seconds from its first
 * send) and its own CPU time (getrusage). A response again for the same
 * initiation (a responder resending its unconfirmed response: ours does,
 * after 1 s) counts in dup_responses, not in responses.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "../../tests/selftests/msgfile.h"

#define BATCH		64
#define WG_MSG_LEN	148
#define WG_RESP_LEN	92
#define MAX_MSG_LEN	2048	/* the tunnel's longest handshake message */
#define COOKIE_LEN	64
#define RX_CAP		MAX_MSG_LEN
#define LOST_AFTER	0.5
#define PAUSE_NS	5000000
#define DRAIN_MS	100	/* after the time is up: until this long quiet */

static atomic_int stop;	/* lock-free: safe to set in a handler */

/* What an answer looks like: its first four bytes (little endian), length. */
static unsigned int resp_word = 2, resp_len = WG_RESP_LEN, cookie_word = 3;
static size_t msg_len = WG_MSG_LEN;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

static unsigned int le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

struct counts {
	unsigned long long sent, responses, dup_responses, foreign_responses;
	unsigned long long cookies, other, lost, send_calls, recv_calls;
	double first_send, last_send, first_response, last_response;
};

/* One received datagram; @seen marks the initiations already answered. */
static void classify(struct counts *c, unsigned char *seen, size_t count,
		     const unsigned char *p, size_t len, double t)
{
	unsigned int type = len >= 4 ? le32(p) : 0, idx;

	if (type == resp_word && len == resp_len) {
		idx = le32(p + 8);	/* receiver index: our sender index */
		if (idx >= count) {
			c->foreign_responses++;
		} else if (seen[idx]) {
			c->dup_responses++;
		} else {
			seen[idx] = 1;
			if (!c->responses)
				c->first_response = t;
			c->responses++;
			c->last_response = t;
		}
	} else if (type == cookie_word && len == COOKIE_LEN) {
		c->cookies++;
	} else {
		c->other++;
	}
}

static void report(const struct counts *c, size_t count, unsigned int window,
		   double start)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	printf("{\"messages\": %zu, \"window\": %u, \"sent\": %llu, \"responses\": %llu, ",
	       count, window, c->sent, c->responses);
	printf("\"dup_responses\": %llu, \"foreign_responses\": %llu, \"cookie_replies\": %llu, ",
	       c->dup_responses, c->foreign_responses, c->cookies);
	printf("\"other\": %llu, \"lost\": %llu, \"send_calls\": %llu, \"recv_calls\": %llu, ",
	       c->other, c->lost, c->send_calls, c->recv_calls);
	printf("\"last_send_s\": %.6f, \"first_response_s\": %.6f, \"last_response_s\": %.6f, ",
	       c->sent ? c->last_send - c->first_send : 0,
	       c->responses ? c->first_response - c->first_send : 0,
	       c->responses ? c->last_response - c->first_send : 0);
	printf("\"wall_s\": %.6f, \"cpu_user_s\": %.6f, \"cpu_sys_s\": %.6f}\n",
	       now() - start, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/* The framing of the first message of @msgs: what its answers look like. */
static void set_framing(const unsigned char *msgs)
{
	if (msgs[0] == 1 && msgs[1] == 1 && msgs[2] == 1) {	/* ours */
		resp_word = 1 | 1 << 8 | 2 << 16;	/* type 1, v1, message 2 */
		cookie_word = 2 | 1 << 8;		/* type 2, v1 */
	}
}

/* The arguments: 0, or the exit status of a usage error. */
static int setup(int argc, char **argv, struct sockaddr_in *src,
		 struct sockaddr_in *dst, unsigned int *window,
		 unsigned char **msgs, size_t *count)
{
	if (argc != 7 && argc != 9) {
		fprintf(stderr, "usage: %s SRC DST PORT FILE SECONDS WINDOW [MSGLEN RESPLEN]\n",
			argv[0]);
		return 2;
	}
	if (argc == 9) {
		msg_len = strtoul(argv[7], NULL, 10);
		resp_len = strtoul(argv[8], NULL, 10);
	}
	*window = strtoul(argv[6], NULL, 10);
	if (inet_pton(AF_INET, argv[1], &src->sin_addr) != 1 ||
	    inet_pton(AF_INET, argv[2], &dst->sin_addr) != 1 || !*window ||
	    msg_len < 12 || msg_len > MAX_MSG_LEN || resp_len > RX_CAP) {
		fprintf(stderr, "hsflood: bad address, window or length\n");
		return 2;
	}
	dst->sin_port = htons(atoi(argv[3]));
	if (read_msgs(argv[4], msg_len, msgs, count)) {
		fprintf(stderr, "hsflood: %s: not a whole number of %zu-byte messages\n",
			argv[4], msg_len);
		return 2;
	}
	set_framing(*msgs);
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char rxbuf[BATCH][RX_CAP];
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct mmsghdr mm[BATCH], rm[BATCH];
	struct iovec iov[BATCH], riov[BATCH];
	struct counts c = { 0 };
	unsigned char *msgs, *seen;
	size_t count, next = 0;
	struct timespec pause = { 0, PAUSE_NS };
	unsigned int window, refill;
	double start, end, last_rx, t;
	int s, i, n, rcvbuf = 4 << 20;

	i = setup(argc, argv, &src, &dst, &window, &msgs, &count);
	if (i)
		return i;
	refill = window / 4 > BATCH / 2 ? BATCH / 2 : window / 4;
	if (!refill)
		refill = 1;
	seen = calloc(count, 1);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (!seen || s < 0 || bind(s, (struct sockaddr *)&src, sizeof(src)) ||
	    connect(s, (struct sockaddr *)&dst, sizeof(dst))) {
		perror("hsflood: socket");
		return 1;
	}
	setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	memset(mm, 0, sizeof(mm));
	memset(rm, 0, sizeof(rm));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_len = msg_len;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		riov[i].iov_base = rxbuf[i];
		riov[i].iov_len = RX_CAP;
		rm[i].msg_hdr.msg_iov = &riov[i];
		rm[i].msg_hdr.msg_iovlen = 1;
	}
	start = now();
	end = start + atof(argv[5]);
	last_rx = start;
	c.first_send = start;
	while (!atomic_load(&stop)) {
		unsigned long long answered = c.responses + c.dup_responses +
					      c.cookies + c.lost;
		unsigned long long open = c.sent - (answered < c.sent ? answered : c.sent);
		unsigned long long room = open < window ? window - open : 0;

		t = now();
		if (t >= end || (next == count && !open))
			break;
		if (open && t - last_rx > LOST_AFTER) {
			c.lost += open;	/* no answer: out of the window */
			last_rx = t;
			continue;
		}
		if (next < count && (room >= refill || (room && !open))) {
			unsigned int k = room > BATCH ? BATCH : room;

			if (k > count - next)
				k = count - next;
			for (i = 0; i < (int)k; i++)
				iov[i].iov_base = msgs + msg_len * (next + i);
			n = sendmmsg(s, mm, k, 0);
			c.send_calls++;
			if (n > 0) {
				if (!c.sent)
					c.first_send = now();
				c.sent += n;
				next += n;
				c.last_send = now();
			} else if (n < 0 && errno != ENOBUFS && errno != EAGAIN &&
				   errno != EINTR) {
				perror("hsflood: sendmmsg");
				break;
			}
		} else {
			/* Let answers gather: one wake-up per batch, not per answer. */
			nanosleep(&pause, NULL);
		}
		for (;;) {
			n = recvmmsg(s, rm, BATCH, MSG_DONTWAIT, NULL);
			c.recv_calls++;
			if (n <= 0)
				break;
			last_rx = now();
			for (i = 0; i < n; i++)
				classify(&c, seen, count, rxbuf[i], rm[i].msg_len, last_rx);
			if (n < BATCH)
				break;
		}
	}
	/*
	 * What was still on its way when the time was up, for at most 1 s
	 * (a responder that resends unconfirmed responses never goes quiet).
	 */
	end = now() + 1;
	while (now() < end &&
	       poll(&(struct pollfd){ .fd = s, .events = POLLIN }, 1, DRAIN_MS) > 0) {
		n = recvmmsg(s, rm, BATCH, MSG_DONTWAIT, NULL);
		c.recv_calls++;
		if (n <= 0)
			break;
		t = now();
		for (i = 0; i < n; i++)
			classify(&c, seen, count, rxbuf[i], rm[i].msg_len, t);
	}
	report(&c, count, window, start);
	free(seen);
	free(msgs);
	close(s);
	return 0;
}
