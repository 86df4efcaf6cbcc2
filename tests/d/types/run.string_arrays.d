/*
 * Arrays of strings (string a[4]) global, this-> and self->: each element
 * strsize bytes, as illumos's string type, assigned with = (the string
 * copied, cut at strsize - 1) and read as a string anywhere one is wanted.
 * Elements start empty, an absent self-> element reads as "", a whole
 * array is traced by its bytes (strsize each), and an index outside the
 * array faults.
 */
/* @args: -q -x strsize=16 */
string a[4];
string b[4];
string m[2][3];
this string t[2];
self string u[3];

BEGIN
{
	a[1] = "hello";
	a[2] = a[1];
	a[3] = "exactly16bytes!!";
	a[0] = "";
	printf("[%s] [%s] [%s] [%s]\n", a[0], a[1], a[2], a[3]);
	printf("%d %d %d\n", strlen(a[1]), strlen(a[3]), a[1] == a[2]);
	printf("%s\n", strjoin(a[1], a[2]));
	this->i = 2;
	a[this->i] = "two";
	printf("%s %s\n", a[this->i], a[this->i - 1]);
	m[1][2] = "m12";
	m[0][0] = "m00";
	printf("%s %s [%s]\n", m[1][2], m[0][0], m[1][0]);
	this->t[1] = "x";
	this->t[0] = this->t[1];
	printf("%s %s\n", this->t[0], this->t[1]);
	printf("[%s]\n", self->u[2]);
	self->u[2] = "y";
	printf("[%s] [%s]\n", self->u[2], self->u[1]);
	b[1] = a[1];
	a[1] = "changed";
	printf("%s %s\n", b[1], a[1]);
	@c[a[1]] = count();
	trace(a[2]);
	printf("\n");
}

BEGIN
{
	this->i = 4;
	a[this->i] = "out";
}

BEGIN
{
	this->i = -1;
	printf("%s\n", a[this->i]);
}

BEGIN
{
	printa(@c);
	trace(m);
	exit(0);
}
