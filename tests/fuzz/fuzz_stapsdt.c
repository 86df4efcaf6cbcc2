/*
 * libFuzzer target: the stapsdt note parser, on the raw bytes of a note
 * descriptor and on whole ELF images read from memory.
 */
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(const dt_stapsdt_note_t *n, void *arg)
{
	/* touch every string the parser handed out */
	*(size_t *)arg += strlen(n->sn_provider) + strlen(n->sn_name) + strlen(n->sn_argspec);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dt_stapsdt_note_t n;
	size_t total = 0;
	char err[128];
	char *copy;
	Elf *elf;

	if (dt_stapsdt_parse(data, size, &n) == 0)
		count(&n, &total);
	if (elf_version(EV_CURRENT) == EV_NONE || (copy = malloc(size + 1)) == NULL)
		return 0;
	memcpy(copy, data, size);
	elf = elf_memory(copy, size);
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF)
		dt_stapsdt_iter(elf, count, &total, err, sizeof(err));
	elf_end(elf);
	free(copy);
	return 0;
}
