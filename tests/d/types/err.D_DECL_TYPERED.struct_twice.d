/* A struct tag may be defined only once. */
struct point {
	int x;
};

struct point {
	int y;
};
