/*
 * bpf2c -- BPF objects built by clang -target bpf -ffunction-sections
 * (the .c files of libdtrace/bpf/) into C that libdtrace compiles in: each function
 * as an array of instructions with its relocations, in terms libdtrace
 * links (dt_program.h, dt_bpf_func_t).  Run at build time only.
 *
 *   bpf2c OUT.c OUT.h OBJECT...
 *
 * OUT.h defines DT_BPF_FUNCS(X), X(NAME) for each function in order (NAME
 * its C name upper-cased, without a leading dt_): dt_program.h makes
 * DT_SUBR_NAME of it.  OUT.c defines dt_bpf_funcs[], indexed alike.
 *
 * Relocations understood: a call of a function of the same object
 * (R_BPF_64_32), a function's address for bpf_loop() (R_BPF_64_64 on
 * ld_imm64, made BPF_PSEUDO_FUNC), the address of dt_strsize_ (R_BPF_64_64:
 * the strsize constant), and the address of another undefined symbol
 * dt_NAME (R_BPF_64_64 on ld_imm64: the map DT_MAP_NAME of dt_program.h,
 * which must exist there, or OUT.c does not compile).  Anything else
 * (data, another symbol) fails the build with a message: the bodies have
 * no globals.
 */
#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif

#define MAXFN 128

#define MAXOBJ 8

typedef struct obj {
	const char *path;
	int fd;
	Elf *e;
	Elf_Data *symdata;
	size_t symstrndx;
} obj_t;

typedef struct fn {
	char name[64];
	int obj;    /* its object */
	size_t scn; /* its section's index there */
	const struct bpf_insn *insns;
	size_t len;
} fn_t;

static fn_t fns[MAXFN];
static int nfns;
static obj_t objs[MAXOBJ];
static const char *obj; /* the object read, for messages */

static _Noreturn void die(const char *msg, const char *arg)
{
	fprintf(stderr, "bpf2c: %s: %s%s%s\n", obj, msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static int fn_of_scn(int o, size_t scn)
{
	for (int i = 0; i < nfns; i++)
		if (fns[i].obj == o && fns[i].scn == scn)
			return i;
	return -1;
}

/* [DT_SUBR_] and the name upper-cased, without a leading dt_ */
static void put_id(FILE *f, const char *name, const char *prefix)
{
	if (strncmp(name, "dt_", 3) == 0)
		name += 3;
	fputs(prefix, f);
	for (; *name; name++)
		fputc(toupper((unsigned char)*name), f);
}

/* Object o's functions into fns[]: each a FUNC symbol at 0 in its own section. */
static void read_obj(int o)
{
	obj_t *ob = &objs[o];
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	obj = ob->path;
	if ((ob->fd = open(ob->path, O_RDONLY)) < 0 ||
	    (ob->e = elf_begin(ob->fd, ELF_C_READ, NULL)) == NULL ||
	    elf_getshdrstrndx(ob->e, &shstrndx) != 0)
		die("cannot read the object", NULL);
	while ((scn = elf_nextscn(ob->e, scn)) != NULL) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB) {
			ob->symdata = elf_getdata(scn, NULL);
			ob->symstrndx = sh.sh_link;
		}
	}
	if (ob->symdata == NULL)
		die("no symbol table", NULL);
	for (int i = 0;; i++) {
		GElf_Sym sym;
		Elf_Data *d;
		const char *name;

		if (gelf_getsym(ob->symdata, i, &sym) == NULL)
			break;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		name = elf_strptr(ob->e, ob->symstrndx, sym.st_name);
		if (sym.st_value != 0)
			die("a function shares a section (build with -ffunction-sections)", name);
		if (nfns == MAXFN || strlen(name) >= sizeof(fns[0].name))
			die("too many functions, or a name too long", name);
		for (int k = 0; k < nfns; k++)
			if (strcmp(fns[k].name, name) == 0)
				die("two functions of one name (static ones too)", name);
		scn = elf_getscn(ob->e, sym.st_shndx);
		if (scn == NULL || (d = elf_getdata(scn, NULL)) == NULL || d->d_size % 8 != 0)
			die("cannot read a function's section", name);
		snprintf(fns[nfns].name, sizeof(fns[0].name), "%s", name);
		fns[nfns].obj = o;
		fns[nfns].scn = sym.st_shndx;
		fns[nfns].insns = d->d_buf;
		fns[nfns].len = d->d_size / 8;
		nfns++;
	}
}

/* Function i's relocations into c, written into in (a copy of its instructions). */
static int put_rels(FILE *c, int i, struct bpf_insn *in)
{
	const obj_t *ob = &objs[fns[i].obj];
	Elf_Scn *scn = NULL;
	int nrel = 0;

	obj = ob->path;
	while ((scn = elf_nextscn(ob->e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_REL ||
		    sh.sh_info != fns[i].scn || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (size_t r = 0; r < sh.sh_size / sh.sh_entsize; r++) {
			GElf_Rel rel;
			GElf_Sym sym;
			size_t at;
			const char *sname;
			int to = -1;
			bool ldimm;

			if (gelf_getrel(d, (int)r, &rel) == NULL ||
			    gelf_getsym(ob->symdata, (int)GELF_R_SYM(rel.r_info), &sym) == NULL)
				die("cannot read a relocation", fns[i].name);
			at = rel.r_offset / 8;
			sname = elf_strptr(ob->e, ob->symstrndx, sym.st_name);
			if (at >= fns[i].len)
				die("a relocation outside its function", fns[i].name);
			ldimm = GELF_R_TYPE(rel.r_info) == R_BPF_64_64 &&
				in[at].code == (BPF_LD | BPF_DW | BPF_IMM);
			if (GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
			    GELF_ST_TYPE(sym.st_info) == STT_FUNC)
				to = fn_of_scn(fns[i].obj, sym.st_shndx);
			nrel++;
			if (GELF_R_TYPE(rel.r_info) == R_BPF_64_32 &&
			    in[at].code == (BPF_JMP | BPF_CALL) && to >= 0) {
				/* the callee at its section's start */
				if (GELF_ST_TYPE(sym.st_info) == STT_SECTION && in[at].imm != -1)
					die("a call into the middle of a function", fns[i].name);
				in[at].src_reg = BPF_PSEUDO_CALL;
				in[at].imm = 0;
				fprintf(c, "\t{ %zu, DT_BPF_R_CALL, ", at);
			} else if (ldimm && to >= 0) {
				if (in[at].imm != 0)
					die("an address inside a function", fns[i].name);
				in[at].src_reg = BPF_PSEUDO_FUNC;
				fprintf(c, "\t{ %zu, DT_BPF_R_FUNC, ", at);
			} else if (ldimm && strcmp(sname, "dt_strsize_") == 0) {
				fprintf(c, "\t{ %zu, DT_BPF_R_STRSIZE, 0 },\n", at);
				continue;
			} else if (ldimm && sym.st_shndx == SHN_UNDEF &&
				   strncmp(sname, "dt_", 3) == 0 && in[at].imm == 0) {
				/* a map by name: its descriptor, filled in when linking */
				fprintf(c, "\t{ %zu, DT_BPF_R_MAP, ", at);
				put_id(c, sname, "DT_MAP_");
				fprintf(c, " },\n");
				continue;
			} else {
				die("a relocation bpf2c does not know (globals are not allowed; "
				    "a map is an undefined dt_NAME)",
				    sname);
			}
			put_id(c, fns[to].name, "DT_SUBR_");
			fprintf(c, " },\n");
		}
	}
	return nrel;
}

int main(int argc, char **argv)
{
	int nobjs = argc - 3;
	FILE *c, *h;

	if (argc < 4 || nobjs > MAXOBJ) {
		fprintf(stderr, "usage: bpf2c OUT.c OUT.h OBJECT...\n");
		return 2;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("no libelf", NULL);
	for (int o = 0; o < nobjs; o++) {
		objs[o].path = argv[3 + o];
		read_obj(o);
	}
	obj = argv[3];
	if (nfns == 0)
		die("no functions", NULL);
	if ((c = fopen(argv[1], "w")) == NULL || (h = fopen(argv[2], "w")) == NULL)
		die("cannot write the output", NULL);

	fprintf(h, "/* generated by bpf2c: do not edit */\n");
	fprintf(h, "#define DT_BPF_FUNCS(X)");
	for (int i = 0; i < nfns; i++) {
		fprintf(h, " X(");
		put_id(h, fns[i].name, "");
		fprintf(h, ")");
	}
	fprintf(h, "\n");

	fprintf(c, "/* generated by bpf2c: do not edit */\n#include \"dt_program.h\"\n");
	for (int i = 0; i < nfns; i++) {
		struct bpf_insn *in = calloc(fns[i].len, sizeof(*in));

		if (in == NULL)
			die("out of memory", NULL);
		memcpy(in, fns[i].insns, fns[i].len * sizeof(*in));
		fprintf(c, "\nstatic const dt_bpf_rel_t rel_%s[] = {\n", fns[i].name);
		if (put_rels(c, i, in) == 0)
			fprintf(c, "\t{ 0, DT_BPF_R_NONE, 0 },\n");
		fprintf(c, "};\n\nstatic const struct bpf_insn insns_%s[] = {\n", fns[i].name);
		for (size_t k = 0; k < fns[i].len; k++)
			fprintf(c, "\t{ 0x%02x, %u, %u, %d, %d },\n", in[k].code, in[k].dst_reg,
				in[k].src_reg, in[k].off, in[k].imm);
		fprintf(c, "};\n");
		free(in);
	}
	fprintf(c, "\nconst dt_bpf_func_t dt_bpf_funcs[] = {\n");
	for (int i = 0; i < nfns; i++) {
		fprintf(c, "\t[");
		put_id(c, fns[i].name, "DT_SUBR_");
		fprintf(c,
			" - DT_SUBR_BPF] = { \"%s\", insns_%s, sizeof(insns_%s) / "
			"sizeof(insns_%s[0]), rel_%s, sizeof(rel_%s) / sizeof(rel_%s[0]) },\n",
			fns[i].name, fns[i].name, fns[i].name, fns[i].name, fns[i].name,
			fns[i].name, fns[i].name);
	}
	fprintf(c, "};\n");
	if (fclose(c) != 0 || fclose(h) != 0)
		die("cannot write the output", NULL);
	for (int o = 0; o < nobjs; o++) {
		elf_end(objs[o].e);
		close(objs[o].fd);
	}
	return 0;
}
