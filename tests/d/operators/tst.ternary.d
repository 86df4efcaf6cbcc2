/* ?: takes a scalar condition; nested ?: groups to the right. */
BEGIN
{
	ok = 1 / ((1 ? 10 : 20) == 10);
	ok = 1 / ((0 ? 10 : 20) == 20);
	ok = 1 / ((0 ? 1 : 0 ? 2 : 3) == 3);
	x = pid > 1 ? 1 : 2;
	s = pid > 1 ? "big" : "small";
	t = pid ? execname : "none";
	p = pid ? (char *)0 : (char *)1;
}
