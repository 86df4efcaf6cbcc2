/* stack() takes a positive number of frames */
BEGIN
{
	stack(0);
}
