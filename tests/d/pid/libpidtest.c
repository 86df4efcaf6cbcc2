/* A library the pid tests dlopen(): f() is called after the load. */
__attribute__((noinline)) int f(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}
