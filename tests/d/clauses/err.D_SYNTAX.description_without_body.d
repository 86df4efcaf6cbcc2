/* a forgotten comma: BEGIN has neither predicate nor actions, refused in a file */
BEGIN
END
{
	exit(0);
}
