/* %I (pfprint_inetaddr) is in illumos's table but not printed here yet */
BEGIN
{
	printf("%I\n", "127.0.0.1");
}
