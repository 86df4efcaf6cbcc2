/*
 * dt_elf.h -- what the user-space providers read from an ELF file: its
 * function symbols, and where a link-time address is in the file (the
 * offset a uprobe is placed at).  USDT (dt_prov_usdt.c) and pid
 * (dt_prov_pid.c) share them.
 */
#ifndef DT_ELF_H
#define DT_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dt_elfsym {
	uint64_t es_addr, es_size;
	const char *es_name; /* the file's string table: valid while its Elf is */
	bool es_ifunc;	     /* STT_GNU_IFUNC: the address is a resolver's */
} dt_elfsym_t;

/*
 * The function symbols of the file (named, defined): .symtab if present,
 * else .dynsym; STT_GNU_IFUNC ones too when ifunc is set.  Sorted by
 * address into a malloc'd *syms (free it).  0, or -1 out of memory.
 */
int dt_elf_syms(Elf *, bool ifunc, dt_elfsym_t **syms, size_t *n);

/*
 * The function symbols of a file as its names are found for stacks
 * (dt_sym.c): its .symtab; else a separate debug file's (by build-id, then
 * .gnu_debuglink, as gdb looks); else .dynsym and MiniDebugInfo's
 * (.gnu_debugdata).  path is the file's, for .gnu_debuglink's directory.
 * A .symtab's version suffixes are dropped ("realpath@@GLIBC_2.3" is
 * realpath), as .dynsym's names have none.  Names may point into the debug
 * file or a copy: *src holds them until dt_elf_debug_free(src).  Sorted by
 * address into a malloc'd *syms (free it).  0, or -1 out of memory.
 */
typedef struct dt_elfdebug {
	int ed_fd;
	Elf *ed_elf;
	void *ed_image;
	char *ed_names; /* the names without their version suffix */
} dt_elfdebug_t;
int dt_elf_syms_debug(Elf *, const char *path, bool ifunc, dt_elfsym_t **syms, size_t *n,
		      dt_elfdebug_t *src);
void dt_elf_debug_free(dt_elfdebug_t *src);

/* The symbol that holds pc, or NULL; aliases: one of them. */
const dt_elfsym_t *dt_elf_sym_find(const dt_elfsym_t *syms, size_t n, uint64_t pc);
/* The name of the symbol that holds pc ("" if none); aliases: one of them. */
const char *dt_elf_sym_at(const dt_elfsym_t *syms, size_t n, uint64_t pc);

/* The file's PT_LOAD headers, malloc'd into *load (free it): 0, or -1 out of memory. */
int dt_elf_loads(Elf *, GElf_Phdr **load, size_t *n);
/* The section named name, its header in *sh: NULL if there is none (or no data: NOBITS). */
Elf_Scn *dt_elf_section(Elf *, const char *name, GElf_Shdr *sh);

/* The file offset of a link-time address, through the PT_LOAD headers; 0 if none holds it. */
uint64_t dt_elf_file_offset(const GElf_Phdr *load, size_t n, uint64_t addr);

/* The address of the section named name, or 0. */
uint64_t dt_elf_section_addr(Elf *, const char *name);

/* Has the file a section named name?  Reads the section headers and their names only. */
bool dt_elf_has_section(Elf *, const char *name);

#endif /* DT_ELF_H */
