/*
 * libFuzzer target: the object reader of dtrace -G (dg_link.c check_object)
 * on whole ELF images.  What dt_elf_check accepts is then read as libelf
 * reads it for -G and the USDT provider: every section header, its data,
 * its name, every symbol and relocation, and the stapsdt notes; nothing of
 * it may fault (the sanitizers judge).
 */
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(const dt_stapsdt_note_t *n, void *arg)
{
	*(size_t *)arg += strlen(n->sn_provider) + strlen(n->sn_name) + strlen(n->sn_argspec);
	return 0;
}

static void walk(Elf *elf, size_t *total)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;
		Elf_Data *d;
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if ((name = elf_strptr(elf, shstrndx, sh.sh_name)) != NULL)
			*total += strlen(name);
		/* bounded by the data libelf gives: a NOBITS section's size is anything */
		if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM &&
		     sh.sh_type != SHT_RELA) ||
		    (d = elf_getdata(scn, NULL)) == NULL || sh.sh_entsize == 0)
			continue;
		for (size_t i = 0; i < d->d_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			GElf_Rela r;

			if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
				if (gelf_getsym(d, (int)i, &s) != NULL &&
				    (name = elf_strptr(elf, sh.sh_link, s.st_name)) != NULL)
					*total += strlen(name);
			} else if (sh.sh_type == SHT_RELA) {
				if (gelf_getrela(d, (int)i, &r) != NULL)
					*total += (size_t)GELF_R_SYM(r.r_info);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t total = 0;
	char err[256];
	char *copy;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE || dt_elf_check(data, size, err, sizeof(err)) != 0)
		return 0;
	if ((copy = malloc(size + 1)) == NULL)
		return 0;
	memcpy(copy, data, size);
	if ((elf = elf_memory(copy, size)) != NULL && elf_kind(elf) == ELF_K_ELF) {
		walk(elf, &total);
		dt_stapsdt_iter(elf, count, &total, err, sizeof(err));
	}
	elf_end(elf);
	free(copy);
	return 0;
}
