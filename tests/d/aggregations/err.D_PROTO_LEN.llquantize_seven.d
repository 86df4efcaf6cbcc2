/* llquantize(value, factor, low, high, steps[, increment]): six arguments at most. */
BEGIN
{
	@a = llquantize(1, 10, 0, 6, 20, 1, 1);
}
