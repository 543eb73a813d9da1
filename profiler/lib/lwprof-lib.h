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
#include "../lwprof.h"

/*
 * The notification interface of the kernel series: the kernel
 * sends the chosen signal to the thread when its ring's fill reaches the
 * LWPCB's Threshold, with si_code SI_LWP and si_value the LWPCB.
 */
#define ARCH_LWP_SET_SIGNAL	0x6001
#define ARCH_LWP_GET_SIGNAL	0x6002
#define SI_LWP			(-8)

/* LWPCB Flags bit 31 asks for the threshold interrupt (CPUID LwpInt). */
#define LWP_FLAG_THRESHOLD_INT	(1u << 31)

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
	int drain;			/* enum lwprof_drain */
	int have_timer;
	timer_t timer;
	struct lwprof_chunk *first, *last;
	uint64_t nr_samples, signals, drains, lost, missed;
	int written;			/* its block is in the file */
	char comm[16];
};

struct lwprof_config {
	int lwp_ok;			/* LWP with instructions retired usable */
	unsigned int xsave_offset;	/* of component 62 (CPUID 0xD, 62 EBX) */
	unsigned int interval;
	unsigned int ring_records;
	unsigned int timer_us;
	int drain;			/* what LWPROF_DRAIN asked for, or -1 (auto) */
	int sig;
	int verbose;
};

extern struct lwprof_config lwprof_cfg;
extern __thread struct lwprof_thread *lwprof_self
	__attribute__((tls_model("initial-exec")));

/* arm.c */
struct lwprof_thread *lwprof_thread_start(void);
void lwprof_thread_stop(struct lwprof_thread *t);

/* drain.c */
void lwprof_signal_handler(int sig, siginfo_t *si, void *uc);
void lwprof_drain_to(struct lwprof_thread *t, unsigned int head);

/* output.c */
int lwprof_output_open(void);
void lwprof_output_thread(struct lwprof_thread *t);
void lwprof_output_finish(void);
void lwprof_register_thread(struct lwprof_thread *t);
void lwprof_forget_threads(void);

void lwprof_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
