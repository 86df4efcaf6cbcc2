/* printa without a format: one aggregation, and several with the same keys in one printa */
syscall::read:return
{
	@count[execname, pid] = count();
	@total[execname, pid] = sum(arg0);
	@avg[execname, pid] = avg(arg0);
}

END
{
	printa(@count);
	printa(@count, @total, @avg);
}
