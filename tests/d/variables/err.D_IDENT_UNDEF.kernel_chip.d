/* chip is the physical chip of the CPU the probe fired on: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(chip);
}
