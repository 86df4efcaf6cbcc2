/* print() of more than 4096 bytes: the record is bounded */
struct big {
	char c[5000];
};

BEGIN
{
	print((struct big *)0);
}
