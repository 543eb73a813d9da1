// SPDX-License-Identifier: GPL-2.0
/*
 * lwprof-report: read a sample file of liblwprof.so and print where the
 * program spent its instructions, by symbol and by source line, for each
 * thread and for all of them; or the samples as folded stacks (-f) or as
 * perf-script-like lines (-s) for the tools that read those.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: lwprof-report [-e PROGRAM] [-n N] [-r RUN-ID] [-f | -s] FILE\n"
		"  -e PROGRAM  the profiled program's binary (default: the path in FILE)\n"
		"  -r RUN-ID   refuse FILE unless lwprof's run RUN-ID (hex) wrote it\n"
		"  -n N        the N biggest entries per table (default 15, 0: all)\n"
		"  -f          folded stacks (thread;symbol count), for flame graphs\n"
		"  -s          one perf-script-like line per sample\n");
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "lwprof-report: out of memory\n");
		exit(1);
	}
	return p;
}

static int read_exact(FILE *f, void *p, size_t n)
{
	return fread(p, 1, n, f) == n ? 0 : -1;
}

static int load(const char *path, struct profile *p)
{
	struct lwprof_block b;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "lwprof-report: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(p, 0, sizeof(*p));
	if (read_exact(f, &p->h, sizeof(p->h)) || memcmp(p->h.magic, LWPROF_MAGIC, 8))
		goto bad;
	p->h.exe[sizeof(p->h.exe) - 1] = 0;
	p->h.no_lwp[sizeof(p->h.no_lwp) - 1] = 0;
	while (read_exact(f, &b, sizeof(b)) == 0) {
		if (p->ended)
			goto bad;	/* nothing after the end mark */
		if (b.type == LWPROF_BLOCK_END) {
			if (b.size != sizeof(p->end) || read_exact(f, &p->end, sizeof(p->end)))
				goto bad;
			p->ended = 1;
		} else if (b.type == LWPROF_BLOCK_THREAD) {
			struct thread *t;

			p->threads = realloc(p->threads, (p->nr_threads + 1) * sizeof(*t));
			if (!p->threads)
				goto bad;
			t = &p->threads[p->nr_threads++];
			if (b.size < sizeof(t->info) || read_exact(f, &t->info, sizeof(t->info)) ||
			    b.size != sizeof(t->info) + t->info.nr_samples * sizeof(*t->samples))
				goto bad;
			t->info.comm[sizeof(t->info.comm) - 1] = 0;
			t->samples = xmalloc(t->info.nr_samples * sizeof(*t->samples));
			if (read_exact(f, t->samples, t->info.nr_samples * sizeof(*t->samples)))
				goto bad;
		} else if (b.type == LWPROF_BLOCK_MODULE) {
			struct module *m;

			p->modules = realloc(p->modules, (p->nr_modules + 1) * sizeof(*m));
			if (!p->modules || b.size <= sizeof(m->m) || b.size > 65536)
				goto bad;
			m = &p->modules[p->nr_modules++];
			m->path = xmalloc(b.size - sizeof(m->m) + 1);
			if (read_exact(f, &m->m, sizeof(m->m)) ||
			    read_exact(f, m->path, b.size - sizeof(m->m)))
				goto bad;
			m->path[b.size - sizeof(m->m)] = 0;
		} else {
			goto bad;
		}
	}
	if (!feof(f))
		goto bad;
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "lwprof-report: %s: not a complete lwprof sample file\n", path);
	fclose(f);
	return -1;
}

const char *event_name(unsigned int event_id)
{
	switch (event_id) {
	case 1: return "lwpval";
	case 2: return "instructions";
	case 3: return "branches";
	case 255: return "lwpins";
	default: return "unknown-event";
	}
}

void thread_label(const struct thread *t, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%u", t->info.comm[0] ? t->info.comm : "thread", t->info.tid);
	/* folded stacks split on ';' and the last space */
	for (char *c = buf; *c; c++)
		if (*c == ';' || *c == ' ')
			*c = '_';
}

struct count {
	const char *key;
	uint64_t n;
};

static int cmp_ptr(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return x < y ? -1 : x > y;
}

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* Count the samples of threads [from, to) by symbol or by line. */
static void table(const struct profile *p, unsigned int from, unsigned int to,
		  int by_line, unsigned int top)
{
	const char **keys;
	struct count *c;
	size_t n = 0, nc = 0;

	for (unsigned int t = from; t < to; t++)
		n += p->threads[t].info.nr_samples;
	if (!n)
		return;
	keys = xmalloc(n * sizeof(*keys));
	n = 0;
	for (unsigned int t = from; t < to; t++)
		for (uint64_t s = 0; s < p->threads[t].info.nr_samples; s++) {
			const struct place *pl = symbols_find(p->threads[t].samples[s].ip);

			keys[n++] = by_line ? pl->line_sym : pl->sym;
		}
	qsort(keys, n, sizeof(*keys), cmp_ptr);
	c = xmalloc(n * sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		if (nc && c[nc - 1].key == keys[i]) {
			c[nc - 1].n++;
			continue;
		}
		c[nc].key = keys[i];
		c[nc++].n = 1;
	}
	qsort(c, nc, sizeof(*c), cmp_count);
	printf("  %8s %7s  %s\n", "samples", "share",
	       by_line ? "source line              symbol" : "symbol");
	for (size_t i = 0; i < nc && (!top || i < top); i++)
		printf("  %8lu %6.2f%%  %s\n", (unsigned long)c[i].n, 100.0 * c[i].n / n, c[i].key);
	if (top && nc > top)
		printf("  (%zu more)\n", nc - top);
	free(c);
	free(keys);
}

static const char *drain_name(const struct lwprof_file_header *h, char *buf, size_t size)
{
	switch (h->drain) {
	case LWPROF_DRAIN_TIMER:
		snprintf(buf, size, "a timer every %u us of the thread's CPU time", h->timer_us);
		return buf;
	case LWPROF_DRAIN_EXIT: return "thread exit only";
	default: return "nothing";
	}
}

/* How the process ended, as far as the file says. */
static void print_end(const struct profile *p)
{
	if (!p->ended)
		printf("lwprof: the file has no end mark: the process was killed (not by SIGINT or\n"
		       "        SIGTERM) or crashed; threads still running then are missing\n");
	else if (p->end.signal)
		printf("lwprof: the program was ended by signal %u (%s): the samples drained until then\n",
		       p->end.signal, strsignal(p->end.signal));
}

static void print_report(const struct profile *p, unsigned int top)
{
	uint64_t total = 0, missed = 0, lost = 0;
	char buf[64];

	for (unsigned int t = 0; t < p->nr_threads; t++) {
		total += p->threads[t].info.nr_samples;
		missed += p->threads[t].info.missed;
		lost += p->threads[t].info.lost;
	}
	printf("lwprof: pid %u, %s: %lu samples in %u thread(s), one every %u instructions retired\n",
	       p->h.pid, p->h.exe, (unsigned long)total, p->nr_threads, p->h.interval);
	printf("lwprof: ring %u records per thread, drained by %s\n",
	       p->h.ring_records, drain_name(&p->h, buf, sizeof(buf)));
	printf("lwprof: missed %lu (the CPU's MissedEvents, ring full), not stored %lu\n",
	       (unsigned long)missed, (unsigned long)lost);
	print_end(p);

	for (unsigned int t = 0; t < p->nr_threads; t++) {
		const struct lwprof_thread_info *i = &p->threads[t].info;

		printf("\nthread %u (%s): %lu samples, %lu missed, %lu drains in %lu signals%s\n",
		       i->tid, i->comm, (unsigned long)i->nr_samples, (unsigned long)i->missed,
		       (unsigned long)i->drains, (unsigned long)i->signals,
		       i->complete ? "" : ", still running at the end");
		table(p, t, t + 1, 0, top);
		table(p, t, t + 1, 1, top);
	}
	if (p->nr_threads > 1) {
		printf("\nall threads: %lu samples, %lu missed\n", (unsigned long)total,
		       (unsigned long)missed);
		table(p, 0, p->nr_threads, 0, top);
		table(p, 0, p->nr_threads, 1, top);
	}
}

int main(int argc, char **argv)
{
	const char *exe = NULL, *run_id = NULL;
	unsigned int top = 15;
	int mode = 'r', opt;
	struct profile p;
	uint64_t want = 0;
	char *end;

	while ((opt = getopt(argc, argv, "e:n:r:fsh")) != -1) {
		switch (opt) {
		case 'e': exe = optarg; break;
		case 'n': top = strtoul(optarg, NULL, 0); break;
		case 'r': run_id = optarg; break;
		case 'f': case 's': mode = opt; break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	if (run_id) {
		want = strtoull(run_id, &end, 16);
		if (!*run_id || *end || !want) {
			fprintf(stderr, "lwprof-report: -r %s: not a run id (non-zero hex)\n", run_id);
			return 2;
		}
	}
	if (load(argv[optind], &p))
		return 1;
	/* a file an earlier run left (lwprof also removes it before a run) */
	if (run_id && p.h.run_id != want) {
		fprintf(stderr, "lwprof-report: %s is from another run (run id %llx, not %llx): "
			"not reported\n", argv[optind], (unsigned long long)p.h.run_id,
			(unsigned long long)want);
		return 1;
	}
	if (p.h.drain == LWPROF_DRAIN_NONE) {
		fprintf(stderr, "lwprof-report: %s: process %u ran without LWP (%s): no profile\n",
			argv[optind], p.h.pid, p.h.no_lwp[0] ? p.h.no_lwp : "no reason given");
		return 1;
	}
	if (symbols_open(&p, exe))
		return 1;
	if (mode == 'f')
		print_folded(&p, stdout);
	else if (mode == 's')
		print_script(&p, stdout);
	else
		print_report(&p, top);
	return ferror(stdout) ? 1 : 0;
}
