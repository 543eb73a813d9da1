// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts guest instructions per kernel function,
 * so that the difference of two runs shows where the extra instructions
 * went, not only how many there were.  Kernel addresses are resolved
 * with the kernel's System.map; every user-space instruction goes to one
 * bucket, "[user]" (user code has no single symbol table), and kernel
 * code outside the map's text symbols to "[kernel]".
 *
 *   -plugin insn_by_function.so,map=System.map
 *
 * At exit it prints one line per bucket that ran, to the plugin log:
 *   fn-insns: COUNT NAME
 * Counting is inline (no callback per instruction), per vCPU, summed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* x86-64 kernel addresses have bit 63 set; user ones never do */
#define KERNEL_START	0x8000000000000000ull

struct symbol {
	uint64_t addr;
	char *name;
};

/* sorted by address; the last two are the user and other-kernel buckets */
static struct symbol *syms;
static size_t nsyms;
static struct qemu_plugin_scoreboard *counts;

/* the counter of bucket @b: one scoreboard entry holds them all */
static qemu_plugin_u64 counter(size_t b)
{
	return (qemu_plugin_u64){ .score = counts, .offset = b * sizeof(uint64_t) };
}

static int by_addr(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* text symbols only: data symbols would split functions that precede them */
static bool load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[448], type;
	uint64_t addr;
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "insn_by_function: %s: %s\n", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %447s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'W' && type != 'w')
			continue;
		if (nsyms + 2 >= cap) {
			cap = cap ? cap * 2 : 4096;
			syms = g_renew(struct symbol, syms, cap);
		}
		syms[nsyms].addr = addr;
		syms[nsyms].name = g_strdup(name);
		nsyms++;
	}
	fclose(f);
	if (!nsyms) {
		fprintf(stderr, "insn_by_function: no text symbols in %s\n", path);
		return false;
	}
	qsort(syms, nsyms, sizeof(*syms), by_addr);
	syms[nsyms].name = g_strdup("[user]");
	syms[nsyms + 1].name = g_strdup("[kernel]");
	return true;
}

/* the bucket of a guest address: the last symbol at or below it */
static size_t bucket(uint64_t vaddr)
{
	size_t lo = 0, hi = nsyms;

	if (vaddr < KERNEL_START)
		return nsyms;
	if (vaddr < syms[0].addr)
		return nsyms + 1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		size_t b = bucket(qemu_plugin_insn_vaddr(insn));

		qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
			insn, QEMU_PLUGIN_INLINE_ADD_U64,
			counter(b), 1);
	}
}

static void report(qemu_plugin_id_t id, void *p)
{
	size_t i;

	for (i = 0; i < nsyms + 2; i++) {
		uint64_t n = qemu_plugin_u64_sum(counter(i));
		g_autofree char *line = NULL;

		if (!n)
			continue;
		line = g_strdup_printf("fn-insns: %" PRIu64 " %s\n", n, syms[i].name);
		qemu_plugin_outs(line);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *map = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (g_str_has_prefix(argv[i], "map="))
			map = argv[i] + 4;
		else {
			fprintf(stderr, "insn_by_function: unknown argument '%s' (expected map=FILE)\n",
				argv[i]);
			return -1;
		}
	}
	if (!map) {
		fprintf(stderr, "insn_by_function: map=FILE (the kernel's System.map) is needed\n");
		return -1;
	}
	if (!load_map(map))
		return -1;
	counts = qemu_plugin_scoreboard_new((nsyms + 2) * sizeof(uint64_t));
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, report, NULL);
	return 0;
}
