/* Probe arguments cannot be assigned. */
provider wp {
	probe p(int);
};

wp*:::p
{
	args[0] = 3;
}
