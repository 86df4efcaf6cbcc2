/* curcpu reads kernel state (illumos: the CPU's cpu_t): refused, saying why */
BEGIN
{
	trace(curcpu);
}
