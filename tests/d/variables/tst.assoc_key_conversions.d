/* Integer keys of different widths and char pointers as string keys are compatible. */
provider kp {
	probe p(int, char *);
};

kp*:::p
{
	k[args[0]] = 1;
	k[1L] = 2;
	k[(char)3] = 3;
	s[args[1]] = 1;
	s["literal"] = 2;
}
