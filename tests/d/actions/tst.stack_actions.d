/* stack(), ustack() and jstack() as actions, with and without frame counts and string sizes */
profile-997hz
{
	stack();
	stack(10);
	ustack();
	ustack(20);
	ustack(20, 500);
	jstack();
	jstack(10, 1000);
}
