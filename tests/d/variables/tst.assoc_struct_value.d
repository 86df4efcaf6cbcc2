/* A declared associative array may read members of its struct values. */
struct stat {
	uint64_t count;
	uint64_t bytes;
};

struct stat stats[string];

BEGIN
{
	x = stats["read"].count + stats["write"].bytes;
}
