/* llquantize() with five arguments, with an increment, and with several factors */
syscall::read:return
{
	@ten = llquantize(arg0, 10, 0, 6, 20);
	@two[execname] = llquantize(arg0, 2, 0, 16, 4);
	@incr = llquantize(arg0, 10, 1, 4, 10, 3);
	@big = llquantize(arg0, 1000, 0, 5, 1000);
}
