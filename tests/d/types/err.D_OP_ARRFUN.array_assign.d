/* an array is not assigned whole, as in illumos (dt_cook_op2); a string element is */
string a[2], b[2];

BEGIN
{
	b[0] = a[1];
	b = a;
}
