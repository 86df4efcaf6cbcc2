/* $$1 needs an argument on the command line. */
BEGIN
{
	s = $$1;
}
