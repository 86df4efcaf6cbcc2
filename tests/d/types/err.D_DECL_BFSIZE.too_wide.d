/* A bit-field may not be wider than its type. */
struct f {
	int a : 33;
};
