/* Associative arrays can be declared with key and value types. */
int counts[string];
string names[int, int];
uint64_t stamps[pid_t, string, uint64_t];

BEGIN
{
	counts["a"]++;
	counts[execname] += 2;
	names[1, 2] = "pair";
	stamps[pid, "start", 0] = timestamp;
	x = names[3, 4] == "";
}
