// SPDX-License-Identifier: GPL-2.0
/*
 * A multithreaded program with a known profile: three threads, each doing
 * its own function for a known number of units (worker-a 40 in work_a,
 * worker-b 80 in work_b, worker-c 120 in work_c), all at the same time, and
 * the main thread 20 units of main_work.  Each thread names itself, so that
 * the profile can say which thread a sample belongs to.  A number as the
 * argument multiplies every thread's units; "int" makes the main thread,
 * once every thread's work is done and while they all still live, send the
 * process SIGINT, as Ctrl-C would.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "work.h"

WORK(work_a)
WORK(work_b)
WORK(work_c)
WORK(main_work)

struct worker {
	const char *name;
	unsigned long (*fn)(unsigned long, int);
	int units;
	unsigned long result;
};

static pthread_barrier_t start, done;
static int interrupt;

static void *worker(void *arg)
{
	struct worker *w = arg;

	pthread_setname_np(pthread_self(), w->name);
	pthread_barrier_wait(&start);
	/* in slices, so that the threads overlap however they are scheduled */
	for (int i = 0; i < w->units; i++)
		w->result = w->fn(w->result, 1);
	if (interrupt) {
		pthread_barrier_wait(&done);
		for (;;)
			pause();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 1;
	struct worker w[] = {
		{ "worker-a", work_a, 40, 1 },
		{ "worker-b", work_b, 80, 2 },
		{ "worker-c", work_c, 120, 3 },
	};
	pthread_t th[3];
	unsigned long x = 0;

	if (scale < 1)
		scale = 1;
	for (int i = 0; i < 3; i++)
		w[i].units *= scale;
	interrupt = argc > 1 && !strcmp(argv[1], "int");
	pthread_barrier_init(&start, NULL, 4);
	pthread_barrier_init(&done, NULL, 4);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, worker, &w[i])) {
			perror("threads: pthread_create");
			return 1;
		}
	pthread_barrier_wait(&start);
	x = main_work(x, 20 * scale);
	if (interrupt) {
		pthread_barrier_wait(&done);
		printf("threads: work done, SIGINT\n");
		fflush(stdout);
		kill(getpid(), SIGINT);
		for (;;)
			pause();
	}
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		x += w[i].result;
	}
	printf("threads: done (%lu)\n", x & 0xff);
	return 0;
}
