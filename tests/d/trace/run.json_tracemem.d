/* tracemem() in JSON: its bytes, dsize of them when a dynamic size is given */
/* @args: -q -x oformat=json */
BEGIN
{
	this->p = (char *)alloca(4);
	this->p[0] = 1;
	this->p[1] = 2;
	this->p[2] = 3;
	this->p[3] = 4;
	tracemem(this->p, 4, 2);
	tracemem(this->p, 3);
	tracemem(this->p, 4, 0);
	exit(0);
}
