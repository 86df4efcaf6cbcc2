/* An enumerator's value may not be a declared variable: it is not a constant. */
int x;

enum e {
	A = x
};
