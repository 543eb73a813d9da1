/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instructions-retired sampling for the emulator benchmarks: the programs
 * own the LWPCB and the ring, and consume the records themselves.
 */
#ifndef BENCH_SAMPLING_H
#define BENCH_SAMPLING_H

#include <stdio.h>
#include <stdlib.h>

#include "../lib/lwp.h"

/*
 * Load cb to sample every interval + 1 instructions into ring; without
 * LWP, exit 4 (skip).
 */
static inline void sampling_on(const char *prog, struct lwpcb *cb, void *ring,
			       unsigned int size, int interval)
{
	unsigned int geometry;

	if (!(lwp_enabled_features(&geometry) & LWP_EVENT_BIT(LWP_EVENT_INSNS)) ||
	    !lwp_geometry_ok(geometry)) {
		fprintf(stderr, "%s: instructions-retired sampling unavailable\n", prog);
		exit(4);
	}
	cb->flags = LWP_EVENT_BIT(LWP_EVENT_INSNS);
	cb->buffer_size = size;
	cb->buffer_base = (uintptr_t)ring;
	cb->event[LWP_EVENT_INSNS - 1].interval = interval;
	cb->event[LWP_EVENT_INSNS - 1].counter = interval;
	lwp_load(cb);
}

#endif
