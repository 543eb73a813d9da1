// SPDX-License-Identifier: GPL-2.0
/*
 * A program that profiles itself with AMD Lightweight Profiling.
 *
 * It samples "instructions retired" (LWP event 2) while running three
 * functions whose costs are in the ratio 1:3:6, drains the ring buffer
 * between rounds the way a real consumer would (SLWPCB to flush the head,
 * then move the tail), and prints how many samples landed in each function.
 * No system call, signal or interrupt is involved in taking a sample.
 *
 * Exit status: 0 when the profile matches the known costs, 1 when it does
 * not, 4 (as kselftest's skip) when LWP cannot be used here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lwp.h"

#define SAMPLE_INTERVAL		9999		/* one sample per 10000 insns */
#define RING_RECORDS		1024
#define ROUNDS			12

/*
 * The workload: one loop body, run for 1, 3 and 6 units.  The functions
 * live in their own section so that a sample can be attributed by address.
 */
#define WORK_UNIT 100000
#define WORK(name, units)						\
	__attribute__((noinline, section("lwp_work")))			\
	unsigned long name(unsigned long x)				\
	{								\
		for (long i = 0; i < (units) * WORK_UNIT; i++) {	\
			x = x * 31 + i;					\
			asm volatile("" : "+r"(x));			\
		}							\
		return x;						\
	}

WORK(light_work, 1)
WORK(medium_work, 3)
WORK(heavy_work, 6)

extern char __start_lwp_work[], __stop_lwp_work[];

static const struct {
	const char *name;
	unsigned long (*fn)(unsigned long);
	int units;
} work[] = {
	{ "light_work", light_work, 1 },
	{ "medium_work", medium_work, 3 },
	{ "heavy_work", heavy_work, 6 },
};
#define NWORK (sizeof(work) / sizeof(work[0]))

static unsigned long samples[NWORK], outside, other_events, records;
static volatile unsigned long sink;	/* keeps the workload's result alive */

static int work_index(uint64_t ip)
{
	int found = -1;

	if (ip < (uintptr_t)__start_lwp_work || ip >= (uintptr_t)__stop_lwp_work)
		return -1;
	/* the function with the highest entry address not above ip */
	for (unsigned int i = 0; i < NWORK; i++)
		if ((uintptr_t)work[i].fn <= ip &&
		    (found < 0 || (uintptr_t)work[i].fn > (uintptr_t)work[found].fn))
			found = i;
	return found;
}

/* Consume the records between tail and head, as a profiler would. */
static void drain(struct lwpcb *cb, const struct lwp_record *ring)
{
	unsigned int n = cb->buffer_size / sizeof(*ring);

	lwp_flush();	/* writes the current head into the LWPCB */
	for (unsigned int t = cb->tail / sizeof(*ring); t != cb->head / sizeof(*ring);
	     t = (t + 1) % n) {
		const struct lwp_record *r = &ring[t];
		int w;

		records++;
		if (r->event_id != LWP_EVENT_INSNS) {
			other_events++;
			continue;
		}
		w = work_index(r->ip);
		if (w < 0)
			outside++;
		else
			samples[w]++;
	}
	cb->tail = cb->head;
}

int main(void)
{
	unsigned long total = 0, x = 1, drains = 0;
	unsigned int features, geometry = 0;
	struct lwp_record *ring;
	double worst = 0;
	struct lwpcb *cb;
	int units = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	features = lwp_enabled_features(&geometry);
	if (!(features & LWP_AVAIL)) {
		printf("lwp_profile: skipped: LWP is not available (CPU or kernel)\n");
		return 4;
	}
	if (!(features & LWP_EVENT_BIT(LWP_EVENT_INSNS))) {
		printf("lwp_profile: skipped: no instructions-retired event\n");
		return 4;
	}
	if (!lwp_geometry_ok(geometry)) {
		printf("lwp_profile: unexpected LWP geometry (CPUID 0x8000001C EBX %#x)\n",
		       geometry);
		return 1;
	}

	cb = aligned_alloc(64, sizeof(*cb));
	ring = aligned_alloc(4096, RING_RECORDS * sizeof(*ring));
	if (!cb || !ring) {
		perror("lwp_profile: aligned_alloc");
		return 1;
	}
	memset(cb, 0, sizeof(*cb));
	memset(ring, 0, RING_RECORDS * sizeof(*ring));
	cb->flags = LWP_EVENT_BIT(LWP_EVENT_INSNS);
	cb->buffer_size = RING_RECORDS * sizeof(*ring);
	cb->buffer_base = (uintptr_t)ring;
	cb->event[LWP_EVENT_INSNS - 1].interval = SAMPLE_INTERVAL;
	cb->event[LWP_EVENT_INSNS - 1].counter = SAMPLE_INTERVAL;

	lwp_load(cb);
	if (lwp_flush() != cb) {
		printf("lwp_profile: SLWPCB did not return the LWPCB just loaded\n");
		return 1;
	}
	for (int round = 0; round < ROUNDS; round++) {
		for (unsigned int i = 0; i < NWORK; i++) {
			x = work[i].fn(x);
			/* a unit is ~100 samples: heavy_work (~600) fits the ring */
			drain(cb, ring);
			drains++;
		}
	}
	drain(cb, ring);
	lwp_load(NULL);	/* also flushes MissedEvents into the LWPCB */

	for (unsigned int i = 0; i < NWORK; i++) {
		total += samples[i];
		units += work[i].units;
	}
	printf("LWP self-profile: instructions retired, one sample every %d instructions\n",
	       SAMPLE_INTERVAL + 1);
	printf("  %-12s %8s %8s %9s\n", "function", "samples", "share", "expected");
	for (unsigned int i = 0; i < NWORK; i++) {
		double share = total ? 100.0 * samples[i] / total : 0;
		double want = 100.0 * work[i].units / units;

		if (share - want > worst || want - share > worst)
			worst = share > want ? share - want : want - share;
		printf("  %-12s %8lu %7.1f%% %8.1f%%\n", work[i].name, samples[i], share, want);
	}
	printf("  %-12s %8lu\n", "(elsewhere)", outside);
	printf("ring buffer: %d records of %zu bytes, %lu records read in %lu drains, "
	       "%lu missed, %lu other events\n",
	       RING_RECORDS, sizeof(*ring), records, drains + 1,
	       (unsigned long)cb->missed_events, other_events);
	sink = x;

	if (total < 100 || worst > 5.0) {
		printf("lwp_profile: FAIL: the profile does not match the known costs\n");
		return 1;
	}
	printf("lwp_profile: the profile matches the known 1:3:6 costs (within %.1f points)\n",
	       worst);
	return 0;
}
