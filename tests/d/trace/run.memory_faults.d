/*
 * Faults of the memory subroutines: a bad address for copyin (the
 * address), more than scratchsize for alloca (out of scratch space, also
 * when the clause's allocations add up to more), a destination that is
 * not scratch memory for bcopy and copyinto, a store outside it.
 */
/* @args: -q -x scratchsize=64 */
BEGIN { copyin(16, 4); }
BEGIN { alloca(65); }
BEGIN { alloca(64); printf("64 fits\n"); }
BEGIN { alloca(40); alloca(24); alloca(1); }
BEGIN { this->p = (char *)alloca(8); bcopy(this->p, (char *)24, 1); }
BEGIN { copyinto(0, 1, (char *)8); }
BEGIN { *(int *)alloca(4) = 1; *(int *)16 = 1; }
ERROR { printf("ERROR fault %d addr %x\n", arg4, arg5); }
BEGIN { exit(0); }
