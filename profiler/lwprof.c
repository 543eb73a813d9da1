// SPDX-License-Identifier: GPL-2.0
/*
 * lwprof: run a program with liblwprof.so preloaded, so that every thread
 * samples itself with AMD LWP, then print lwprof-report's report.
 *
 *   lwprof [-o FILE] [-i INTERVAL] [-r RECORDS] [-t MICROSECONDS]
 *          [-d auto|signal|timer|exit] [-q] [-v] -- PROGRAM [ARGS...]
 *
 * The library and lwprof-report are looked up next to lwprof itself.  The
 * exit status is the program's (so that a test run under lwprof still
 * says pass or fail), or 1 if the program passed but the report failed.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lwprof.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: lwprof [-o FILE] [-i INTERVAL] [-r RECORDS] [-t MICROSECONDS]\n"
		"              [-d auto|signal|timer|exit] [-q] [-v] -- PROGRAM [ARGS...]\n"
		"  -o FILE       sample file (default lwprof.data; other processes: FILE.PID)\n"
		"  -i INTERVAL   a sample every INTERVAL instructions retired (default %d)\n"
		"  -r RECORDS    ring buffer size per thread, in records (default %d)\n"
		"  -t US         timer drain period in CPU microseconds (default %d), used\n"
		"                when the kernel offers no LWP threshold signal\n"
		"  -d HOW        how to drain: auto (signal, else timer), signal, timer, exit\n"
		"  -q            no report, only the sample file\n"
		"  -v            say what the library does, on stderr\n",
		LWPROF_DEFAULT_INTERVAL, LWPROF_DEFAULT_RING, LWPROF_DEFAULT_TIMER_US);
	exit(2);
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
	if (waitpid(pid, &status, 0) < 0) {
		perror("lwprof: waitpid");
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *out = "lwprof.data", *old;
	char self[4096], lib[4200], report[4200], *preload, *dir;
	int opt, quiet = 0, status, rc;
	ssize_t n;

	while ((opt = getopt(argc, argv, "+o:i:r:t:d:qvh")) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'i': setenv(LWPROF_ENV_INTERVAL, optarg, 1); break;
		case 'r': setenv(LWPROF_ENV_RING, optarg, 1); break;
		case 't': setenv(LWPROF_ENV_TIMER_US, optarg, 1); break;
		case 'd': setenv(LWPROF_ENV_DRAIN, optarg, 1); break;
		case 'q': quiet = 1; break;
		case 'v': setenv(LWPROF_ENV_VERBOSE, "1", 1); break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();

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

	/* the program's own preloads stay, after ours */
	old = getenv("LD_PRELOAD");
	if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "") < 0)
		return 1;
	setenv("LD_PRELOAD", preload, 1);
	setenv(LWPROF_ENV_OUT, out, 1);

	status = run(argv + optind, 1);
	if (quiet)
		return status;

	char *rargv[] = { report, (char *)out, NULL };

	fflush(stdout);
	rc = run(rargv, 0);
	return status ? status : rc ? 1 : 0;
}
