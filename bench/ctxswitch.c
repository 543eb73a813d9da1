// SPDX-License-Identifier: GPL-2.0
/*
 * Context-switch cost, measured in the guest: two tasks pinned to one CPU
 * hand the CPU to each other, through a pipe ("pipe") or sched_yield()
 * ("yield").
 *
 *   ctxswitch pipe|yield ROUNDS [lwp|alternate]
 *
 * With "lwp" both tasks first load an LWPCB of their own (no events
 * enabled), so every switch carries live LWP state.  With "alternate" both
 * tasks turn LWP on and off together every chunk of rounds, so that LWP
 * live and unused are measured side by side in the same tasks and boot.
 *
 * The time is taken per chunk of a few milliseconds (timing.h says why)
 * and summarised robustly:
 *
 *   ctxswitch MODE lwp=0|1 switches=N ns_per_switch=MEDIAN ns_p20=P20
 *   ctxswitch MODE alternate switches=N ns_unused=P20 ns_live=P20 live_vs_unused=R
 *
 * P20 is the 20th percentile of the chunks, the cost while the host runs at
 * full speed; R the median, over pairs of adjacent chunks, of the live
 * chunk's time over the unused one's, which a slow phase of the host
 * affects alike.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../lib/lwp.h"
#include "timing.h"

#define CHUNK_ROUNDS	64

static struct lwpcb cb __attribute__((aligned(64)));
static struct lwp_record ring[2048] __attribute__((aligned(4096)));

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void lwp_check(void)
{
	if (!(lwp_enabled_features(NULL) & LWP_AVAIL)) {
		fprintf(stderr, "ctxswitch: LWP is not usable here\n");
		exit(4);
	}
}

/* a ring but no events: the state is live, nothing is recorded */
static void lwp_set(int on)
{
	if (!on) {
		lwp_load(NULL);
		return;
	}
	cb.buffer_size = sizeof(ring);
	cb.buffer_base = (uintptr_t)ring;
	lwp_load(&cb);
	if (lwp_flush() != &cb) {
		fprintf(stderr, "ctxswitch: LWP did not load\n");
		exit(1);
	}
}

static void get(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("pipe read");
}

static void put(int fd)
{
	char c = 0;

	if (write(fd, &c, 1) != 1)
		die("pipe write");
}

int main(int argc, char **argv)
{
	int down[2], up[2], yield, lwp = 0, alternate = 0;
	long rounds, chunks, pairs, switches;
	double *ns, *unused, *live, *ratio;
	cpu_set_t cpu0;
	pid_t pid;

	if (argc < 3 || argc > 4 || (strcmp(argv[1], "pipe") && strcmp(argv[1], "yield")) ||
	    (rounds = atol(argv[2])) <= 0 || rounds % (2 * CHUNK_ROUNDS) ||
	    (argc == 4 && !(lwp = !strcmp(argv[3], "lwp")) &&
	     !(alternate = !strcmp(argv[3], "alternate")))) {
		fprintf(stderr, "usage: ctxswitch pipe|yield ROUNDS [lwp|alternate]"
			"   (ROUNDS a multiple of %d)\n", 2 * CHUNK_ROUNDS);
		return 2;
	}
	yield = !strcmp(argv[1], "yield");
	chunks = rounds / CHUNK_ROUNDS;
	pairs = chunks / 2;
	/* a pipe round trip is two switches; so are two tasks' yields */
	switches = 2 * CHUNK_ROUNDS;
	ns = calloc(chunks, sizeof(*ns));
	unused = calloc(pairs, sizeof(*unused));
	live = calloc(pairs, sizeof(*live));
	ratio = calloc(pairs, sizeof(*ratio));
	if (!ns || !unused || !live || !ratio)
		die("calloc");
	if (lwp || alternate)
		lwp_check();

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		die("sched_setaffinity");
	if (pipe(down) || pipe(up))
		die("pipe");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (lwp)
		lwp_set(1);	/* in both tasks: children start with LWP off */

	for (long c = 0; c < chunks; c++) {
		double t0;

		/* odd chunks live: both tasks switch at the same round count */
		if (alternate)
			lwp_set(c & 1);
		t0 = now();
		for (int i = 0; i < CHUNK_ROUNDS; i++) {
			if (yield) {
				sched_yield();
			} else if (pid == 0) {
				get(down[0]);
				put(up[1]);
			} else {
				put(down[1]);
				get(up[0]);
			}
		}
		ns[c] = (now() - t0) / switches;
	}
	if (pid == 0)
		return 0;
	if (waitpid(pid, NULL, 0) != pid)
		die("waitpid");

	if (alternate) {
		for (long p = 0; p < pairs; p++) {
			unused[p] = ns[2 * p];
			live[p] = ns[2 * p + 1];
			ratio[p] = live[p] / unused[p];
		}
		printf("ctxswitch %s alternate switches=%ld ns_unused=%.1f ns_live=%.1f live_vs_unused=%.4f\n",
		       argv[1], chunks * switches, quantile(unused, pairs, 0.2),
		       quantile(live, pairs, 0.2), quantile(ratio, pairs, 0.5));
	} else {
		double med = quantile(ns, chunks, 0.5);

		printf("ctxswitch %s lwp=%d switches=%ld ns_per_switch=%.1f ns_p20=%.1f\n",
		       argv[1], lwp, chunks * switches, med, quantile(ns, chunks, 0.2));
	}
	return 0;
}
