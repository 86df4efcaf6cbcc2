/* msgdsize( ) reads a STREAMS message (mblk_t): the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(msgdsize((void *)arg0));
}
