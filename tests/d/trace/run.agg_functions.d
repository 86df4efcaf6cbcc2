/* Every scalar aggregating function, with and without keys, printed at exit. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 10" */
trig$target:::tick
{
	@count = count();
	@sum = sum(arg0);
	@min[copyinstr(arg1)] = min(arg0);
	@max[copyinstr(arg1)] = max(arg0);
	@avg[copyinstr(arg1), arg0 % 2] = avg(arg2);
	@sd = stddev(arg2);
}
trig$target:::neg
{
	@neg[(char)arg2, (short)arg1, (int)arg0] = sum(arg0);
}
