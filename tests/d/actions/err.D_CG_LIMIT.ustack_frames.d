/* a user stack of more than 1024 frames: refused when compiled (its record would pass 8 KiB) */
BEGIN
{
	ustack(1025);
}
