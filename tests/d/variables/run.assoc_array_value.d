/*
 * An associative array whose value is an array (int a[int][4]: illumos
 * dt_decl_array puts the dimension below the signature).  As illumos's
 * dt_cg_array_op faults in a zero-filled element for a by-reference value,
 * a store to a[k][i] makes the element; an absent one reads as zeros.  An
 * index outside the value's array faults.
 */
/* @args: -q */
int a[int][4];
self short s[string, int][2][3];

BEGIN
{
	a[1][2] = 3;
	a[7][0]++;
	a[7][0] += 4;
	a[7][3] = a[1][2] * 10;
	printf("%d %d %d %d %d\n", a[1][2], a[1][0], a[2][3], a[7][0], a[7][3]);
	trace(a[1]);
	printf("\n");
	self->s["x", 1][1][2] = -1;
	printf("%d %d %d\n", self->s["x", 1][1][2], self->s["x", 1][0][2], self->s["y", 1][1][2]);
	@k[a[7]] = count();
	printa(@k);
}

BEGIN
{
	this->i = 4;
	a[1][this->i] = 1;
}

BEGIN
{
	printf("%d\n", a[1][2]);
	exit(0);
}
