/* macro arguments: $1 an integer, $2 an identifier, $$3 a string, $3 in a probe description */
syscall::$3:entry
/pid == $1/
{
	trace($2);
	trace($$3);
	trace($1 + 1);
}
