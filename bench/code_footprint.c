// SPDX-License-Identifier: GPL-2.0
/*
 * A program with a large hot code footprint, for the emulator's code
 * cache: 4096 distinct functions, each called once per iteration.  When an
 * instructions-retired sample falls inside a translation block, QEMU
 * translates that block again to end with the sampled instruction, and
 * the instructions after it start a block of their own; with short
 * intervals and many distinct blocks, those extra blocks could fill the
 * code cache and make it flush.  The benchmark compares LWP off, sampling
 * every 10000 instructions and every 256 (the shortest interval LWP
 * allows is 0xff).
 *
 *   code_footprint ITERATIONS [ire|ire-min]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling.h"
#include "timing.h"

#define RECORDS 4096
#define CHUNK	64	/* iterations per timed chunk */

static struct lwpcb cb __attribute__((aligned(64)));
static struct lwp_record ring[RECORDS] __attribute__((aligned(4096)));

/*
 * f000000() to f333333(): the names are the function's number in base
 * 4, so the constant n##ul, an octal literal, differs in each, and the
 * compiler cannot merge them.
 */
#define F(n)								\
	static __attribute__((noinline)) unsigned long f##n(unsigned long x) \
	{								\
		return (x ^ n##ul) * 0x100000001b3ul + (x >> 7);	\
	}
#define X4(m, n)	m(n##0) m(n##1) m(n##2) m(n##3)
#define X16(m, n)	X4(m, n##0) X4(m, n##1) X4(m, n##2) X4(m, n##3)
#define X256(m, n)	X16(m, n##00) X16(m, n##01) X16(m, n##02) X16(m, n##03) \
			X16(m, n##10) X16(m, n##11) X16(m, n##12) X16(m, n##13) \
			X16(m, n##20) X16(m, n##21) X16(m, n##22) X16(m, n##23) \
			X16(m, n##30) X16(m, n##31) X16(m, n##32) X16(m, n##33)
#define X4096(m)	X256(m, 00) X256(m, 01) X256(m, 02) X256(m, 03) \
			X256(m, 10) X256(m, 11) X256(m, 12) X256(m, 13) \
			X256(m, 20) X256(m, 21) X256(m, 22) X256(m, 23) \
			X256(m, 30) X256(m, 31) X256(m, 32) X256(m, 33)
#define ENTRY(n)	f##n,

X4096(F)

static unsigned long (*const fn[])(unsigned long) = { X4096(ENTRY) };

/*
 * Prints the time per call as the 20th percentile of chunks of CHUNK
 * iterations (timing.h), the steady state, and over the whole run, which
 * includes translating the code and the count-limited blocks; and the
 * records LWP stored.
 */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	const char *mode = argc > 2 ? argv[2] : "";
	const long calls = sizeof(fn) / sizeof(fn[0]);
	long chunks = n / CHUNK, records = 0;
	unsigned long x = 1;
	int interval = 0;
	double *ns, start = now(), all;

	if (!strcmp(mode, "ire"))
		interval = 9999;
	else if (!strcmp(mode, "ire-min"))
		interval = 0xff;
	if (chunks <= 0 || n % CHUNK || (*mode && !interval)) {
		fprintf(stderr, "usage: code_footprint ITERATIONS [ire|ire-min]   (ITERATIONS a multiple of %d)\n",
			CHUNK);
		return 2;
	}
	ns = chunk_times(chunks);
	if (interval)
		sampling_on("code_footprint", &cb, ring, sizeof(ring), interval);
	for (long c = 0; c < chunks; c++) {
		double t0 = now();

		for (long i = 0; i < CHUNK; i++) {
			for (long f = 0; f < calls; f++)
				x = fn[f](x);
			/* consume the records, so that the ring never fills */
			if (interval) {
				lwp_flush();
				records += (cb.head - cb.tail + sizeof(ring)) % sizeof(ring) /
					   sizeof(ring[0]);
				cb.tail = cb.head;
			}
		}
		ns[c] = (now() - t0) / (CHUNK * calls);
	}
	all = (now() - start) / (n * calls);
	printf("code_footprint: %lx records=%ld ns_per_call=%.4f all=%.4f\n", x, records,
	       quantile(ns, chunks, 0.2), all);
	return 0;
}
