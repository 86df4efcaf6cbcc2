/*
 * c ? s : NULL is a string (illumos dt_cook_op3: dt_node_is_ptrcompat()
 * of a string and the constant 0): NULL where it is compared or assigned,
 * a fault at address 0 where it is traced.
 */
/* @args: -q */

BEGIN
{
	this->s = 1 ? "a" : NULL;
	x = 0 ? "a" : NULL;
	printf("%d %d %s %d\n", (0 ? "a" : NULL) == NULL, (1 ? "a" : NULL) == NULL, this->s,
	    x == NULL);
	printf("%d\n", (1 ? NULL : "b") < "b");
}

BEGIN
{
	trace(0 ? "a" : NULL);
}

BEGIN
{
	exit(0);
}
