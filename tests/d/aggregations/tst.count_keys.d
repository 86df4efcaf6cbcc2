/* count() with no key, one key and several keys of different types */
BEGIN
{
	@calls = count();
	@byname[execname] = count();
	@bypid[pid] = count();
	@bytuple[execname, pid, tid, probefunc, probename] = count();
	@mixed[(char)'a', (uint8_t)1, (int16_t)-2, (uint32_t)3, (int64_t)-4, 5ULL] = count();
	@byptr[curthread, (void *)arg0] = count();
}
