/* A pointer to an array, (*p)[N]: 8 bytes, and what it points to is the whole array. */
struct grid {
	int (*rows)[4];
	int cells[2][4];
};

int (*pa)[4];
int *(*pb)[2];
char (*(*pc)[3])[5];

BEGIN
{
	ok = 1 / (sizeof (pa) == 8);
	ok = 1 / (sizeof (*pa) == 16);
	ok = 1 / (sizeof ((*pa)[1]) == 4);
	ok = 1 / (sizeof (*pb) == 16);
	ok = 1 / (sizeof (*pc) == 24);
	ok = 1 / (sizeof (**pc) == 8);
	ok = 1 / (sizeof (***pc) == 5);
	ok = 1 / (sizeof (int (*)[4]) == 8);
	ok = 1 / (sizeof (struct grid) == 40);
	ok = 1 / (offsetof(struct grid, cells) == 8);
	pa = (int (*)[4])0;
	x = (*(int (*)[4])0)[3];
	ok = 1 / (pa + 1 == (int (*)[4])16);
}
