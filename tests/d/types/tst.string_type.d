/* string is a D type: declared string variables take literals and other strings. */
string greeting;

BEGIN
{
	greeting = "hello";
	other = greeting;
	greeting = execname;
	ok = 1 / (sizeof (string) == 256);
	ok = 1 / (sizeof (greeting) == 256);
}
