/* ipl reads kernel state (illumos: the CPU's interrupt priority level): refused, saying why */
BEGIN
{
	trace(ipl);
}
