#!/usr/sbin/dtrace -qs
/*
 * Objects allocated, by class, with their bytes; the VM fires
 * object-alloc only while a tracer has it enabled (its is-enabled check):
 *   dtrace -qs alloc.d -c './vm 1000'
 */
vm$target:::object-alloc
{
	@n[copyinstr(arg1, arg2)] = count();
	@bytes[copyinstr(arg1, arg2)] = sum(arg3);
}

END
{
	printf("%-8s %8s %10s\n", "CLASS", "OBJECTS", "BYTES");
	printa("%-8s %@8d %@10d\n", @n, @bytes);
}
