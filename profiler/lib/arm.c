// SPDX-License-Identifier: GPL-2.0
/*
 * Arming and disarming LWP in one thread: its own LWPCB and ring, sampling
 * instructions retired, and a timer that has it drained while it runs.
 */
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lwprof-lib.h"

/*
 * A timer on the thread's own CPU time, so that a thread is interrupted in
 * proportion to the records it makes, and one that sleeps costs nothing.
 * The handler finds the ring's head in the signal frame.  (A kernel
 * notification when the ring fills will come with the perf PMU, issue 18.)
 */
static int use_timer(struct lwprof_thread *t)
{
	struct sigevent sev;
	struct itimerspec its;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = lwprof_cfg.sig;
	sev._sigev_un._tid = t->tid;	/* sigev_notify_thread_id */
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t->timer) != 0) {
		lwprof_log("timer_create: %s", strerror(errno));
		return 0;
	}
	memset(&its, 0, sizeof(its));
	its.it_interval.tv_sec = lwprof_cfg.timer_us / 1000000;
	its.it_interval.tv_nsec = lwprof_cfg.timer_us % 1000000 * 1000;
	its.it_value = its.it_interval;
	if (timer_settime(t->timer, 0, &its, NULL) != 0) {
		lwprof_log("timer_settime: %s", strerror(errno));
		timer_delete(t->timer);
		return 0;
	}
	t->have_timer = 1;
	return 1;
}

static int setup_lwpcb(struct lwprof_thread *t)
{
	size_t ring_bytes = (size_t)lwprof_cfg.ring_records * sizeof(struct lwp_record);
	struct lwpcb *cb;

	cb = aligned_alloc(64, sizeof(*cb));
	t->ring = mmap(NULL, ring_bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (!cb || t->ring == MAP_FAILED) {
		free(cb);
		t->ring = NULL;
		return 0;
	}
	memset(cb, 0, sizeof(*cb));
	cb->flags = LWP_EVENT_BIT(LWP_EVENT_INSNS);
	cb->buffer_size = ring_bytes;
	cb->buffer_base = (uintptr_t)t->ring;
	/* the counter runs from interval to -1: a period of interval + 1 */
	cb->event[LWP_EVENT_INSNS - 1].interval = lwprof_cfg.interval - 1;
	cb->event[LWP_EVENT_INSNS - 1].counter = lwprof_cfg.interval - 1;
	t->cb = cb;
	return 1;
}

/* Called in the new thread itself, before it runs any of the program. */
struct lwprof_thread *lwprof_thread_start(void)
{
	struct lwprof_thread *t = calloc(1, sizeof(*t));
	sigset_t old;

	if (!t)
		return NULL;
	t->tid = syscall(SYS_gettid);
	t->drain = LWPROF_DRAIN_NONE;
	lwprof_self = t;
	lwprof_register_thread(t);
	if (!lwprof_cfg.lwp_ok || !setup_lwpcb(t)) {
		t->done = 1;
		return t;
	}

	t->drain = lwprof_cfg.drain;
	/* armed first: a signal from now on must find the state complete */
	lwprof_block_signals(&old);
	t->armed = 1;
	lwp_load(t->cb);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (t->drain == LWPROF_DRAIN_TIMER && !use_timer(t))
		t->drain = LWPROF_DRAIN_EXIT;
	lwprof_log("thread %d armed, drained by %s", t->tid,
		   t->drain == LWPROF_DRAIN_TIMER ? "timer" : "exit only");
	return t;
}

/*
 * The last drain, in the thread itself when it ends (with the signals of
 * lwprof_block_signals blocked): no more timer, then LLWPCB 0, which
 * flushes the head (and MissedEvents) into the LWPCB as SLWPCB does and
 * stops LWP, so that nothing is recorded after it.
 */
void lwprof_thread_stop(struct lwprof_thread *t)
{
	prctl(PR_GET_NAME, t->comm, 0, 0, 0);
	if (!t->armed)
		return;
	if (t->have_timer) {
		timer_delete(t->timer);
		t->have_timer = 0;
	}

	/*
	 * If the program loaded an LWPCB of its own, its LLWPCB flushed ours:
	 * our head in memory is then current, and theirs stays loaded.
	 */
	if (lwp_flush() == t->cb)
		lwp_load(NULL);
	t->armed = 0;
	lwprof_drain_to(t, t->cb->head);
	t->missed = t->cb->missed_events;
	/* LWP no longer writes there, and the handler now returns at once */
	munmap(t->ring, t->cb->buffer_size);
	free(t->cb);
	t->ring = NULL;
	t->cb = NULL;
	t->done = 1;
	lwprof_log("thread %d: %lu samples, %lu missed, %lu signals, %lu drains", t->tid,
		   (unsigned long)t->nr_samples, (unsigned long)t->missed,
		   (unsigned long)t->signals, (unsigned long)t->drains);
}
