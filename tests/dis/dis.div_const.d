/*
 * By a positive literal: the immediate form, no zero check and no fault
 * block (the verifier rewrote each division by a register and removed
 * each check it proved dead, moving the whole program each time); by a
 * variable: the check and the register form.
 */
BEGIN
{
	x = arg0;
	y = arg1;
	trace(x / 16);
	trace(x % 3);
	trace(x / y);
}
