/* curcpu (sched.d) is a translated pointer: only its members have values, as in illumos */
BEGIN
{
	trace(curcpu);
}
