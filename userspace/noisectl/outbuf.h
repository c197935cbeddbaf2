/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output held back until it is complete (a dump the device changed under
 * is read again, and nothing of the first try may reach stdout): a FILE
 * whose bytes go into a list of chunks, each allocated once and never
 * moved, written out in order at the end.
 *
 * open_memstream() keeps one buffer and copies it whole each time it
 * doubles: the output's pages are touched about three times over, and
 * under UML each first touch of a page is a trip through the host.
 */
#ifndef NOISECTL_OUTBUF_H
#define NOISECTL_OUTBUF_H

#include <stdbool.h>
#include <stdio.h>

struct outbuf_chunk;

struct outbuf {
	FILE *f;			/* write here */
	struct outbuf_chunk *head, *tail;
	size_t len;			/* bytes held (after a flush of f) */
};

/* An empty buffer; dies when out of memory. */
void outbuf_open(struct outbuf *ob);
/* Close ob->f and write what it held to out; false on a write error. */
bool outbuf_write_out(struct outbuf *ob, FILE *out);
/* Close ob->f and forget what it held. */
void outbuf_discard(struct outbuf *ob);

#endif
