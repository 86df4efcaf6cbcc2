/* A bit-field must have an integer type, not a pointer type. */
struct f {
	char *p : 3;
};
