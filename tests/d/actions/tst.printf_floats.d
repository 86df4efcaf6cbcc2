/* printf %e %E %f %g %G with the floating-point members of a structure */
struct sample {
	double d;
	float f;
};

BEGIN
{
	this->s = (struct sample *)arg0;
	printf("%e %E %f %g %G\n", this->s->d, this->s->d, this->s->d, this->s->f, this->s->f);
	printf("%10.3f|%-12.4e|%.0g|%+f\n", this->s->d, this->s->d, this->s->d, this->s->f);
}
