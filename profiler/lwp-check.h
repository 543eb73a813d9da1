/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether this thread can sample instructions retired with LWP, in the
 * record layout of lib/lwp.h and with XSAVE component 62.  lwprof asks
 * before it runs a program (no LWP is an error, not an empty profile);
 * liblwprof.so asks again, for runs without lwprof.
 */
#ifndef LWPROF_LWP_CHECK_H
#define LWPROF_LWP_CHECK_H

#include "../lib/lwp.h"

/* NULL when usable, with *xsave_offset the component's offset; else why not. */
static inline const char *lwprof_lwp_unusable(unsigned int *xsave_offset)
{
	unsigned int geometry = 0, features, eax, ebx, ecx, edx;

	__cpuid(0x80000000, eax, ebx, ecx, edx);
	if (eax < LWP_LEAF)
		return "the CPU has no LWP (no CPUID leaf 0x8000001c)";
	__cpuid(0x80000001, eax, ebx, ecx, edx);
	if (!(ecx & LWP_CPUID_FEATURE))
		return "the CPU has no LWP (CPUID 0x80000001 ECX bit 15)";
	features = lwp_enabled_features(&geometry);
	if (!(features & LWP_AVAIL))
		return "the kernel did not enable LWP (CPUID 0x8000001c EAX 0)";
	if (!(features & LWP_EVENT_BIT(LWP_EVENT_INSNS)))
		return "LWP cannot count instructions retired here";
	if (!lwp_geometry_ok(geometry))
		return "unexpected LWP record or LWPCB geometry";
	/* the handler reads the ring head from there (32 bytes) */
	__cpuid_count(0xd, 62, eax, ebx, ecx, edx);
	if (eax < 32)
		return "no XSAVE component 62 (the LWP state)";
	*xsave_offset = ebx;
	return NULL;
}

#endif
