// SPDX-License-Identifier: GPL-2.0
/*
 * funcdur: parsing of times, formatting, and small helpers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "funcdur.h"

/*
 * A time with an optional unit: ns (the default), us, ms or s. Only
 * digits, then the unit: "1.5ms" and "-1" are refused, and so is a
 * value that does not fit in 64 bits. Returns 0 or -1.
 */
int parse_time_ns(const char *s, unsigned long long *ns)
{
	static const struct { const char *unit; unsigned long long mult; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", NS_PER_SEC },
	};
	unsigned long long v;
	char *end;
	size_t i;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > THRESHOLD_OFF / units[i].mult)
			return -1;
		*ns = v * units[i].mult;
		return 0;
	}
	return -1;
}

/* "812ns", "15.2us", "3.77ms", "2.01s": four significant digits at most. */
void format_ns(char *buf, size_t size, unsigned long long ns)
{
	if (ns < 1000)
		snprintf(buf, size, "%lluns", ns);
	else if (ns < 1000000)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < NS_PER_SEC)
		snprintf(buf, size, "%.2fms", ns / 1e6);
	else
		snprintf(buf, size, "%.2fs", ns / 1e9);
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("funcdur: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(FUNCDUR_EXIT_ERROR);
}

void warnx_fd(const char *fmt, ...)
{
	va_list ap;

	fputs("funcdur: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void *xzalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		fatal("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		fatal("out of memory");
	return p;
}

/* Append a copy of @s to a NULL-terminated list. */
char **list_add(char **list, int *nr, const char *s)
{
	list = realloc(list, (*nr + 2) * sizeof(*list));
	if (!list)
		fatal("out of memory");
	list[(*nr)++] = xstrdup(s);
	list[*nr] = NULL;
	return list;
}

/* The first line of a file such as /proc/PID/comm, without its newline. */
bool read_first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, size, f);
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

/* djb2: the hash of the string tables of folded.c and chrome.c */
unsigned long str_hash(const char *s)
{
	unsigned long h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* A field quoted only if it needs to be (RFC 4180). */
void csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
