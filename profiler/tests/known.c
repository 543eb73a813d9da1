// SPDX-License-Identifier: GPL-2.0
/*
 * A program with a known profile, and no knowledge of LWP: three functions
 * doing 1, 3 and 6 units of the same work, so that lwprof must find them
 * with 10 %, 30 % and 60 % of the samples.
 *
 *   known [wait|int]
 *
 * "wait": after the work, say so and wait to be ended by a signal; "int":
 * after the work, send itself SIGINT, as Ctrl-C would.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "work.h"

/*
 * Written out rather than with WORK(): the by-line report must find each
 * function's samples on its own loop line, which run-tests finds by the
 * "loop:" comments.
 */
__attribute__((noinline)) unsigned long light_work(unsigned long x, int units)
{
	for (long i = 0; i < units * WORK_UNIT; i++) {
		x = x * 31 + i;				/* loop: light */
		asm volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long medium_work(unsigned long x, int units)
{
	for (long i = 0; i < units * WORK_UNIT; i++) {
		x = x * 31 + i;				/* loop: medium */
		asm volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long heavy_work(unsigned long x, int units)
{
	for (long i = 0; i < units * WORK_UNIT; i++) {
		x = x * 31 + i;				/* loop: heavy */
		asm volatile("" : "+r"(x));
	}
	return x;
}

int main(int argc, char **argv)
{
	const char *end = argc > 1 ? argv[1] : "";
	unsigned long x = 1;

	for (int round = 0; round < 10; round++) {
		x = light_work(x, 1);
		x = medium_work(x, 3);
		x = heavy_work(x, 6);
	}
	printf("known: done (%lu)\n", x & 0xff);
	if (!strcmp(end, "wait") || !strcmp(end, "int")) {
		printf("known: waiting for a signal\n");
		fflush(stdout);
		if (!strcmp(end, "int"))
			kill(getpid(), SIGINT);
		for (;;)
			pause();
	}
	return 0;
}
