/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test programs' workload: one loop body, run for a known number of
 * units, in functions of their own, so that the profile is known: each
 * function's share of the instructions is its share of the units.
 */
#ifndef LWPROF_TEST_WORK_H
#define LWPROF_TEST_WORK_H

#define WORK_UNIT 100000
#define WORK(name)							\
	__attribute__((noinline))					\
	unsigned long name(unsigned long x, int units)			\
	{								\
		for (long i = 0; i < units * WORK_UNIT; i++) {		\
			x = x * 31 + i;					\
			asm volatile("" : "+r"(x));			\
		}							\
		return x;						\
	}

#endif
