/* ustack() takes a positive number of frames */
BEGIN
{
	ustack(0);
}
