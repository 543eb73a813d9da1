// SPDX-License-Identifier: GPL-2.0
/*
 * Many short threads, started in waves, that end while others still run
 * and write their samples to the one sample file at about the same time:
 * 24 threads, 2 units of work_many each, 6 at a time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

#include "work.h"

WORK(work_many)

#define THREADS	24
#define WAVE	6

static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "many-%ld", (long)arg);
	pthread_setname_np(pthread_self(), name);
	return (void *)work_many((unsigned long)arg, 2);
}

int main(void)
{
	pthread_t th[THREADS];
	unsigned long x = 0;
	void *ret;

	for (long i = 0; i < THREADS; i++) {
		if (pthread_create(&th[i], NULL, worker, (void *)i)) {
			perror("many: pthread_create");
			return 1;
		}
		if (i % WAVE == WAVE - 1)
			for (long j = i - WAVE + 1; j <= i; j++) {
				pthread_join(th[j], &ret);
				x += (unsigned long)ret;
			}
	}
	printf("many: done (%lu)\n", x & 0xff);
	return 0;
}
