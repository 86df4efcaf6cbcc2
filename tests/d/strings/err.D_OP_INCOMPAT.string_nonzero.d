/* only the constant 0 is NULL: a string is not compared with another integer */
BEGIN
{
	trace(strchr("abc", 'b') != 1);
}
