/* quantize(value[, increment]): a third argument is one too many. */
BEGIN
{
	@a = quantize(1, 2, 3);
}
