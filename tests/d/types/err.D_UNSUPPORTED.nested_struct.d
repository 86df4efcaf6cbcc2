/* Structs can contain structs, arrays and pointers to their own type. */
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
	x = n.in.a;
	y = n.next->next->in.tag[1];
	z = n.vals[1];
	ok = 1 / (sizeof (struct inner) == 6);
	ok = 1 / (offsetof(struct node, next) == 8);
	ok = 1 / (sizeof (struct node) == 24);
}
