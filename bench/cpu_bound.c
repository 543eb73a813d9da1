// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-bound program for the emulator-overhead benchmark: the same loop
 * with LWP off, or with instructions-retired sampling on ("ire"), so that
 * the cost of the emulated sampling can be compared with no sampling.
 *
 *   cpu_bound ITERATIONS [ire]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/lwp.h"

#define RECORDS 4096

static struct lwpcb cb __attribute__((aligned(64)));
static struct lwp_record ring[RECORDS] __attribute__((aligned(4096)));

static void sampling_on(void)
{
	unsigned int geometry;

	if (!(lwp_enabled_features(&geometry) & LWP_EVENT_BIT(LWP_EVENT_INSNS)) ||
	    !lwp_geometry_ok(geometry)) {
		fprintf(stderr, "cpu_bound: instructions-retired sampling unavailable\n");
		exit(4);
	}
	cb.flags = LWP_EVENT_BIT(LWP_EVENT_INSNS);
	cb.buffer_size = sizeof(ring);
	cb.buffer_base = (uintptr_t)ring;
	cb.event[LWP_EVENT_INSNS - 1].interval = 9999;
	cb.event[LWP_EVENT_INSNS - 1].counter = 9999;
	lwp_load(&cb);
}

/* consume everything, so that the ring never fills */
static void drain(void)
{
	lwp_flush();
	cb.tail = cb.head;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	int ire = argc > 2 && !strcmp(argv[2], "ire");
	unsigned long x = 1;

	if (n <= 0 || (argc > 2 && !ire)) {
		fprintf(stderr, "usage: cpu_bound ITERATIONS [ire]\n");
		return 2;
	}
	if (ire)
		sampling_on();
	for (long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		x ^= x >> 29;
		if (ire && (i & 0xfffff) == 0)
			drain();
	}
	printf("cpu_bound: %lx\n", x);
	return 0;
}
