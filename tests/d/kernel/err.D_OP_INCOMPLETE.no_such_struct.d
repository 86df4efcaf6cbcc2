/* A struct neither D nor the kernel's BTF defines stays a forward declaration. */
BEGIN
{
	trace(((struct dt_no_such_kernel_struct *)0)->m);
}
