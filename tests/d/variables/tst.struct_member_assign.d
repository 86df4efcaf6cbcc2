/* Members of a struct array value may be assigned and incremented (the Guide's rwinfo.d). */
struct callinfo {
	uint64_t ts;
	uint64_t calls;
};

struct callinfo i[string];

BEGIN
{
	i[probefunc].ts = timestamp;
	i[probefunc].calls++;
}
