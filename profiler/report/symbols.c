// SPDX-License-Identifier: GPL-2.0
/*
 * From IPs to symbols and source lines with elfutils' libdwfl: every module
 * the process had loaded is reported at the address it ran at, so that a
 * position-independent program or library resolves as well as a fixed one.
 */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static Dwfl *dwfl;
static struct place *places;	/* sorted by ip */
static size_t nr_places;

static size_t hash(const char *s)
{
	size_t h = 5381;

	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

/* A small string table: reports compare symbols by pointer. */
const char *intern(const char *s)
{
	static const char **table;
	static size_t size, used;
	size_t i;

	if (used * 2 >= size) {
		const char **old = table;
		size_t old_size = size;

		size = size ? size * 2 : 1024;
		table = calloc(size, sizeof(*table));
		if (!table)
			abort();
		/* move the strings, not copies: their addresses are handed out */
		for (size_t j = 0; j < old_size; j++) {
			if (!old[j])
				continue;
			for (i = hash(old[j]) % size; table[i]; i = (i + 1) % size)
				;
			table[i] = old[j];
		}
		free(old);
	}
	for (i = hash(s) % size; table[i]; i = (i + 1) % size)
		if (!strcmp(table[i], s))
			return table[i];
	table[i] = strdup(s);
	if (!table[i])
		abort();
	used++;
	return table[i];
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void resolve(struct place *pl)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pl->ip);
	const char *name = NULL, *file = NULL, *slash;
	GElf_Off off = 0;
	GElf_Sym sym;
	char buf[4096];
	int lineno = 0;

	pl->sym = intern("[unknown]");
	pl->dso = intern("[unknown]");
	pl->line = intern("??:0");
	pl->sym_off = 0;
	if (!mod)
		goto out;
	pl->dso = intern(dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	name = dwfl_module_addrinfo(mod, pl->ip, &off, &sym, NULL, NULL, NULL);
	if (name) {
		pl->sym = intern(name);
		pl->sym_off = off;
	}
	Dwfl_Line *line = dwfl_module_getsrc(mod, pl->ip);

	if (line)
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (file) {
		slash = strrchr(file, '/');
		snprintf(buf, sizeof(buf), "%s:%d", slash ? slash + 1 : file, lineno);
		pl->line = intern(buf);
	}
out:
	snprintf(buf, sizeof(buf), "%-24s %s", pl->line, pl->sym);
	pl->line_sym = intern(buf);
}

int symbols_open(const struct profile *p, const char *exe)
{
	uint64_t *ips;
	size_t n = 0;

	dwfl = dwfl_begin(&callbacks);
	if (!dwfl)
		return -1;
	dwfl_report_begin(dwfl);
	for (unsigned int i = 0; i < p->nr_modules; i++) {
		const struct module *m = &p->modules[i];
		const char *path = m->path;

		/* the first module is the program: it may live elsewhere here */
		if (i == 0 && exe)
			path = exe;
		if (path[0] != '/')
			continue;	/* the vDSO has no file */
		/* ET_DYN: base is the load bias (add_p_vaddr); ET_EXEC ignores it */
		if (!dwfl_report_elf(dwfl, m->path, path, -1, m->m.bias, true))
			fprintf(stderr, "lwprof-report: %s: %s (its samples stay unresolved)\n",
				path, dwfl_errmsg(-1));
	}
	dwfl_report_end(dwfl, NULL, NULL);

	/* each distinct IP once */
	for (unsigned int t = 0; t < p->nr_threads; t++)
		n += p->threads[t].info.nr_samples;
	ips = malloc((n + 1) * sizeof(*ips));
	if (!ips)
		return -1;
	n = 0;
	for (unsigned int t = 0; t < p->nr_threads; t++)
		for (uint64_t s = 0; s < p->threads[t].info.nr_samples; s++)
			ips[n++] = p->threads[t].samples[s].ip;
	qsort(ips, n, sizeof(*ips), cmp_u64);
	places = calloc(n + 1, sizeof(*places));
	if (!places)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (nr_places && places[nr_places - 1].ip == ips[i])
			continue;
		places[nr_places].ip = ips[i];
		resolve(&places[nr_places++]);
	}
	free(ips);
	return 0;
}

const struct place *symbols_find(uint64_t ip)
{
	size_t lo = 0, hi = nr_places;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (places[mid].ip == ip)
			return &places[mid];
		if (places[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
