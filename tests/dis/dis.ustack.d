/*
 * ustack() as a statement and as a key, ustackdepth, stack(): the user
 * walk is a call of the dt_ustack body with the saved user registers
 * (task_pt_regs: ip, sp, bp; pc 0 when cs is not ring 3), its process ID
 * stored first; the kernel's is bpf_get_stack into the record.
 */
profile-97
{
	ustack(4);
	@[ustack(3)] = count();
	trace(ustackdepth);
	stack(2);
}
