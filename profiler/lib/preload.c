// SPDX-License-Identifier: GPL-2.0
/*
 * liblwprof.so: LD_PRELOAD it into an unmodified program and every thread
 * samples itself with AMD LWP (instructions retired).  The main thread is
 * armed by the constructor, every other thread by a wrapper around its
 * start routine, since LWP state is per thread and a new thread starts
 * with LWP off.  Each thread writes its samples to the process's sample
 * file when it ends (a pthread key destructor: that also covers
 * pthread_exit and cancellation), the main thread at exit(), and every
 * thread's samples so far are written when SIGINT or SIGTERM ends the
 * process (if the program leaves them at their default action).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lwprof-lib.h"

struct lwprof_config lwprof_cfg;
__thread struct lwprof_thread *lwprof_self __attribute__((tls_model("initial-exec")));

static pthread_key_t thread_key;

static unsigned int env_uint(const char *name, unsigned int def, unsigned int min)
{
	const char *s = getenv(name);
	char *end;
	unsigned long v;

	if (!s || !*s)
		return def;
	v = strtoul(s, &end, 0);
	if (*end || v < min || v > 0x7fffffff)
		return def;
	return v;
}

static void read_config(void)
{
	const char *drain = getenv(LWPROF_ENV_DRAIN);
	const char *run_id = getenv(LWPROF_ENV_RUN_ID);

	/* LLWPCB raises shorter intervals to 0xFF anyway */
	lwprof_cfg.interval = env_uint(LWPROF_ENV_INTERVAL, LWPROF_DEFAULT_INTERVAL, 0x100);
	/* the CPU's minimum ring is 32 records; it keeps one slot empty */
	lwprof_cfg.ring_records = env_uint(LWPROF_ENV_RING, LWPROF_DEFAULT_RING, 32);
	lwprof_cfg.timer_us = env_uint(LWPROF_ENV_TIMER_US, LWPROF_DEFAULT_TIMER_US, 100);
	lwprof_cfg.sig = env_uint(LWPROF_ENV_SIGNAL, SIGRTMIN + 3, 1);
	lwprof_cfg.verbose = env_uint(LWPROF_ENV_VERBOSE, 0, 0);
	lwprof_cfg.drain = LWPROF_DRAIN_TIMER;
	if (drain && !strcmp(drain, "exit"))
		lwprof_cfg.drain = LWPROF_DRAIN_EXIT;
	else if (drain && *drain && strcmp(drain, "timer"))
		fprintf(stderr, "liblwprof: %s=%s: not timer or exit; the timer drains\n",
			LWPROF_ENV_DRAIN, drain);
	if (run_id)
		lwprof_cfg.run_id = strtoull(run_id, NULL, 16);
}

/*
 * Without LWP the program still runs, unprofiled, and says so: lwprof
 * refuses to start it, so this is a run with LD_PRELOAD alone, and the
 * file's header says why it has no samples (lwprof-report refuses it).
 */
static int lwp_usable(void)
{
	lwprof_cfg.no_lwp = lwprof_lwp_unusable(&lwprof_cfg.xsave_offset);
	if (!lwprof_cfg.no_lwp)
		return 1;
	fprintf(stderr, "liblwprof: no LWP: %s; the program runs unprofiled\n",
		lwprof_cfg.no_lwp);
	return 0;
}

static void thread_end(struct lwprof_thread *t)
{
	sigset_t old;

	lwprof_block_signals(&old);
	lwprof_thread_stop(t);
	lwprof_output_thread(t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void thread_exit(void *arg)
{
	thread_end(arg);
}

static void thread_begin(void)
{
	struct lwprof_thread *t = lwprof_thread_start();

	if (t)
		pthread_setspecific(thread_key, t);
}

struct start_arg {
	void *(*fn)(void *);
	void *arg;
};

static void *thread_main(void *p)
{
	struct start_arg a = *(struct start_arg *)p;

	free(p);
	thread_begin();
	return a.fn(a.arg);
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	struct start_arg *a;
	int ret;

	if (!real) {
		real = dlsym(RTLD_NEXT, "pthread_create");
		if (!real)
			abort();
	}
	a = malloc(sizeof(*a));
	if (!a)
		return real(thread, attr, fn, arg);	/* unprofiled, but runs */
	a->fn = fn;
	a->arg = arg;
	ret = real(thread, attr, thread_main, a);
	if (ret)
		free(a);
	return ret;
}

/* A forked child starts with LWP off and reports to a file of its own. */
static void after_fork_child(void)
{
	lwprof_forget_threads();
	lwprof_self = NULL;
	thread_begin();
	lwprof_output_open();
}

void lwprof_block_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, lwprof_cfg.sig);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

/*
 * SIGINT and SIGTERM (Ctrl-C, kill, lwprof passing either on) end the
 * program without exit(), so no destructor writes the profile: a handler
 * writes it, then the signal ends the process as it would have.  Only
 * where the program leaves the default action; a program that handles
 * them ends by exit() or not at all.
 */
static void save_on(int sig)
{
	struct sigaction sa, old;

	if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = lwprof_ending_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, lwprof_cfg.sig);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(sig, &sa, NULL);
}

__attribute__((constructor))
static void lwprof_init(void)
{
	struct sigaction sa;

	read_config();
	lwprof_cfg.lwp_ok = lwp_usable();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = lwprof_signal_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	/* a drain must not be cut short by the ending handler's drain */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	if (lwprof_cfg.lwp_ok && sigaction(lwprof_cfg.sig, &sa, NULL) != 0) {
		lwprof_log("cannot handle signal %d: no samples", lwprof_cfg.sig);
		lwprof_cfg.lwp_ok = 0;
	}
	pthread_key_create(&thread_key, thread_exit);
	pthread_atfork(NULL, NULL, after_fork_child);
	thread_begin();
	lwprof_output_open();
	save_on(SIGINT);
	save_on(SIGTERM);
}

__attribute__((destructor))
static void lwprof_fini(void)
{
	struct lwprof_thread *t = lwprof_self;
	sigset_t old;

	/* exit() may come from any thread: this one ends here */
	if (t)
		thread_end(t);
	lwprof_block_signals(&old);
	lwprof_output_finish(0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
