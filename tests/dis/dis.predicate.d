/* a predicate on a macro argument ($1 from dis.predicate.d.args) and on a comparison of two built-ins */
syscall::read:entry
/pid == $1 && tid != pid/
{
	trace(arg2);
}
