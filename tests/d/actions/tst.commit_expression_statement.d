/* an expression statement records no data, so it may precede or follow commit() */
BEGIN
{
	commit(1);
	1;
}

BEGIN
{
	1;
	commit(1);
}
