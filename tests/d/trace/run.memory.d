/*
 * copyin(), alloca(), bcopy(), copyinto(), stores through a pointer and
 * what their pointers are used for: *, [], ->, stringof, printf("%s"),
 * tracemem with a dynamic size (under, over and 0); copyinstr() with
 * lengths 0, 1, 3, strsize - 1, more, and -1 (as illumos: strsize) (values
 * by hand: the trigger's names alpha, beta, gamma).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 3" */
provider trig {
	probe tick(int i, const char *name, long sq);
};

struct two {
	char a;
	char b;
	short c;
};

trig$target:::tick
{
	this->p = (char *)copyin(arg1, 6);
	printf("%d %c%c %s %s %s|", arg0, *this->p, this->p[1], stringof(this->p),
	    stringof(copyin(arg1, 6)), this->p);
	printf("%c %x|", ((struct two *)copyin(arg1, sizeof (struct two)))->b,
	    *(int *)copyin(arg1, 4));
	b = (char *)alloca(8);
	bcopy(this->p, b, 6);
	copyinto(arg1 + 1, 2, b);
	b[6] = 'x';
	*(b + 7) = 0;
	printf("%s\n", stringof(b));
	tracemem(this->p, 6);
	tracemem(this->p, 5, arg0 + 1);
	tracemem(this->p, 2, 100);
	tracemem(this->p, 3, 0);
	printf("\n[%s] [%s] [%s] [%s] [%s] [%s]\n", copyinstr(arg1, 0), copyinstr(arg1, 1),
	    copyinstr(arg1, 3), copyinstr(arg1, 255), copyinstr(arg1, 1000), copyinstr(arg1, -1));
}

trig$target:::done
{
	exit(0);
}
