/* The first assignment fixes a variable's type; a string cannot follow an int. */
BEGIN
{
	x = 1;
}

END
{
	x = "one";
}
