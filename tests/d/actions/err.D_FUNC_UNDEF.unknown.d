/* a call of a function that D does not have */
BEGIN
{
	trace(nosuchfunction(1));
}
