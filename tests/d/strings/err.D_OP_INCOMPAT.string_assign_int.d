/* a string variable may be assigned NULL (0), not another integer */
BEGIN
{
	s = "a";
	s = 2;
}
