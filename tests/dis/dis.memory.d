/*
 * Scratch memory: copyin() allocates (the alloca region's count, reset
 * when the clause starts) and reads the process; a read through a
 * variable checks whether it points into the alloca region
 * (probe_read_kernel) or not (probe_read_user); a store reaches only what
 * the clause allocated.
 */
BEGIN
{
	this->p = (int *)copyin(arg0, 8);
	*this->p = 1;
	trace(this->p[1]);
}
