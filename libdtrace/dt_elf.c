/*
 * dt_elf.c -- function symbols and file offsets of ELF files, for the
 * user-space providers (dt_elf.h).
 */
#include <stdlib.h>
#include <string.h>

#include "dt_elf.h"
#include "dt_impl.h"

static int sym_cmp(const void *a, const void *b)
{
	const dt_elfsym_t *x = a, *y = b;

	return x->es_addr < y->es_addr ? -1 : x->es_addr > y->es_addr;
}

int dt_elf_syms(Elf *elf, bool ifunc, dt_elfsym_t **syms, size_t *np)
{
	Elf_Scn *scn = NULL, *best = NULL;
	GElf_Shdr sh, bsh = { 0 };
	size_t cap = 0, n = 0;

	*syms = NULL;
	*np = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && best == NULL)) {
			best = scn;
			bsh = sh;
		}
	}
	if (best != NULL) {
		Elf_Data *data = elf_getdata(best, NULL);
		size_t ns = bsh.sh_entsize ? bsh.sh_size / bsh.sh_entsize : 0;

		for (size_t i = 0; data != NULL && i < ns; i++) {
			GElf_Sym s;
			const char *name;
			int type;

			if (gelf_getsym(data, (int)i, &s) == NULL)
				continue;
			type = GELF_ST_TYPE(s.st_info);
			if ((type != STT_FUNC && !(ifunc && type == STT_GNU_IFUNC)) ||
			    s.st_shndx == SHN_UNDEF ||
			    (name = elf_strptr(elf, bsh.sh_link, s.st_name)) == NULL ||
			    name[0] == '\0')
				continue;
			if (dt_grow(syms, &cap, n, sizeof(dt_elfsym_t), 256) != 0) {
				free(*syms);
				*syms = NULL;
				return -1;
			}
			(*syms)[n++] =
			    (dt_elfsym_t){ s.st_value, s.st_size, name, type == STT_GNU_IFUNC };
		}
	}
	if (n > 0)
		qsort(*syms, n, sizeof(dt_elfsym_t), sym_cmp);
	*np = n;
	return 0;
}

const dt_elfsym_t *dt_elf_sym_find(const dt_elfsym_t *syms, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* lo: the first symbol that starts after pc */
		size_t mid = (lo + hi) / 2;

		if (syms[mid].es_addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* aliases and nested symbols start together: look a few back */
	for (size_t i = lo, k = 0; i-- > 0 && k < 16; k++) {
		const dt_elfsym_t *s = &syms[i];

		if (pc - s->es_addr < (s->es_size ? s->es_size : 1))
			return s;
	}
	return NULL;
}

const char *dt_elf_sym_at(const dt_elfsym_t *syms, size_t n, uint64_t pc)
{
	const dt_elfsym_t *s = dt_elf_sym_find(syms, n, pc);

	return s != NULL ? s->es_name : "";
}

int dt_elf_loads(Elf *elf, GElf_Phdr **load, size_t *nload)
{
	size_t n;

	*load = NULL;
	*nload = 0;
	if (elf_getphdrnum(elf, &n) != 0 || n == 0)
		return 0;
	if ((*load = calloc(n, sizeof(GElf_Phdr))) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) != NULL && ph.p_type == PT_LOAD)
			(*load)[(*nload)++] = ph;
	}
	return 0;
}

uint64_t dt_elf_file_offset(const GElf_Phdr *load, size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++) {
		const GElf_Phdr *ph = &load[i];

		if (addr >= ph->p_vaddr && addr - ph->p_vaddr < ph->p_filesz)
			return addr - ph->p_vaddr + ph->p_offset;
	}
	return 0;
}

/* The section named name, its header in *sh: NULL if there is none. */
static Elf_Scn *section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *s;

		if (gelf_getshdr(scn, sh) != NULL &&
		    (s = elf_strptr(elf, shstrndx, sh->sh_name)) != NULL && strcmp(s, name) == 0)
			return scn;
	}
	return NULL;
}

uint64_t dt_elf_section_addr(Elf *elf, const char *name)
{
	GElf_Shdr sh;

	return section(elf, name, &sh) != NULL ? sh.sh_addr : 0;
}

bool dt_elf_has_section(Elf *elf, const char *name)
{
	GElf_Shdr sh;

	return section(elf, name, &sh) != NULL;
}
