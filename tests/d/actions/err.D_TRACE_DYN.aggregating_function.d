/* trace() of an aggregating function, whose value has the dynamic type */
BEGIN
{
	trace(count());
}
