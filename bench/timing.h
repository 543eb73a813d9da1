/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timing for the benchmark programs.  The host they run on has phases, of
 * hundreds of milliseconds, in which everything runs up to twice as
 * slowly, so they time short chunks and summarise them with quantiles.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the value below which a fraction q of the n values lie; sorts v */
static inline double quantile(double *v, long n, double q)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[(long)(q * (n - 1))];
}

/* room for the times of n chunks; exits without it */
static inline double *chunk_times(long n)
{
	double *ns = calloc(n, sizeof(*ns));

	if (!ns) {
		perror("calloc");
		exit(1);
	}
	return ns;
}

#endif
