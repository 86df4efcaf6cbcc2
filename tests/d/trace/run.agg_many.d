/*
 * Aggregations of more entries than one batch read holds (4096): their
 * shape's map is read through its bpf_iter where the kernel has one, split
 * by aggregation, and sorted by a radix sort of value and key.  6000 ticks:
 * @a one key each (the 5 largest kept: value 1, so the largest keys);
 * @b, @c and @a share a shape (a count, one 8-byte key); @n's keys are
 * negative and positive (keys compare unsigned: -1 sorts after 1) and its
 * values signed (the 6 smallest kept: -2); @s has a string and an integer
 * key (sorted by value, then by key within equal values); @i, @h and @u
 * print keys of 4, 2 and 1 bytes and values of avg, stddev, min and max.
 */
/* @setup: ./build.sh */
/* @args: -q -x aggsize=16m -c "./trigger 6000" */
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
