/* D has no floating-point arithmetic or conversions (illumos: neither dt_node_is_arith nor dt_node_is_scalar) */
provider fp {
	probe val(int, double, float);
};

fp*:::val
{
	trace((int)args[1]);
}
