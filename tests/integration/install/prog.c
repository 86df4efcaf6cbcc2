/*
 * prog.c -- static probes from a provider built with an installed dtrace
 * (-h for the header, -G for the object): fires instprov:::tick three
 * times, then instprov:::done when a tracer has it enabled.
 */
#include <stdio.h>

#include "instprov.h"

int main(void)
{
	static const char *const words[] = { "alpha", "beta", "gamma" };

	char word[16];

	for (int i = 0; i < 3; i++) {
		/* a copy on the stack: a page of .rodata not touched yet cannot be read */
		snprintf(word, sizeof(word), "%s", words[i]);
		INSTPROV_TICK(i, word);
	}
	if (INSTPROV_DONE_ENABLED())
		INSTPROV_DONE(3);
	fprintf(stderr, "prog: done\n");
	return 0;
}
