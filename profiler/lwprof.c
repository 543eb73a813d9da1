// SPDX-License-Identifier: GPL-2.0
/*
 * lwprof: run a program with liblwprof.so preloaded, so that every thread
 * samples itself with AMD LWP, then print lwprof-report's report.
 *
 *   lwprof [-o FILE] [-i INTERVAL] [-r RECORDS] [-t MICROSECONDS]
 *          [-d timer|exit] [-q] [-v] -- PROGRAM [ARGS...]
 *
 * The library and lwprof-report are looked up next to lwprof itself.  The
 * exit status is the program's (so that a test run under lwprof still
 * says pass or fail, 128 + N if signal N ended it), or 1 if the program
 * passed but there is no profile of this run to report.
 *
 * What it guards against, each an error rather than a wrong profile: no
 * LWP here (it does not run the program), a sample file of an earlier run
 * (removed first, and the report checks this run's id), and SIGINT or
 * SIGTERM sent to lwprof alone (passed on to the program, which writes
 * what it has and ends; then the report).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lwp-check.h"
#include "lwprof.h"

static volatile pid_t child;
static volatile sig_atomic_t early;	/* one that came before child was set */

static void usage(void)
{
	fprintf(stderr,
		"usage: lwprof [-o FILE] [-i INTERVAL] [-r RECORDS] [-t MICROSECONDS]\n"
		"              [-d timer|exit] [-q] [-v] -- PROGRAM [ARGS...]\n"
		"  -o FILE       sample file (default lwprof.data; other processes: FILE.PID)\n"
		"  -i INTERVAL   a sample every INTERVAL instructions retired (default %d)\n"
		"  -r RECORDS    ring buffer size per thread, in records (default %d)\n"
		"  -t US         drain every US microseconds of a thread's CPU time (default %d)\n"
		"  -d HOW        timer (default), or exit: only when a thread ends\n"
		"  -q            no report, only the sample file\n"
		"  -v            say what the library does, on stderr\n",
		LWPROF_DEFAULT_INTERVAL, LWPROF_DEFAULT_RING, LWPROF_DEFAULT_TIMER_US);
	exit(2);
}

/*
 * SIGINT or SIGTERM that a process sent to lwprof goes on to the program:
 * its library writes the profile and it ends, then the report follows.
 * One from the terminal (Ctrl-C: the kernel, si_code > 0) reached the
 * program too, as all of the foreground group.
 */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si->si_code > 0)
		return;
	if (child > 0)
		kill(child, sig);
	else
		early = sig;
}

/* Status of a child, as a shell would give it. */
static int run(char **argv, int preload)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("lwprof: fork");
		return 1;
	}
	if (pid == 0) {
		if (preload) {
			char pid_s[16];

			snprintf(pid_s, sizeof(pid_s), "%d", getpid());
			setenv(LWPROF_ENV_MAIN_PID, pid_s, 1);
		} else {
			unsetenv("LD_PRELOAD");
		}
		execvp(argv[0], argv);
		fprintf(stderr, "lwprof: cannot run %s: %m\n", argv[0]);
		_exit(127);
	}
	if (preload) {
		child = pid;
		if (early)
			kill(pid, early);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("lwprof: waitpid");
			return 1;
		}
	}
	child = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* A non-zero id, different for every run. */
static uint64_t new_run_id(void)
{
	uint64_t id = 0;
	struct timespec ts;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		id = (uint64_t)ts.tv_sec * 1000000007u ^ ts.tv_nsec ^ (uint64_t)getpid() << 40;
	}
	return id ? id : 1;
}

int main(int argc, char **argv)
{
	const char *out = "lwprof.data", *old, *why;
	char self[4096], lib[4200], report[4200], run_id[20], *preload, *dir;
	int opt, quiet = 0, status, rc;
	unsigned int xsave_offset;
	struct sigaction sa;
	ssize_t n;

	while ((opt = getopt(argc, argv, "+o:i:r:t:d:qvh")) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'i': setenv(LWPROF_ENV_INTERVAL, optarg, 1); break;
		case 'r': setenv(LWPROF_ENV_RING, optarg, 1); break;
		case 't': setenv(LWPROF_ENV_TIMER_US, optarg, 1); break;
		case 'd':
			if (strcmp(optarg, "timer") && strcmp(optarg, "exit")) {
				fprintf(stderr, "lwprof: -d %s: expected timer or exit%s\n", optarg,
					strcmp(optarg, "signal") ? "" :
					" (the threshold signal went with its kernel interface)");
				return 2;
			}
			setenv(LWPROF_ENV_DRAIN, optarg, 1);
			break;
		case 'q': quiet = 1; break;
		case 'v': setenv(LWPROF_ENV_VERBOSE, "1", 1); break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	if (!*out || strstr(out, "%p")) {
		fprintf(stderr, "lwprof: -o '%s': a file name without %%p (lwprof reports that file)\n",
			out);
		return 2;
	}

	why = lwprof_lwp_unusable(&xsave_offset);
	if (why) {
		fprintf(stderr, "lwprof: no LWP here: %s; %s not run\n", why, argv[optind]);
		return 1;
	}

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("lwprof: /proc/self/exe");
		return 1;
	}
	self[n] = 0;
	dir = dirname(self);
	snprintf(lib, sizeof(lib), "%s/liblwprof.so", dir);
	snprintf(report, sizeof(report), "%s/lwprof-report", dir);
	if (getenv("LWPROF_LIB"))
		snprintf(lib, sizeof(lib), "%s", getenv("LWPROF_LIB"));
	if (access(lib, R_OK) != 0) {
		fprintf(stderr, "lwprof: no %s\n", lib);
		return 1;
	}

	/* an earlier run's file must not pass for this one's */
	if (unlink(out) != 0 && errno != ENOENT) {
		fprintf(stderr, "lwprof: cannot remove the old %s: %m\n", out);
		return 1;
	}
	snprintf(run_id, sizeof(run_id), "%llx", (unsigned long long)new_run_id());
	setenv(LWPROF_ENV_RUN_ID, run_id, 1);

	/* the program's own preloads stay, after ours */
	old = getenv("LD_PRELOAD");
	if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "") < 0)
		return 1;
	setenv("LD_PRELOAD", preload, 1);
	setenv(LWPROF_ENV_OUT, out, 1);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = pass_on;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	status = run(argv + optind, 1);
	if (access(out, F_OK) != 0) {
		fprintf(stderr, "lwprof: %s wrote no %s (not dynamically linked, or it does not "
			"use LD_PRELOAD?): no profile\n", argv[optind], out);
		return status ? status : 1;
	}
	if (quiet)
		return status;

	char *rargv[] = { report, "-r", run_id, (char *)out, NULL };

	fflush(stdout);
	rc = run(rargv, 0);
	return status ? status : rc ? 1 : 0;
}
