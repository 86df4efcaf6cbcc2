/* the same aggregations used consistently (function, keys, constant arguments) across clauses */
syscall::read:entry
{
	@n[probefunc, pid] = count();
	@lq[probefunc] = lquantize(arg2, 0, 4096, 256);
	@llq = llquantize(arg2, 10, 0, 6, 20);
}

syscall::write:entry
{
	@n[probefunc, pid] = count();
	@lq[probefunc] = lquantize(arg2 + 1, 0, 4096, 256);
	@llq = llquantize(arg2, 10, 0, 6, 20);
}

END
{
	printa(@n);
	printa(@lq);
	printa(@llq);
}
