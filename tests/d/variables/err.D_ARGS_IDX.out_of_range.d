/* args[] indexes must be below the probe's argument count. */
provider ap {
	probe two(int, char *);
};

ap*:::two
{
	x = args[2];
}
