/* Every variable scope: globals, self-> (per thread), this-> (per clause firing), associative arrays; 0 deletes. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 6" */
int total;
string last;

trig$target:::tick
{
	total += arg0;
	last = copyinstr(arg1);
	self->count++;
	this->sq = arg2;
	names[copyinstr(arg1)]++;
	bykey[arg0 % 2, copyinstr(arg1)] = this->sq;
}

trig$target:::tick
/this->sq > 10/
{
	printf("big %d at %d\n", this->sq, arg0);
}

trig$target:::done
{
	printf("total %d last %s self %d\n", total, last, self->count);
	printf("alpha %d beta %d gamma %d delta %d\n", names["alpha"], names["beta"],
	    names["gamma"], names["delta"]);
	printf("bykey %d %d %d\n", bykey[0, "alpha"], bykey[1, "beta"], bykey[1, "gamma"]);
	names["alpha"] = 0;
	printf("deleted %d\n", names["alpha"]);
	self->count = 0;
	printf("self after delete %d\n", self->count);
}
