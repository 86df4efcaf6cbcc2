/* A character constant of several characters packs them, the first one highest. */
BEGIN
{
	ok = 1 / ('ab' == 0x6162);
	ok = 1 / ('abcd' == 0x61626364);
	ok = 1 / ('abcdefgh' == 0x6162636465666768);
}
