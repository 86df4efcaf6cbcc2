/*
 * run.agg_many.d sorted by key first, reversed (-x aggsortkey -x
 * aggsortrev): the radix sort by key then value where the key is one
 * integer, else qsort; trunc() keeps the same entries (it sorts by value).
 */
/* @setup: ./build.sh */
/* @args: -q -x aggsize=16m -x aggsortkey -x aggsortrev -c "./trigger 6000" */
trig$target:::tick
{
	@a[arg0] = count();
	@b[arg0 % 7] = count();
	@c[arg0 % 3 == 0 ? arg0 : 0] = count();
	@n[arg0 - 3000] = sum(arg0 % 5 - 2);
	@s[copyinstr(arg1), arg0 % 2000] = count();
	@i[(int)(arg0 % 4) - 2] = avg(arg0 % 9 - 4);
	@h[(short)(arg0 % 3)] = stddev(arg0 % 11);
	@u[(unsigned char)(arg0 % 260)] = min(arg0 - 6000);
	@x[(unsigned char)(arg0 % 3)] = max(arg2);
}

trig$target:::done
{
	trunc(@a, 5);
	trunc(@c, 3);
	trunc(@n, -6);
	trunc(@s, 8);
	trunc(@u, 6);
}
