/* a member may point to a function, not be one */
struct ops {
	int (*ok)(int);
	int bad(int);
};

BEGIN
{
}
