/* A character constant holds at most eight characters (the width of a 64-bit int). */
BEGIN
{
	c = 'abcdefghi';
}
