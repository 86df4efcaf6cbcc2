/* Enum-typed variables take enumerators and compare with them. */
enum state { IDLE, BUSY, DONE };
enum state st;

BEGIN
{
	st = BUSY;
	other = DONE;
	done = st == DONE;
	cur[pid] = IDLE;
}
