/* u, l, ul, ll and ull suffixes select the type of a constant (seen through sizeof). */
BEGIN
{
	ok = 1 / (sizeof (1) == 4);
	ok = 1 / (sizeof (1u) == 4);
	ok = 1 / (sizeof (1U) == 4);
	ok = 1 / (sizeof (1l) == 8);
	ok = 1 / (sizeof (1L) == 8);
	ok = 1 / (sizeof (1ul) == 8);
	ok = 1 / (sizeof (1UL) == 8);
	ok = 1 / (sizeof (1ll) == 8);
	ok = 1 / (sizeof (1LL) == 8);
	ok = 1 / (sizeof (1ull) == 8);
	ok = 1 / (sizeof (0x10UL) == 8);
	ok = 1 / (sizeof (2147483648) == 8);
}
