/* a probe with translated arguments needs a translator from each native argument */
struct in { int a; };
struct out { int b; };

provider myp {
	probe q(struct in *) : (struct out *);
};
