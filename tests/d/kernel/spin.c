/* Spins until killed: a process on the CPU for profile's tick to see. */
int main(void)
{
	for (;;)
		;
}
