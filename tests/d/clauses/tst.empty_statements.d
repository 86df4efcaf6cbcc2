/* bodies made of empty statements, and a last statement without ';' */
BEGIN
{
	;
}

END
{
	;;;
	trace(1);;
	trace(2)
}

tick-1s {}
