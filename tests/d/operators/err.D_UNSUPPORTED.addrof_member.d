/* & of a variable's member: a variable has no address a program could read through here */
struct point {
	int x;
	int y;
};
struct point pt;

BEGIN
{
	p = &pt.y;
}
