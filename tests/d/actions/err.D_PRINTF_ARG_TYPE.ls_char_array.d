/* %ls: pfcheck_wstr wants an array of 32-bit integers (a wchar_t []), not a char [] */
char name[8];

BEGIN
{
	printf("%ls\n", name);
}
