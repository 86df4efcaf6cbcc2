/*
 * Pointer arithmetic as C and illumos' DIF (dt_cg_arithmetic_op): an
 * integer added to or subtracted from a pointer, on either side of +, is
 * scaled by the pointee's size; pointer - pointer is the element count,
 * the byte difference divided unsigned (DIF_OP_UDIV), so a negative
 * difference of long pointers is 2^64 - 32 over 8.  ++, --, += and -= step
 * by elements; pointers compare as addresses.
 */
/* @args: -q */
BEGIN
{
	this->p = (long *)alloca(64);
	this->q = this->p + 4;
	this->r = 2 + this->p;
	this->s = this->p;
	this->s++;
	this->t = this->q;
	this->t -= 1;
	this->t--;
	printf("q - p = %d, bytes %d, as int * %d, as short * %d\n", this->q - this->p,
	    (char *)this->q - (char *)this->p, (int *)this->q - (int *)this->p,
	    (short *)this->q - (short *)this->p);
	printf("(2 + p) - p = %d, p++ - p = %d, q - 2 - p = %d\n", this->r - this->p,
	    this->s - this->p, this->t - this->p);
	printf("p - q = %d\n", this->p - this->q);
	printf("p - p = %d\n", this->p - this->p);
	printf("q > p %d, q < p %d, q == p + 4 %d, q != p %d\n", this->q > this->p,
	    this->q < this->p, this->q == this->p + 4, this->q != this->p);
	this->p[3] = 33;
	*(this->p + 2) = 22;
	printf("p[2] %d, *(p + 3) %d, *(3 + p) %d, (q - 1)[0] %d\n", this->p[2],
	    *(this->p + 3), *(3 + this->p), (this->q - 1)[0]);
	exit(0);
}
