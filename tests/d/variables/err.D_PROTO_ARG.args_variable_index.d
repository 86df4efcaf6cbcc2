/* args[] takes an integer constant index, not a variable. */
provider p {
	probe q(int, int);
};

p*:::q
{
	i = 1;
	x = args[i];
}
