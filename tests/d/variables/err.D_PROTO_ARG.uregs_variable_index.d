/* The register must be known when the program is compiled: uregs[] takes a constant. */
BEGIN
{
	i = 3;
	trace(uregs[i]);
}
