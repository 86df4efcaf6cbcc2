/*
 * copyout() and copyoutstr() (destructive: -w) write the process's
 * memory: copyout_sdt prints its buffer after each co:::step, a NUL as
 * \0.  copyout from scratch memory (copyin, alloca through a variable)
 * and from the process's own memory, 0 bytes; copyoutstr writes the
 * string's bytes and its NUL, at most maxlen of them (illumos'
 * dtrace_copystr: no NUL when the string is longer), from a literal, the
 * empty string, a variable, copyinstr(); maxlen 0 writes nothing.  On a
 * kernel in lockdown dtrace refuses to start, naming the reason.
 */
/* @setup: cc -O2 -o copyout_sdt copyout_sdt.c */
/* @args: -q -w -c "./copyout_sdt 11" */
/* @lockdown: refused */
co$target:::step
/arg0 == 1/
{
	copyout(copyin(arg2, 5), arg1, 5);
}

co$target:::step
/arg0 == 2/
{
	copyout(arg2 + 7, arg1 + 2, 5);
}

co$target:::step
/arg0 == 3/
{
	this->p = alloca(8);
	*(uint32_t *)this->p = 0x44434241;
	copyout(this->p, arg1 + 11, 4);
}

co$target:::step
/arg0 == 4/
{
	copyout(arg2, arg1, 0);
}

co$target:::step
/arg0 == 5/
{
	copyoutstr("abc", arg1, 10);
}

co$target:::step
/arg0 == 6/
{
	copyoutstr("abcdef", arg1, 3);
}

co$target:::step
/arg0 == 7/
{
	copyoutstr("", arg1 + 1, 4);
}

co$target:::step
/arg0 == 8/
{
	this->s = "xyz";
	copyoutstr(this->s, arg1 + 12, 16);
}

co$target:::step
/arg0 == 9/
{
	copyoutstr(copyinstr(arg2), arg1, 5);
}

co$target:::step
/arg0 == 10/
{
	copyoutstr("abc", arg1, 0);
}

co$target:::step
/arg0 == 11/
{
	copyoutstr(strjoin("a", "b"), arg1 + 3, 3);
	copyoutstr(copyinstr(arg2), arg1 + 6, 9);
	copyout(arg2 + 4, arg1 + 14, 1);
}
