/* printf %p and %a with pointers and integers */
BEGIN
{
	printf("%p %p\n", arg0, (void *)arg1);
	printf("%a %a\n", arg0, caller);
	printf("%-20a|%20p|\n", (uintptr_t)arg1, curthread);
}
