/* Clause-local this-> variables are created by assignment or declared with this. */
this int sum;

BEGIN
{
	this->sum = 1;
	this->start = timestamp;
	this->name = execname;
	this->sum += 2;
	total = this->sum;
}

BEGIN
/this->sum > 0/
{
	later = this->start;
}
