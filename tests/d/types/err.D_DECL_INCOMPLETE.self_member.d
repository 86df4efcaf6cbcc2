/* A struct cannot contain itself: it is still incomplete inside its own body. */
struct loop {
	int n;
	struct loop again;
};
