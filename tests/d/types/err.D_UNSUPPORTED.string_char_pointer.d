/* Strings, char pointers and char arrays convert to each other in assignment and comparison. */
struct rec {
	char name[16];
};

string s;
char *cp;
struct rec r;

BEGIN
{
	s = cp;
	s = r.name;
	cp = s;
	same = r.name == s;
	eq = cp == "x";
	lt = r.name < s;
}
