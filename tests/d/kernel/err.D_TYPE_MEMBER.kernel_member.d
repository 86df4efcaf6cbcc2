/* A member struct task_struct does not have: illumos's wording. */
BEGIN
{
	trace(curthread->no_such_member);
}
