/* uregs[] takes the constant register numbers 0 to 46, including folded expressions. */
BEGIN
{
	a = uregs[0];
	b = uregs[46];
	c = uregs[19 + 2];
	d = uregs[(unsigned char)3];
	ok = 1 / (sizeof (uregs[5]) == 8);
}
