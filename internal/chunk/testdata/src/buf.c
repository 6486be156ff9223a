/* buf.c: growable byte buffers. */

#include <stdlib.h>
#include <string.h>
#include "buf.h"

#define BUF_MIN 64

/* A growable buffer. */
struct buf {
	char *data;
	size_t len, cap;
};

typedef struct buf buf_t;

enum buf_err { BUF_OK, BUF_NOMEM };

static int grow(struct buf *b, size_t n);

/* buf_new allocates an empty buffer. */
struct buf *buf_new(void)
{
	return calloc(1, sizeof(struct buf));
}

/* buf_append appends n bytes. */
int buf_append(struct buf *b, const char *p, size_t n)
{
	if (grow(b, n) != BUF_OK)
		return BUF_NOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return BUF_OK;
}

static int grow(struct buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : BUF_MIN;
	while (cap < b->len + n)
		cap *= 2;
	char *d = realloc(b->data, cap);
	if (!d)
		return BUF_NOMEM;
	b->data = d;
	b->cap = cap;
	return BUF_OK;
}

int buf_count;
