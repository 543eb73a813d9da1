// SPDX-License-Identifier: GPL-2.0
/*
 * What one LWP threshold signal costs, in guest instructions.
 *
 *   threshold signal|poll ROUNDS
 *
 * Every round stores one LWPINS record into a ring whose threshold is one
 * record, and consumes it by moving BufferTailOffset one record on, so
 * that the fill goes 0, 1, 0, ...  "signal": the LWPCB asks for the
 * threshold interrupt, and the handler of the kernel's SI_LWP signal
 * consumes the record, so every round is one delivery.  "poll": no
 * interrupt, the loop consumes the record itself.  Per round, signal
 * minus poll is one delivery: the interrupt, the signal frame, the
 * handler and sigreturn.
 *
 * Prints "threshold MODE rounds=N signals=S" and fails unless S is N
 * for signal and 0 for poll.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ARCH_LWP_SET_SIGNAL	0x6001
#define SI_LWP			(-8)

#define LWPCB_FLAGS		0x00
#define LWPCB_BUF_SIZE		0x04
#define LWPCB_BUF_BASE		0x08
#define LWPCB_THRESHOLD		0x20
#define LWPCB_TAIL		0x40
#define LWP_FLAG_THRESHOLD	0x80000000u
#define RECORD_SIZE		32
#define RING_RECORDS		32	/* the smallest ring LWP takes */

static uint8_t lwpcb[256] __attribute__((aligned(64)));
static uint8_t ring[RING_RECORDS * RECORD_SIZE] __attribute__((aligned(64)));
static volatile unsigned long signals;

static uint32_t *field(int off)
{
	return (uint32_t *)(lwpcb + off);
}

/* The CPU reads the tail before each record it stores */
static void consume_one(void)
{
	uint32_t tail = *field(LWPCB_TAIL) + RECORD_SIZE;

	__atomic_store_n(field(LWPCB_TAIL), tail % sizeof(ring), __ATOMIC_RELEASE);
}

static void on_threshold(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code != SI_LWP || si->si_ptr != lwpcb)
		return;
	consume_one();
	signals++;
}

static void lwpins(void)
{
	asm volatile("lwpins $0, %0, %1" : : "r" (0), "r" (0) : "cc", "memory");
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int use_signal;
	long rounds, i;

	if (argc != 3 || (strcmp(argv[1], "signal") && strcmp(argv[1], "poll")) ||
	    (rounds = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: threshold signal|poll ROUNDS\n");
		return 2;
	}
	use_signal = !strcmp(argv[1], "signal");

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_threshold;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGRTMIN, &sa, NULL) ||
	    (use_signal && syscall(SYS_arch_prctl, ARCH_LWP_SET_SIGNAL, SIGRTMIN))) {
		perror("threshold: sigaction or ARCH_LWP_SET_SIGNAL");
		return 1;
	}
	*field(LWPCB_FLAGS) = use_signal ? LWP_FLAG_THRESHOLD : 0;
	*field(LWPCB_BUF_SIZE) = sizeof(ring);
	*(uint64_t *)(lwpcb + LWPCB_BUF_BASE) = (uintptr_t)ring;
	*field(LWPCB_THRESHOLD) = RECORD_SIZE;
	asm volatile("llwpcb %0" : : "r" (lwpcb) : "memory");

	for (i = 0; i < rounds; i++) {
		lwpins();
		if (!use_signal)
			consume_one();
	}

	asm volatile("llwpcb %0" : : "r" (0L) : "memory");
	printf("threshold %s rounds=%ld signals=%lu\n", argv[1], rounds, signals);
	return signals == (use_signal ? (unsigned long)rounds : 0) ? 0 : 1;
}
