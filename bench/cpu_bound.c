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

#include "sampling.h"
#include "timing.h"

#define RECORDS 4096
#define CHUNK	(1l << 20)	/* iterations per timed chunk, and per drain */

static struct lwpcb cb __attribute__((aligned(64)));
static struct lwp_record ring[RECORDS] __attribute__((aligned(4096)));

static unsigned long records;

/* consume everything, so that the ring never fills, and count it */
static void drain(void)
{
	lwp_flush();
	records += (cb.head - cb.tail + sizeof(ring)) % sizeof(ring) / sizeof(ring[0]);
	cb.tail = cb.head;
}

/*
 * Prints the time per iteration as the 20th percentile of chunks of CHUNK
 * iterations, the cost while the host runs at full speed (timing.h).
 */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	int ire = argc > 2 && !strcmp(argv[2], "ire");
	unsigned long x = 1;
	long chunks = n / CHUNK;
	double *ns;

	if (chunks <= 0 || n % CHUNK || (argc > 2 && !ire)) {
		fprintf(stderr, "usage: cpu_bound ITERATIONS [ire]   (ITERATIONS a multiple of %ld)\n",
			CHUNK);
		return 2;
	}
	ns = chunk_times(chunks);
	if (ire)
		sampling_on("cpu_bound", &cb, ring, sizeof(ring), 9999);
	for (long c = 0; c < chunks; c++) {
		double t0 = now();

		/*
		 * Drained between the loops, not in the loop, so that the loop
		 * is the same code with and without sampling: a test of ire in
		 * it made the sampling runs take another branch and another
		 * translation block per iteration.
		 */
		if (ire)
			drain();
		for (long i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
			x = x * 6364136223846793005ul + i;
			x ^= x >> 29;
		}
		ns[c] = (now() - t0) / CHUNK;
	}
	if (ire)
		drain();
	/* records: that sampling was on, at the rate asked for */
	printf("cpu_bound: %lx records=%lu ns_per_iter=%.4f\n", x, records,
	       quantile(ns, chunks, 0.2));
	return 0;
}
