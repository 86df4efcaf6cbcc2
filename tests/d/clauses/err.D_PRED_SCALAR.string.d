/* a predicate of string type */
syscall::open:entry
/execname/
{
}
