/*
 * copyout( ) stages its source in the alloca region's second half, then
 * bpf_probe_write_user; copyoutstr( ) measures the string with a kernel
 * string copy into a temporary and writes from the string itself.  The
 * code is pinned here: a kernel in lockdown (as where the tests run)
 * cannot load it.
 */
#pragma D option destructive

BEGIN
{
	copyout(alloca(8), 4096, 8);
	copyoutstr("abc", 4096, 2);
}
