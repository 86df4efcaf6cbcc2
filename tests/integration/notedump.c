/*
 * notedump -- print the stapsdt notes of an ELF file as libdtrace reads
 * them, with what libelf says is at each semaphore address:
 *
 *   note PROVIDER NAME pc=0x.. base=0x.. sema=0x.. nargs=N [SIZE SIGN OPERAND]...
 *   sema PROVIDER NAME symbol=0x.. section=NAME
 *   site PROVIDER NAME HEXBYTES          (the 11 bytes at pc)
 *
 * The integration tests compare this with readelf and with the provider
 * definition; it is also how a person can see what our reader sees.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dt_impl.h"

static Elf *g_elf;

static const char *section_of(uint64_t addr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(g_elf, &shstrndx) != 0)
		return "?";
	while ((scn = elf_nextscn(g_elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) != NULL && (sh.sh_flags & SHF_ALLOC) &&
		    addr >= sh.sh_addr && addr < sh.sh_addr + sh.sh_size)
			return elf_strptr(g_elf, shstrndx, sh.sh_name);
	}
	return "-";
}

/* Hex of up to len bytes of the file at link-time address addr. */
static void bytes_at(uint64_t addr, char *out, size_t len)
{
	Elf_Scn *scn = NULL;

	strcpy(out, "-");
	while ((scn = elf_nextscn(g_elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr >= sh.sh_addr + sh.sh_size || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (size_t i = 0; i < len && addr - sh.sh_addr + i < d->d_size; i++)
			sprintf(out + 2 * i, "%02x",
				((unsigned char *)d->d_buf)[addr - sh.sh_addr + i]);
		return;
	}
}

static int symbol_value(const char *name, uint64_t *val)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(g_elf, scn)) != NULL) {
		Elf_Data *d;
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0 || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (gelf_getsym(d, (int)i, &s) == NULL)
				continue;
			n = elf_strptr(g_elf, sh.sh_link, s.st_name);
			if (n != NULL && strcmp(n, name) == 0) {
				*val = s.st_value;
				return 0;
			}
		}
	}
	return -1;
}

static int print_note(const dt_stapsdt_note_t *n, void *arg)
{
	char sym[256], hex[64];
	uint64_t v;

	(void)arg;
	printf("note %s %s pc=0x%llx base=0x%llx sema=0x%llx nargs=%d", n->sn_provider, n->sn_name,
	       (unsigned long long)n->sn_pc, (unsigned long long)n->sn_base,
	       (unsigned long long)n->sn_sema, n->sn_nargs);
	for (int i = 0; i < n->sn_nargs; i++) /* -1: unparsed */
		printf(" %d %c %s", n->sn_args[i].sa_size, n->sn_args[i].sa_signed ? 's' : 'u',
		       n->sn_args[i].sa_operand);
	printf("\n");
	snprintf(sym, sizeof(sym), "%s_%s_semaphore", n->sn_provider, n->sn_name);
	if (symbol_value(sym, &v) == 0)
		printf("sema %s %s symbol=0x%llx section=%s\n", n->sn_provider, n->sn_name,
		       (unsigned long long)v, section_of(n->sn_sema));
	bytes_at(n->sn_pc, hex, 11);
	printf("site %s %s %s\n", n->sn_provider, n->sn_name, hex);
	return 0;
}

int main(int argc, char **argv)
{
	char err[256];
	int fd, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: notedump ELF-FILE\n");
		return 2;
	}
	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(argv[1], O_RDONLY)) < 0) {
		perror(argv[1]);
		return 1;
	}
	g_elf = elf_begin(fd, ELF_C_READ, NULL);
	if (g_elf == NULL || elf_kind(g_elf) != ELF_K_ELF) {
		fprintf(stderr, "%s: not an ELF file\n", argv[1]);
		return 1;
	}
	rc = dt_stapsdt_iter(g_elf, print_note, NULL, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", argv[1], err);
	elf_end(g_elf);
	close(fd);
	return rc != 0;
}
