/*
 * Kernel structs, unions, enums and typedefs D does not declare, taken from
 * BTF: pointers to them, members through pointers, nested members.
 */
struct file *fp;
enum pid_type pt;
sector_t s;

BEGIN
{
	this->t = curthread;
	x = this->t->signal->nr_threads;
	y = curthread->cred->uid.val;
	pt = PIDTYPE_PID;
	z = sizeof (struct mm_struct) > 0;
}
