// SPDX-License-Identifier: GPL-2.0
/*
 * The threshold-signal path without the kernel's threshold interrupt: this
 * program sends itself, after each slice of work, the signal the kernel
 * will send when the ring reaches its threshold (the profiler's signal,
 * si_code SI_LWP, si_value the LWPCB), as rt_tgsigqueueinfo lets a
 * process do.  Run with "-d exit" (no timer) and a small ring, the
 * profile then loses nothing only if the handler drains on that signal.
 * With "wrong" it names another LWPCB, which the handler must ignore.
 *
 * It finds its LWPCB with SLWPCB, the only thing it knows of LWP.
 * Exit status 4 (skip) when LWP is off in this thread.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../lib/lwp.h"
#include "work.h"

#define SI_LWP	(-8)	/* the kernel series' si_code */

WORK(work_sig)

int main(int argc, char **argv)
{
	const char *s = getenv("LWPROF_SIGNAL");
	int sig = s ? atoi(s) : SIGRTMIN + 3;	/* liblwprof's default */
	int wrong = argc > 1 && !strcmp(argv[1], "wrong");
	unsigned long x = 1;
	siginfo_t si;
	char *cb;

	if (!(lwp_enabled_features(NULL) & LWP_AVAIL) || !(cb = (char *)lwp_flush())) {
		printf("siglwp: LWP is off in this thread\n");
		return 4;
	}
	for (int slice = 0; slice < 40; slice++) {
		x = work_sig(x, 1);
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
		si.si_code = SI_LWP;
		si.si_pid = getpid();
		si.si_value.sival_ptr = wrong ? cb + 64 : cb;
		if (syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), sig, &si)) {
			perror("siglwp: rt_tgsigqueueinfo");
			return 1;
		}
	}
	printf("siglwp: done (%lu)\n", x & 0xff);
	return 0;
}
