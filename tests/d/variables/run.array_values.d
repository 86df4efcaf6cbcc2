/*
 * A char array a variable holds is a string where one is wanted (printf
 * %s, =, comparison, string subroutines): its bytes to the first NUL, all
 * of them when it has none; an absent dynamic one is "".  trace() of an
 * array a variable holds records its bytes, printed as illumos prints a
 * record by its size alone: 8 bytes as an integer, 6 printable ones as a
 * string, others as a dump.
 */
/* @args: -q */
struct pt {
	int x;
	int y;
};
struct rec {
	int id;
	char name[8];
	char tag[3];
};

struct pt pts[3];
self struct pt spt[2];
struct rec r;
self struct rec sr;
struct rec tab[int];
char nm[6];
int iv[4];
this char lb[4];

BEGIN
{
	i = 1;
	pts[i].x = 5;
	pts[i].y = 6;
	self->spt[1].y = 2;
	nm[0] = 'o';
	nm[1] = 'k';
	iv[2] = 0x7f;
	trace(pts[i]);
	trace(self->spt[i]);
	trace(self->spt[0]);
	trace(nm);
	trace(iv);
	printf("\n");
	r.tag[0] = 'x';
	r.tag[1] = 'y';
	r.tag[2] = 'z';
	r.id = 0x41414141;
	tab[3].name[0] = 'T';
	this->lb[0] = 'L';
	printf("[%s] [%s] [%s] [%s] %d\n", r.tag, self->sr.tag, tab[3].name, tab[4].name,
	    strlen(r.tag));
	printf("[%s] [%s] [%s]\n", nm, this->lb, strjoin(nm, r.tag));
	self->sr.name[1] = 'b';
	printf("[%s] %d\n", self->sr.name, self->sr.name == "");
	exit(0);
}
