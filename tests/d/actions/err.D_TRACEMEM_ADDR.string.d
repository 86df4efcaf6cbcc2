/* tracemem() takes an address, not a string */
BEGIN
{
	tracemem("s", 10);
}
