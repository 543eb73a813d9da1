// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the memory XSAVE and XRSTOR (all their
 * forms) touch.  Under icount every instruction counts as one, whatever
 * it moves, so the instruction count of a context switch cannot show
 * what a bigger XSAVE area costs; the bytes these instructions load and
 * store can.  XSAVE is emulated in helpers, whose accesses reach the
 * plugin's memory callbacks like those of any other instruction.
 *
 * At exit it prints one line to the plugin log:
 *   xsave-bytes: xsave N stored S xrstor M loaded L
 * N and M are executions, S and L bytes.  Only one vCPU is expected (the
 * benchmark runs one), so plain counters do.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum kind { OTHER, SAVE, RESTORE };

static uint64_t saves, restores, stored, loaded;

/*
 * Classify an instruction by its bytes: the XSAVE family is 0F AE /4
 * (XSAVE), /5 (XRSTOR), /6 (XSAVEOPT) and 0F C7 /3 (XRSTORS), /4
 * (XSAVEC), /5 (XSAVES), always with a memory operand and without a
 * 66, F2 or F3 prefix (those select CLWB, PTWRITE and friends).
 */
static enum kind classify(const uint8_t *b, size_t len)
{
	size_t i = 0;
	uint8_t reg;

	while (i < len && (b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 ||
			   b[i] == 0x36 || b[i] == 0x64 || b[i] == 0x65 ||
			   b[i] == 0x67))
		i++;
	if (i < len && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (i + 3 > len || b[i] != 0x0f || (b[i + 2] >> 6) == 3)
		return OTHER;
	reg = (b[i + 2] >> 3) & 7;
	if (b[i + 1] == 0xae)
		return reg == 4 || reg == 6 ? SAVE : reg == 5 ? RESTORE : OTHER;
	if (b[i + 1] == 0xc7)
		return reg == 4 || reg == 5 ? SAVE : reg == 3 ? RESTORE : OTHER;
	return OTHER;
}

static void on_exec(unsigned int vcpu, void *udata)
{
	if ((uintptr_t)udata == SAVE)
		saves++;
	else
		restores++;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	uint64_t size = 1ull << qemu_plugin_mem_size_shift(info);

	if (qemu_plugin_mem_is_store(info))
		stored += size;
	else
		loaded += size;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint8_t bytes[16];
		size_t len = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
		enum kind k = classify(bytes, len);

		if (k == OTHER)
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec,
						       QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)k);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void report(qemu_plugin_id_t id, void *p)
{
	g_autofree char *line = g_strdup_printf(
		"xsave-bytes: xsave %" PRIu64 " stored %" PRIu64
		" xrstor %" PRIu64 " loaded %" PRIu64 "\n",
		saves, stored, restores, loaded);

	qemu_plugin_outs(line);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, report, NULL);
	return 0;
}
