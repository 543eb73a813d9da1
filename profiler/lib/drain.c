// SPDX-License-Identifier: GPL-2.0
/*
 * Draining a thread's ring into its sample chunks, from the signal handler
 * (the timer, or a request of the ending handler below) and at thread exit.
 *
 * A signal handler runs with LWP off: the kernel saved the interrupted
 * context's LWP state, ring head included, in the signal frame's XSAVE
 * area, and sigreturn loads it again.  So the handler must not use SLWPCB
 * (it would find LWP off); it reads the head from the frame instead, and
 * moves the tail in the LWPCB in memory, where the CPU reads it before it
 * stores the next record.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "lwprof-lib.h"

/* The XSAVE area's software bytes (in the FXSAVE image) and header. */
#ifndef FP_XSTATE_MAGIC1
#define FP_XSTATE_MAGIC1	0x46505853u
#endif
#define FX_SW_BYTES_OFFSET	464
#define XSAVE_HEADER_OFFSET	512

struct fx_sw_bytes {
	uint32_t magic1;
	uint32_t extended_size;
	uint64_t xfeatures;
	uint32_t xstate_size;
	uint32_t padding[7];
};

/*
 * The interrupted context's ring head, from the frame's XSAVE area.
 * Returns 0 when the frame holds no live LWP state of this thread: the
 * kernel did not save component 62 there, or LWP was off (XSTATE_BV[62]
 * clear: the init state) or ran another LWPCB (the program's own).
 */
static int frame_head(const ucontext_t *uc, const struct lwprof_thread *t,
		      unsigned int *head)
{
	const char *xsave = (const char *)uc->uc_mcontext.fpregs;
	struct lwp_xstate lwp;
	struct fx_sw_bytes sw;
	uint64_t xstate_bv;

	if (!xsave || !lwprof_cfg.xsave_offset)
		return 0;
	memcpy(&sw, xsave + FX_SW_BYTES_OFFSET, sizeof(sw));
	if (sw.magic1 != FP_XSTATE_MAGIC1 || !(sw.xfeatures & (1ull << LWP_XFEATURE)) ||
	    sw.xstate_size < lwprof_cfg.xsave_offset + sizeof(lwp))
		return 0;
	memcpy(&xstate_bv, xsave + XSAVE_HEADER_OFFSET, sizeof(xstate_bv));
	if (!(xstate_bv & (1ull << LWP_XFEATURE)))
		return 0;
	memcpy(&lwp, xsave + lwprof_cfg.xsave_offset, sizeof(lwp));
	if (lwp.lwpcb != (uintptr_t)t->cb || lwp.head >= t->cb->buffer_size)
		return 0;
	*head = lwp.head;
	return 1;
}

static struct lwprof_sample *sample_slot(struct lwprof_thread *t)
{
	struct lwprof_chunk *c = t->last;

	if (!c || c->used == LWPROF_CHUNK_SAMPLES) {
		c = mmap(NULL, LWPROF_CHUNK_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c == MAP_FAILED)
			return NULL;
		c->next = NULL;
		c->used = 0;
		if (t->last)
			t->last->next = c;
		else
			t->first = c;
		t->last = c;
	}
	return &c->s[c->used++];
}

/* Copy the records from the LWPCB's tail up to head, then move the tail. */
void lwprof_drain_to(struct lwprof_thread *t, unsigned int head)
{
	volatile struct lwpcb *cb = t->cb;
	unsigned int size = cb->buffer_size / sizeof(struct lwp_record);
	unsigned int i = cb->tail / sizeof(struct lwp_record);

	head /= sizeof(struct lwp_record);
	for (; i != head; i = (i + 1) % size) {
		const struct lwp_record *r = &t->ring[i];
		struct lwprof_sample *s = sample_slot(t);

		if (!s) {
			t->lost++;
			continue;
		}
		s->ip = r->ip;
		s->event_id = r->event_id;
		s->core_id = r->core_id;
		s->flags = r->flags;
		s->data1 = r->data1;
		t->nr_samples++;
	}
	/* the records are copied before the CPU may reuse their slots */
	__atomic_store_n(&cb->tail, head * sizeof(struct lwp_record), __ATOMIC_RELEASE);
}

static void drain_from_frame(struct lwprof_thread *t, void *uc)
{
	unsigned int head;

	if (!t || !t->armed || !frame_head(uc, t, &head))
		return;
	lwprof_drain_to(t, head);
	t->drains++;
}

void lwprof_signal_handler(int sig, siginfo_t *si, void *uc)
{
	struct lwprof_thread *t = lwprof_self;

	if (!t || !t->armed)
		return;
	drain_from_frame(t, uc);
	/* counted last: the ending handler waits for it */
	__atomic_add_fetch(&t->signals, 1, __ATOMIC_RELEASE);
}

/*
 * SIGINT or SIGTERM, at their default action: this thread's ring, the
 * others' (output.c asks them), the file, and then the signal's own end.
 * A second one, in another thread, waits for that end.
 */
void lwprof_ending_handler(int sig, siginfo_t *si, void *uc)
{
	static int ending;

	if (__atomic_exchange_n(&ending, 1, __ATOMIC_ACQ_REL))
		for (;;)
			pause();
	drain_from_frame(lwprof_self, uc);
	lwprof_output_interrupted(sig);
	signal(sig, SIG_DFL);
	/* pending until the handler returns and the mask lets it through */
	raise(sig);
}
