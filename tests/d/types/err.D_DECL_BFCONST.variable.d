/* A bit-field width must be an integer constant, not a variable. */
int n;

struct f {
	int a : n;
};
