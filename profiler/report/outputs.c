// SPDX-License-Identifier: GPL-2.0
/*
 * The samples in formats that existing tools read.  An LWP record holds
 * only the IP, no call chain, so every "stack" is one frame deep, under
 * its thread.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/*
 * Folded stacks, as flamegraph.pl and speedscope read them:
 * "thread;symbol count", one line per distinct pair.
 */
void print_folded(const struct profile *p, FILE *out)
{
	for (unsigned int t = 0; t < p->nr_threads; t++) {
		const struct thread *th = &p->threads[t];
		const char **syms = malloc((th->info.nr_samples + 1) * sizeof(*syms));
		uint64_t n = th->info.nr_samples;
		char label[64];

		if (!syms)
			abort();
		thread_label(th, label, sizeof(label));
		for (uint64_t s = 0; s < n; s++)
			syms[s] = symbols_find(th->samples[s].ip)->sym;
		/* group equal symbols; the order of the groups does not matter */
		for (uint64_t s = 0; s < n; s++) {
			uint64_t count = 0;

			if (!syms[s])
				continue;
			for (uint64_t u = s; u < n; u++)
				if (syms[u] == syms[s]) {
					if (u != s)
						syms[u] = NULL;
					count++;
				}
			fprintf(out, "%s;%s %lu\n", label, syms[s], (unsigned long)count);
		}
		free(syms);
	}
}

/*
 * perf script's default layout with a one-frame call chain, which
 * stackcollapse-perf.pl and other perf script readers take:
 *
 *   comm  tid [core] time: period event:
 *   \t     ip sym+off (dso)
 *   (blank)
 *
 * LWP records carry no time stamp here (no PTSC), so the time column is
 * the sample's position in its thread, in microseconds: it orders them.
 */
void print_script(const struct profile *p, FILE *out)
{
	for (unsigned int t = 0; t < p->nr_threads; t++) {
		const struct thread *th = &p->threads[t];

		for (uint64_t s = 0; s < th->info.nr_samples; s++) {
			const struct lwprof_sample *sm = &th->samples[s];
			const struct place *pl = symbols_find(sm->ip);

			fprintf(out, "%16s %6u [%03u] %12.6f: %10u %s:u:\n",
				th->info.comm[0] ? th->info.comm : "thread", th->info.tid,
				sm->core_id, s / 1e6, p->h.interval, event_name(sm->event_id));
			fprintf(out, "\t%16lx %s+0x%lx (%s)\n\n", (unsigned long)sm->ip, pl->sym,
				(unsigned long)pl->sym_off, pl->dso);
		}
	}
}
