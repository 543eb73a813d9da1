/* SPDX-License-Identifier: GPL-2.0 */
/* lwprof-report's internals: the sample file in memory, and symbols. */
#ifndef LWPROF_REPORT_H
#define LWPROF_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../lwprof.h"

struct thread {
	struct lwprof_thread_info info;
	struct lwprof_sample *samples;
};

struct module {
	struct lwprof_module m;
	char *path;
};

struct profile {
	struct lwprof_file_header h;
	struct thread *threads;
	unsigned int nr_threads;
	struct module *modules;
	unsigned int nr_modules;
	int ended;		/* the END block was read */
	struct lwprof_end end;
};

/* What an IP resolved to; the strings are interned: compare pointers. */
struct place {
	uint64_t ip;
	const char *sym;	/* "name", or "[unknown]" */
	uint64_t sym_off;	/* ip - the symbol's address */
	const char *dso;	/* module path, or "[unknown]" */
	const char *line;	/* "file.c:42", or "??:0" */
	const char *line_sym;	/* "file.c:42 name": the by-line report's key */
};

/* symbols.c: resolve with libdwfl, each distinct IP once. */
int symbols_open(const struct profile *p, const char *exe);
const struct place *symbols_find(uint64_t ip);
const char *intern(const char *s);

/* outputs.c: formats that other tools read. */
void print_folded(const struct profile *p, FILE *out);
void print_script(const struct profile *p, FILE *out);

const char *event_name(unsigned int event_id);
void thread_label(const struct thread *t, char *buf, size_t size);

#endif
