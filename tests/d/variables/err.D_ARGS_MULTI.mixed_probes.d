/* args[] is ambiguous when a description matches probes with different argument types. */
provider mp {
	probe number(int);
	probe name(char *);
};

mp*:::n*
{
	x = args[0];
}
