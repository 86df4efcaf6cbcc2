/* offsetof needs a struct or union type. */
BEGIN
{
	n = offsetof(long, x);
}
