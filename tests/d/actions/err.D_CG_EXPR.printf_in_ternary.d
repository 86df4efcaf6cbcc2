/* an action may not be called from an expression */
BEGIN
{
	pid > 0 ? (void)printf("yes\n") : (void)0;
}
