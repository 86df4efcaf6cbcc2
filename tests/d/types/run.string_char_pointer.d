/*
 * Strings, char pointers and char arrays convert to each other in
 * assignment and comparison.  A char array a variable holds (a member
 * here) reads as a string: its bytes up to the first NUL, all 16 when it
 * has none; a char pointer reads the string it points to.
 */
/* @args: -q */
struct rec {
	char name[16];
};

string s;
char *cp;
struct rec r;

BEGIN
{
	cp = (char *)alloca(2);
	cp[0] = 'x';
	s = cp;
	eq = cp == "x";
	printf("s [%s] eq %d\n", s, eq);
	s = r.name;
	printf("empty [%s] %d\n", s, strlen(r.name));
	r.name[0] = 'a';
	r.name[1] = 'b';
	s = r.name;
	same = r.name == s;
	lt = r.name < "abc";
	printf("[%s] same %d lt %d gt %d\n", s, same, lt, r.name > cp);
	r.name[0] = 'A';
	s = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	r.name[15] = 'P';
	r.name[2] = 'C';
	r.name[3] = 'D';
	r.name[4] = 'E';
	r.name[5] = 'F';
	r.name[6] = 'G';
	r.name[7] = 'H';
	r.name[8] = 'I';
	r.name[9] = 'J';
	r.name[10] = 'K';
	r.name[11] = 'L';
	r.name[12] = 'M';
	r.name[13] = 'N';
	r.name[14] = 'O';
	r.name[1] = 'B';
	printf("full [%s] %d %d\n", r.name, strlen(r.name), r.name == substr(s, 0, 16));
	exit(0);
}
