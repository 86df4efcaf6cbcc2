/*
 * Structs can contain structs, arrays and pointers to their own type: the
 * members of a struct variable, and of memory through its pointers
 * (alloca()'d here); a NULL pointer's member is a bad address fault.
 */
/* @args: -q */
struct inner {
	short a;
	char tag[3];
};

struct node {
	struct inner in;
	struct node *next;
	int vals[2];
};

struct node n;

BEGIN
{
	n.in.a = -3;
	n.in.tag[2] = 'z';
	n.vals[1] = 7;
	n.next = (struct node *)alloca(sizeof (struct node));
	n.next->next = n.next;
	n.next->in.tag[1] = 'q';
	n.next->vals[0] = 11;
	i = 1;
	x = n.in.a;
	y = n.next->next->in.tag[i];
	z = n.vals[i];
	ok = 1 / (sizeof (struct inner) == 6);
	ok = 1 / (offsetof(struct node, next) == 8);
	ok = 1 / (sizeof (struct node) == 24);
	printf("%d %c %d %c %d %d %d\n", x, y, z, n.in.tag[2], n.in.tag[0], n.next->vals[0],
	    n.next->next->vals[1]);
}

BEGIN
{
	n.next = 0;
	y = n.next->in.tag[1];
}

BEGIN
{
	exit(0);
}
