/*
 * plt.c -- passes to take() the address of clock_gettime's PLT entry (a
 * program built -no-pie takes an external function's address as its
 * canonical PLT entry) and of the vDSO's __vdso_clock_gettime.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

__attribute__((noipa)) void take(void *plt, void *vdso)
{
	__asm__ volatile("" : : "r"(plt), "r"(vdso) : "memory");
}

int main(void)
{
	void *h = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
	void *v = h != NULL ? dlsym(h, "__vdso_clock_gettime") : NULL;

	take((void *)clock_gettime, v);
	return v == NULL;
}
