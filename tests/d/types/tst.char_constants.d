/* Character constants and escape sequences have their character codes as int values. */
BEGIN
{
	ok = 1 / ('a' == 97);
	ok = 1 / ('A' == 0x41);
	ok = 1 / ('\n' == 10);
	ok = 1 / ('\t' == 9);
	ok = 1 / ('\0' == 0);
	ok = 1 / ('\\' == 92);
	ok = 1 / ('"' == 34);
	ok = 1 / ('\x41' == 65);
	ok = 1 / ('\101' == 65);
	ok = 1 / (sizeof ('a') == 4);
}
