/* a new variable cannot take an array's type, even a char array */
struct rec {
	char name[16];
};
struct rec r;

BEGIN
{
	n = r.name;
}
