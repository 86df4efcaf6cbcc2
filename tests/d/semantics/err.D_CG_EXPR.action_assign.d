/* an action as a value: dtrace(1) says what its dt_cg_node says */
BEGIN
{
	x = printf("a");
}
