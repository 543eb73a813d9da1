/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space view of AMD LWP for the demo and the benchmarks: the LWPCB,
 * the event record and CPUID, as docs/lwp-decisions.md specifies them.
 */
#ifndef LWP_USER_H
#define LWP_USER_H

#include <cpuid.h>
#include <stdint.h>
#include <x86intrin.h>

#define LWP_CPUID_FEATURE	(1u << 15)	/* CPUID 0x80000001 ECX */
#define LWP_LEAF		0x8000001c
#define LWP_AVAIL		(1u << 0)
#define LWP_EVENT_BIT(id)	(1u << (id))
#define LWP_EVENT_INSNS		2		/* instructions retired */

struct lwpcb {
	uint32_t flags;
	uint32_t buffer_size;
	uint64_t buffer_base;
	uint32_t head;
	uint32_t reserved0;
	uint64_t missed_events;
	uint32_t threshold;
	uint32_t filters;
	uint64_t base_ip;
	uint64_t limit_ip;
	uint64_t reserved1;
	uint32_t tail;
	uint32_t reserved2;
	uint8_t reserved3[0x38];
	/* at LwpEventOffset (0x80 on every implementation so far) */
	struct {
		int32_t interval;
		int32_t counter;
	} event[6];
};

struct lwp_record {
	uint8_t event_id;
	uint8_t core_id;
	uint16_t flags;
	uint32_t data1;
	uint64_t ip;
	uint64_t data2;
	uint64_t data3;
};

/*
 * The enabled LWP features (CPUID 0x8000001C EAX), or 0 when LWP cannot be
 * used: no LWP in the CPU, or the kernel did not enable it.  *ebx_out gets
 * the LWPCB and record geometry.
 */
static inline unsigned int lwp_enabled_features(unsigned int *ebx_out)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid(0x80000000, eax, ebx, ecx, edx);
	if (eax < LWP_LEAF)
		return 0;
	__cpuid(0x80000001, eax, ebx, ecx, edx);
	if (!(ecx & LWP_CPUID_FEATURE))
		return 0;
	__cpuid(LWP_LEAF, eax, ebx, ecx, edx);
	if (ebx_out)
		*ebx_out = ebx;
	return eax;
}

/* The layout above is only right for this geometry. */
static inline int lwp_geometry_ok(unsigned int ebx)
{
	return ((ebx >> 8) & 0xff) == sizeof(struct lwp_record) &&
	       (ebx >> 24) == __builtin_offsetof(struct lwpcb, event);
}

__attribute__((target("lwp")))
static inline void lwp_load(struct lwpcb *cb)
{
	__llwpcb(cb);
}

__attribute__((target("lwp")))
static inline struct lwpcb *lwp_flush(void)
{
	return __slwpcb();
}

#endif
