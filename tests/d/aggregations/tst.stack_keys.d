/* stack(), ustack() and jstack() as aggregation keys, alone and with other keys */
profile-997hz
{
	@k[stack()] = count();
	@k5[stack(5)] = count();
	@u[ustack()] = count();
	@u5[execname, ustack(5, 100)] = count();
	@j[jstack()] = count();
}
