// SPDX-License-Identifier: GPL-2.0
/*
 * Context-switch cost, measured in the guest: two tasks pinned to one CPU
 * hand the CPU to each other, through a pipe ("pipe") or sched_yield()
 * ("yield").  With "lwp" both tasks first load an LWPCB of their own (no
 * events enabled), so every switch carries live LWP state.
 *
 *   ctxswitch pipe|yield ROUNDS [lwp]
 *
 * Prints "ctxswitch MODE lwp=0|1 switches=N ns_per_switch=X".
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../lib/lwp.h"

static struct lwpcb cb __attribute__((aligned(64)));
static struct lwp_record ring[2048] __attribute__((aligned(4096)));

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void lwp_on(void)
{
	if (!(lwp_enabled_features(NULL) & LWP_AVAIL)) {
		fprintf(stderr, "ctxswitch: LWP is not usable here\n");
		exit(4);
	}
	/* a ring but no events: the state is live, nothing is recorded */
	cb.buffer_size = sizeof(ring);
	cb.buffer_base = (uintptr_t)ring;
	lwp_load(&cb);
	if (lwp_flush() != &cb) {
		fprintf(stderr, "ctxswitch: LWP did not load\n");
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int up[2], down[2], yield, lwp;
	long rounds, switches;
	double start, ns;
	cpu_set_t cpu0;
	char c = 0;
	pid_t pid;

	if (argc < 3 || (strcmp(argv[1], "pipe") && strcmp(argv[1], "yield")) ||
	    (rounds = atol(argv[2])) <= 0 || (argc > 3 && strcmp(argv[3], "lwp"))) {
		fprintf(stderr, "usage: ctxswitch pipe|yield ROUNDS [lwp]\n");
		return 2;
	}
	yield = !strcmp(argv[1], "yield");
	lwp = argc > 3;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
	if (pipe(up) || pipe(down))
		die("pipe");

	start = now();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (lwp)
		lwp_on();	/* in both tasks: children start with LWP off */
	for (long i = 0; i < rounds; i++) {
		if (yield) {
			sched_yield();
		} else if (pid == 0) {
			if (read(down[0], &c, 1) != 1 || write(up[1], &c, 1) != 1)
				die("child pipe");
		} else {
			if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
				die("parent pipe");
		}
	}
	if (pid == 0)
		return 0;
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");
	ns = now() - start;
	/* a pipe round trip is two switches; each yield hands over once */
	switches = 2 * rounds;
	printf("ctxswitch %s lwp=%d switches=%ld ns_per_switch=%.1f\n",
	       argv[1], lwp, switches, ns / switches);
	return 0;
}
