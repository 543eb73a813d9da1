/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sample file that liblwprof.so writes and lwprof-report reads.
 *
 * One file per process.  It starts with a file header, followed by blocks
 * in any order: one THREAD block per profiled thread (written when that
 * thread exits, so blocks of different threads never interleave), one
 * MODULE block per loaded object and last the END block (both written at
 * process exit, or when SIGINT or SIGTERM ends the process, so that the
 * report can map an IP to a file even for a position-independent program,
 * and knows that the file is whole).
 * Every number is in the byte order of the profiled machine (x86: little).
 */
#ifndef LWPROF_H
#define LWPROF_H

#include <stdint.h>

#define LWPROF_MAGIC		"LWPROF2"	/* 8 bytes with the NUL */

/* How the rings were drained while the program ran. */
enum lwprof_drain {
	LWPROF_DRAIN_NONE = 0,	/* LWP not usable: no samples (see no_lwp) */
	/* 1 was the private threshold signal, gone with its kernel uAPI */
	LWPROF_DRAIN_TIMER = 2,	/* a per-thread CPU-time timer signal */
	LWPROF_DRAIN_EXIT = 3,	/* only at thread exit (LWPROF_DRAIN=exit, for tests) */
};

struct lwprof_file_header {
	char magic[8];
	uint32_t pid;
	uint32_t drain;		/* enum lwprof_drain */
	uint32_t interval;	/* a sample every this many instructions */
	uint32_t ring_records;	/* per-thread ring size */
	uint32_t timer_us;	/* the timer's period (LWPROF_DRAIN_TIMER) */
	uint32_t reserved;
	uint64_t run_id;	/* LWPROF_RUN_ID: which lwprof run wrote it (0: none) */
	char no_lwp[64];	/* LWPROF_DRAIN_NONE: why LWP was not usable */
	char exe[256];		/* the program, as the kernel saw it */
};

enum lwprof_block_type {
	LWPROF_BLOCK_THREAD = 1,
	LWPROF_BLOCK_MODULE = 2,
	LWPROF_BLOCK_END = 3,
};

struct lwprof_block {
	uint32_t type;		/* enum lwprof_block_type */
	uint32_t reserved;
	uint64_t size;		/* bytes that follow this block header */
};

/* THREAD block: this, then nr_samples samples. */
struct lwprof_thread_info {
	uint32_t tid;
	uint32_t complete;	/* 0: the thread still ran at process exit */
	uint64_t nr_samples;
	uint64_t missed;	/* the LWPCB's MissedEvents: records the CPU dropped */
	uint64_t signals;	/* notifications (signals) received */
	uint64_t drains;	/* ... that found records to drain */
	uint64_t lost;		/* records we could not store (out of memory) */
	char comm[16];
};

/* One LWP event record, reduced to what a report needs. */
struct lwprof_sample {
	uint64_t ip;
	uint8_t event_id;	/* 2: instructions retired, 255: LWPINS, ... */
	uint8_t core_id;
	uint16_t flags;
	uint32_t data1;
};

/* MODULE block: this, then the NUL-terminated path (padded to 8 bytes). */
struct lwprof_module {
	uint64_t bias;		/* load bias: runtime address - link address */
	uint64_t start;		/* lowest and highest runtime address mapped */
	uint64_t end;
};

/* END block: the file is whole; how the process ended. */
struct lwprof_end {
	uint32_t signal;	/* 0: exit; SIGINT or SIGTERM: killed by it */
	uint32_t reserved;
};

/* Environment of the preloaded library (the launcher sets them). */
#define LWPROF_ENV_OUT		"LWPROF_OUT"		/* sample file; %p: the pid */
#define LWPROF_ENV_INTERVAL	"LWPROF_INTERVAL"	/* instructions per sample */
#define LWPROF_ENV_RING		"LWPROF_RING"		/* ring size in records */
#define LWPROF_ENV_TIMER_US	"LWPROF_TIMER_US"	/* timer drain period (CPU time) */
#define LWPROF_ENV_DRAIN	"LWPROF_DRAIN"		/* timer or exit */
#define LWPROF_ENV_SIGNAL	"LWPROF_SIGNAL"		/* the signal number to use */
#define LWPROF_ENV_MAIN_PID	"LWPROF_MAIN_PID"	/* whose file is LWPROF_OUT as is */
#define LWPROF_ENV_RUN_ID	"LWPROF_RUN_ID"		/* lwprof's run, in hex */
#define LWPROF_ENV_VERBOSE	"LWPROF_VERBOSE"

#define LWPROF_DEFAULT_OUT	"lwprof.%p.data"
#define LWPROF_DEFAULT_INTERVAL	10000
#define LWPROF_DEFAULT_RING	8192
#define LWPROF_DEFAULT_TIMER_US	2000

#endif
