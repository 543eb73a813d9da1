/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblwprof.so's internals: the per-thread state and the functions the
 * files of the library share.
 */
#ifndef LWPROF_LIB_H
#define LWPROF_LIB_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "../../lib/lwp.h"
#include "../lwp-check.h"
#include "../lwprof.h"

/* XSAVE component 62 in the standard format (docs/lwp-decisions.md). */
#define LWP_XFEATURE		62
struct lwp_xstate {
	uint64_t lwpcb;
	uint32_t flags;
	uint32_t head;
	uint64_t buffer_base;
	uint32_t buffer_size;
	uint32_t filters;
};

/*
 * Samples are kept in chunks that the signal handler can allocate itself
 * (mmap is a plain system call; malloc is not safe in a handler).
 */
#define LWPROF_CHUNK_BYTES	(1 << 20)
struct lwprof_chunk {
	struct lwprof_chunk *next;
	uint64_t used;
	struct lwprof_sample s[];
};
#define LWPROF_CHUNK_SAMPLES \
	((LWPROF_CHUNK_BYTES - sizeof(struct lwprof_chunk)) / sizeof(struct lwprof_sample))

struct lwprof_thread {
	struct lwprof_thread *next;	/* all threads of the process */
	pid_t tid;
	struct lwpcb *cb;
	struct lwp_record *ring;
	volatile int armed;		/* our LWPCB is loaded in this thread */
	volatile int done;		/* stopped and drained: its samples are final */
	int drain;			/* enum lwprof_drain */
	int have_timer;
	timer_t timer;
	struct lwprof_chunk *first, *last;
	uint64_t nr_samples, signals, drains, lost, missed;
	int written;			/* its block is in the file */
	uint64_t asked;			/* the ending handler waits for signals to reach this */
	char comm[16];
};

struct lwprof_config {
	int lwp_ok;			/* LWP with instructions retired usable */
	unsigned int xsave_offset;	/* of component 62 (CPUID 0xD, 62 EBX) */
	unsigned int interval;
	unsigned int ring_records;
	unsigned int timer_us;
	int drain;			/* LWPROF_DRAIN_TIMER or LWPROF_DRAIN_EXIT */
	int sig;
	uint64_t run_id;
	const char *no_lwp;		/* why LWP is not usable, or NULL */
	int verbose;
};

extern struct lwprof_config lwprof_cfg;
extern __thread struct lwprof_thread *lwprof_self
	__attribute__((tls_model("initial-exec")));

/*
 * The signals whose handlers use the threads' state and the sample file:
 * the drain signal, and SIGINT and SIGTERM, on which the profile so far is
 * written.  They are blocked wherever a thread changes that state, so that
 * no handler finds it half changed.
 */
void lwprof_block_signals(sigset_t *old);

/* arm.c */
struct lwprof_thread *lwprof_thread_start(void);
void lwprof_thread_stop(struct lwprof_thread *t);

/* drain.c */
void lwprof_signal_handler(int sig, siginfo_t *si, void *uc);
void lwprof_ending_handler(int sig, siginfo_t *si, void *uc);
void lwprof_drain_to(struct lwprof_thread *t, unsigned int head);

/* output.c */
int lwprof_output_open(void);
void lwprof_output_thread(struct lwprof_thread *t);
void lwprof_output_finish(int sig);
void lwprof_output_interrupted(int sig);
void lwprof_register_thread(struct lwprof_thread *t);
void lwprof_forget_threads(void);

void lwprof_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
