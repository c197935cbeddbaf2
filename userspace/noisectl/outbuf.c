// SPDX-License-Identifier: GPL-2.0
/*
 * A FILE over a list of chunks (outbuf.h). Chunks are 64 KiB, below
 * malloc's mmap threshold: they come from the heap, and the pages of one
 * freed are reused by the next rather than unmapped and faulted again.
 */
#include <stdlib.h>
#include <string.h>

#include "outbuf.h"
#include "util.h"

#define OUTBUF_CHUNK (64 * 1024)

struct outbuf_chunk {
	struct outbuf_chunk *next;
	size_t len;
	char data[OUTBUF_CHUNK - 2 * sizeof(void *)];
};

static ssize_t outbuf_cookie_write(void *cookie, const char *buf, size_t size)
{
	struct outbuf *ob = cookie;
	size_t done = 0;

	while (done < size) {
		struct outbuf_chunk *c = ob->tail;
		size_t n;

		if (!c || c->len == sizeof(c->data)) {
			c = malloc(sizeof(*c));
			if (!c)
				die_oom();
			c->next = NULL;
			c->len = 0;
			if (ob->tail)
				ob->tail->next = c;
			else
				ob->head = c;
			ob->tail = c;
		}
		n = sizeof(c->data) - c->len;
		if (n > size - done)
			n = size - done;
		memcpy(c->data + c->len, buf + done, n);
		c->len += n;
		done += n;
	}
	ob->len += size;
	return size;
}

void outbuf_open(struct outbuf *ob)
{
	static const cookie_io_functions_t io = {
		.write = outbuf_cookie_write,
	};

	ob->head = NULL;
	ob->tail = NULL;
	ob->len = 0;
	ob->f = fopencookie(ob, "w", io);
	if (!ob->f)
		die_oom();
}

static void outbuf_free(struct outbuf *ob)
{
	while (ob->head) {
		struct outbuf_chunk *next = ob->head->next;

		free(ob->head);
		ob->head = next;
	}
	ob->tail = NULL;
	ob->len = 0;
}

bool outbuf_write_out(struct outbuf *ob, FILE *out)
{
	const struct outbuf_chunk *c;
	bool ok = true;

	fclose(ob->f);
	ob->f = NULL;
	for (c = ob->head; c && ok; c = c->next)
		ok = fwrite(c->data, 1, c->len, out) == c->len;
	outbuf_free(ob);
	return ok;
}

void outbuf_discard(struct outbuf *ob)
{
	fclose(ob->f);
	ob->f = NULL;
	outbuf_free(ob);
}
