/* %C takes a char, short or int (pfcheck_csi), as %c does */
BEGIN
{
	printf("%C\n", 1ULL << 40);
}
