/* A member cannot have a struct type that is declared but not defined. */
struct later;

struct holder {
	int n;
	struct later l;
};
