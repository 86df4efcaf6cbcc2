/* A variable declared string cannot take an integer. */
string s;

BEGIN
{
	s = 42;
}
