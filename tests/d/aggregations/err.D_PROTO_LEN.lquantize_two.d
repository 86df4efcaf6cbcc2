/* lquantize(value, lower, upper[, step[, increment]]): the bounds are required. */
BEGIN
{
	@a = lquantize(1, 0);
}
