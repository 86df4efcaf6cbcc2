/* $$1 without any macro argument */
BEGIN
{
	trace($$1);
}
