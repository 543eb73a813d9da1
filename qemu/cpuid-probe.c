/*
 * Print what a CPU model shows of LWP: build with gcc -static -O2 and run
 * under build/qemu/qemu-x86_64 -cpu MODEL (see qemu/README.md).
 */
#include <cpuid.h>
#include <stdio.h>
int main(void)
{
    unsigned a, b, c, d, xa, xd;
    __cpuid(0x80000000, a, b, c, d);
    printf("xlevel=0x%x ", a);
    __cpuid(0x80000001, a, b, c, d);
    printf("lwp=%u ", (c >> 15) & 1);
    __cpuid(0x8000001c, a, b, c, d);
    printf("8000001C=%08x/%08x/%08x/%08x ", a, b, c, d);
    __cpuid_count(0xd, 0, a, b, c, d);
    printf("D.0=%08x/%08x/%08x/%08x ", a, b, c, d);
    __cpuid_count(0xd, 1, a, b, c, d);
    printf("D.1.eax=%x ", a);
    __cpuid_count(0xd, 62, a, b, c, d);
    printf("D.62=%x/%x ", a, b);
    __cpuid(1, a, b, c, d);
    if (c & (1u << 27)) {
        asm volatile("xgetbv" : "=a"(xa), "=d"(xd) : "c"(0));
        printf("XCR0=0x%08x%08x", xd, xa);
    }
    printf("\n");
    return 0;
}
