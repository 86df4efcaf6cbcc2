/* a macro variable that does not exist */
BEGIN
{
	trace($nosuchvariable);
}
