// SPDX-License-Identifier: GPL-2.0
/*
 * liblwprof.so: LD_PRELOAD it into an unmodified program and every thread
 * samples itself with AMD LWP (instructions retired).  The main thread is
 * armed by the constructor, every other thread by a wrapper around its
 * start routine, since LWP state is per thread and a new thread starts
 * with LWP off.  Each thread writes its samples to the process's sample
 * file when it ends (a pthread key destructor: that also covers
 * pthread_exit and cancellation), the main thread at exit().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
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

	/* LLWPCB raises shorter intervals to 0xFF anyway */
	lwprof_cfg.interval = env_uint(LWPROF_ENV_INTERVAL, LWPROF_DEFAULT_INTERVAL, 0x100);
	/* the CPU's minimum ring is 32 records; it keeps one slot empty */
	lwprof_cfg.ring_records = env_uint(LWPROF_ENV_RING, LWPROF_DEFAULT_RING, 32);
	lwprof_cfg.timer_us = env_uint(LWPROF_ENV_TIMER_US, LWPROF_DEFAULT_TIMER_US, 100);
	lwprof_cfg.sig = env_uint(LWPROF_ENV_SIGNAL, SIGRTMIN + 3, 1);
	lwprof_cfg.verbose = env_uint(LWPROF_ENV_VERBOSE, 0, 0);
	lwprof_cfg.drain = -1;
	if (drain && !strcmp(drain, "signal"))
		lwprof_cfg.drain = LWPROF_DRAIN_SIGNAL;
	else if (drain && !strcmp(drain, "timer"))
		lwprof_cfg.drain = LWPROF_DRAIN_TIMER;
	else if (drain && !strcmp(drain, "exit"))
		lwprof_cfg.drain = LWPROF_DRAIN_EXIT;
}

/* LWP with instructions retired, the record layout of lib/lwp.h, XSAVE. */
static int lwp_usable(void)
{
	unsigned int geometry = 0, eax, ebx, ecx, edx;
	unsigned int features = lwp_enabled_features(&geometry);

	if (!(features & LWP_AVAIL) || !(features & LWP_EVENT_BIT(LWP_EVENT_INSNS))) {
		lwprof_log("LWP is not available (CPU or kernel): no samples");
		return 0;
	}
	if (!lwp_geometry_ok(geometry)) {
		lwprof_log("unexpected LWP geometry %#x: no samples", geometry);
		return 0;
	}
	__cpuid_count(0xd, LWP_XFEATURE, eax, ebx, ecx, edx);
	if (eax < sizeof(struct lwp_xstate)) {
		lwprof_log("no XSAVE component 62: no samples");
		return 0;
	}
	lwprof_cfg.xsave_offset = ebx;
	return 1;
}

static void thread_exit(void *arg)
{
	struct lwprof_thread *t = arg;

	lwprof_thread_stop(t);
	lwprof_output_thread(t);
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

__attribute__((constructor))
static void lwprof_init(void)
{
	struct sigaction sa;

	read_config();
	lwprof_cfg.lwp_ok = lwp_usable();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = lwprof_signal_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (lwprof_cfg.lwp_ok && sigaction(lwprof_cfg.sig, &sa, NULL) != 0) {
		lwprof_log("cannot handle signal %d: no samples", lwprof_cfg.sig);
		lwprof_cfg.lwp_ok = 0;
	}
	pthread_key_create(&thread_key, thread_exit);
	pthread_atfork(NULL, NULL, after_fork_child);
	thread_begin();
	lwprof_output_open();
}

__attribute__((destructor))
static void lwprof_fini(void)
{
	struct lwprof_thread *t = lwprof_self;

	/* exit() may come from any thread: this one ends here */
	if (t) {
		lwprof_thread_stop(t);
		lwprof_output_thread(t);
	}
	lwprof_output_finish();
}
