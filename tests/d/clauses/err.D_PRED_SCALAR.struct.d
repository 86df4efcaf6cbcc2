/* a predicate of struct type */
struct s {
	int a;
};

BEGIN
/ *(struct s *)arg0 /
{
}
