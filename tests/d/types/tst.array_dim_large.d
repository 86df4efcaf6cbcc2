/* Array dimensions above one million are allowed (DTrace's limit is UINT_MAX). */
char buf[1048577];

BEGIN
{
	ok = 1 / (sizeof (buf) == 1048577);
}
