/* stack([frames]): one argument at most. */
BEGIN
{
	stack(1, 2);
}
