/* args may not be read without an index. */
provider p {
	probe q(int, int);
};

p*:::q
{
	x = args;
}
