/* an associative array's element is a variable: & of it is D_ADDROF_VAR, of its member is not */
struct pt {
	int x;
};
struct pt tab[int];

BEGIN
{
	p = &tab[5].x;
	q = &tab[5];
}
