// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the perf end-to-end test: an ordinary multithreaded
 * program, built without any knowledge of LWP or perf.  Three threads run
 * at the same time, each its own function, with the same loop body for 1, 3
 * and 6 units: light_work, medium_work and heavy_work retire instructions
 * (and so take CPU time) in the ratio 1:3:6, and a profile of the program
 * must show them at 10, 30 and 60 %.  Each thread names itself after its
 * function, so that samples can be told apart by thread as well.
 *
 *   mix [SCALE]    SCALE multiplies every thread's units (default 1)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Iterations per unit, of 7 instructions each: 1.4 billion instructions in
 * all, 140,000 LWP samples at one per 10,000, and 1.4 s of CPU time under
 * icount (one instruction a nanosecond), 350 cpu-clock samples at 4 ms.
 */
#define UNIT 20000000L

/* as the kernel spells it (glibc's sys/cdefs.h has __always_inline) */
#define noinline	__attribute__((noinline))

/* the loop body, copied into each function so that each has its own */
static __always_inline unsigned long spin(unsigned long x, long n)
{
	for (long i = 0; i < n; i++) {
		x = x * 31 + i;
		/* no closed form: every iteration runs */
		asm volatile("" : "+r"(x));
	}
	return x;
}

static noinline unsigned long light_work(unsigned long x, long units)
{
	return spin(x, units * UNIT);
}

static noinline unsigned long medium_work(unsigned long x, long units)
{
	return spin(x, units * UNIT);
}

static noinline unsigned long heavy_work(unsigned long x, long units)
{
	return spin(x, units * UNIT);
}

struct worker {
	const char *name;
	unsigned long (*fn)(unsigned long x, long units);
	long units;
	unsigned long result;
};

static pthread_barrier_t start;

static void *worker(void *arg)
{
	struct worker *w = arg;

	pthread_setname_np(pthread_self(), w->name);
	/* all three run at once, so that the profile sees them together */
	pthread_barrier_wait(&start);
	w->result = w->fn(w->result, w->units);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[] = {
		{ "light", light_work, 1, 1 },
		{ "medium", medium_work, 3, 2 },
		{ "heavy", heavy_work, 6, 3 },
	};
	long scale = argc > 1 ? atol(argv[1]) : 1;
	pthread_t th[3];
	int i;

	if (argc > 2 || scale < 1) {
		fprintf(stderr, "usage: mix [SCALE], SCALE a whole number >= 1\n");
		return 2;
	}
	pthread_barrier_init(&start, NULL, 3);
	for (i = 0; i < 3; i++) {
		w[i].units *= scale;
		if (pthread_create(&th[i], NULL, worker, &w[i])) {
			perror("mix: pthread_create");
			return 1;
		}
	}
	for (i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	/* print the results, so that the work cannot be left out */
	printf("mix: %lx %lx %lx\n", w[0].result, w[1].result, w[2].result);
	return 0;
}
