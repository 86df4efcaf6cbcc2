/* quantize: the power-of-two bucket of a value */
syscall::read:return
/arg0 > 0/
{
	@sizes = quantize(arg0);
}
