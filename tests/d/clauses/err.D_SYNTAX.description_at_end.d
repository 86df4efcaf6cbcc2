/* at the end of the file too */
BEGIN
{
	exit(0);
}

END
