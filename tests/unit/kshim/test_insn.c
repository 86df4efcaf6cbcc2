/*
 * test_insn.c -- the x86-64 length decoder (kernel-shim/ks_insn_x86_64.c)
 * against objdump: every FUNC symbol of libc.so.6 and ld.so (.symtab and
 * .dynsym) is decoded from its first byte, and each instruction must start
 * where objdump -d starts one, with as many instructions as objdump sees
 * up to the next symbol.  A decoder with a planted error must be caught
 * (the comparison can fail), and ks_uprobe_ok() is checked on encodings
 * whose fate in the kernel is known.
 *
 * Usage: test_insn [ELF...] (default: the system's libc and ld.so).
 * Exit 77 (skipped) when objdump is missing.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ks.h"

static int failures;

#define CHECK(cond, ...)                                                \
	do {                                                            \
		if (!(cond)) {                                          \
			failures++;                                     \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                   \
			fputc('\n', stderr);                            \
		}                                                       \
	} while (0)

typedef int len_f(const uint8_t *, size_t);

typedef struct sym {
	uint64_t addr, size;
	char name[64];
} sym_t;

typedef struct elf_image {
	Elf *elf;
	int fd;
	sym_t *syms;
	size_t nsyms;
	uint64_t *starts; /* every symbol's address, sorted, unique: where objdump resyncs */
	size_t nstarts;
	uint64_t *bounds; /* objdump's instruction starts, sorted */
	uint8_t *bad;	  /* objdump said (bad) there */
	size_t nbounds;
} elf_image_t;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void add_u64(uint64_t **v, size_t *n, uint64_t x)
{
	if ((*n & (*n - 1)) == 0 || *n == 0) {
		*v = realloc(*v, (*n ? *n * 2 : 16) * sizeof(**v));
		if (*v == NULL)
			abort();
	}
	(*v)[(*n)++] = x;
}

static void load_syms(elf_image_t *im)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d != NULL && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *nm;

			if (gelf_getsym(d, (int)i, &s) == NULL || s.st_shndx == SHN_UNDEF ||
			    s.st_value == 0)
				continue;
			if (GELF_ST_TYPE(s.st_info) != STT_NOTYPE)
				add_u64(&im->starts, &im->nstarts, s.st_value);
			if ((GELF_ST_TYPE(s.st_info) != STT_FUNC &&
			     GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC) ||
			    s.st_size == 0)
				continue;
			if (im->nsyms == cap) {
				cap = cap ? cap * 2 : 256;
				im->syms = realloc(im->syms, cap * sizeof(*im->syms));
				if (im->syms == NULL)
					abort();
			}
			nm = elf_strptr(im->elf, sh.sh_link, s.st_name);
			im->syms[im->nsyms].addr = s.st_value;
			im->syms[im->nsyms].size = s.st_size;
			snprintf(im->syms[im->nsyms].name, sizeof(im->syms[0].name), "%s",
				 nm ? nm : "?");
			im->nsyms++;
		}
	}
	qsort(im->starts, im->nstarts, sizeof(uint64_t), cmp_u64);
}

/* objdump -d's instruction starts, and where it found no instruction. */
static int load_objdump(elf_image_t *im, const char *path)
{
	char cmd[4200], line[1024];
	FILE *fp;
	size_t cap = 0;

	snprintf(cmd, sizeof(cmd), "objdump -d --insn-width=15 '%s'", path);
	fp = popen(cmd, "r");
	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *p = line, *end, *tab2;
		uint64_t a;

		while (*p == ' ')
			p++;
		a = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		tab2 = strchr(end + 2, '\t');
		if (tab2 == NULL)
			continue; /* a continuation of the previous instruction's bytes */
		if (im->nbounds == cap) {
			cap = cap ? cap * 2 : 4096;
			im->bounds = realloc(im->bounds, cap * sizeof(*im->bounds));
			im->bad = realloc(im->bad, cap);
			if (im->bounds == NULL || im->bad == NULL)
				abort();
		}
		im->bounds[im->nbounds] = a;
		im->bad[im->nbounds] = strstr(tab2, "(bad)") != NULL;
		im->nbounds++;
		/*
		 * objdump shows fwait and the x87 instruction after it as one
		 * (fstcw = 9b d9 /7); the processor, the kernel's decoder
		 * and ours see two.
		 */
		if (strncmp(end + 2, "9b ", 3) == 0 && end[5] != ' ') {
			if (im->nbounds == cap) {
				cap *= 2;
				im->bounds = realloc(im->bounds, cap * sizeof(*im->bounds));
				im->bad = realloc(im->bad, cap);
				if (im->bounds == NULL || im->bad == NULL)
					abort();
			}
			im->bounds[im->nbounds] = a + 1;
			im->bad[im->nbounds++] = 0;
		}
	}
	if (pclose(fp) != 0)
		return -1;
	return 0;
}

/* The index of the first bound >= a. */
static size_t lower(const elf_image_t *im, uint64_t a)
{
	size_t lo = 0, hi = im->nbounds;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (im->bounds[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t next_start(const elf_image_t *im, uint64_t a)
{
	size_t lo = 0, hi = im->nstarts;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (im->starts[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < im->nstarts ? im->starts[lo] : UINT64_MAX;
}

/* The bytes at address a, through the section that holds it (NULL if none). */
static const uint8_t *bytes_at(const elf_image_t *im, uint64_t a, size_t *avail)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || a < sh.sh_addr ||
		    a >= sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (d == NULL || d->d_buf == NULL)
			return NULL;
		*avail = sh.sh_size - (a - sh.sh_addr);
		return (const uint8_t *)d->d_buf + (a - sh.sh_addr);
	}
	return NULL;
}

/*
 * Decode every function with len and compare with objdump: the number of
 * disagreements (each printed, up to a few, when verbose).
 */
static size_t compare(const elf_image_t *im, len_f *len, bool verbose, size_t *ninsns,
		      size_t *nfuncs)
{
	size_t bad = 0, shown = 0;
	uint64_t prev = UINT64_MAX;

	*ninsns = *nfuncs = 0;
	for (size_t k = 0; k < im->nsyms; k++) {
		const sym_t *s = &im->syms[k];
		uint64_t stop = s->addr + s->size, a = s->addr, ns = next_start(im, s->addr);
		const uint8_t *p;
		size_t avail, ours = 0, first;

		if (s->addr == prev)
			continue; /* an alias: the same bytes */
		prev = s->addr;
		if (ns < stop)
			stop = ns;
		p = bytes_at(im, s->addr, &avail);
		if (p == NULL)
			continue;
		(*nfuncs)++;
		first = lower(im, s->addr);
		while (a < stop) {
			size_t at = lower(im, a);
			int n = len(p + (a - s->addr), avail - (a - s->addr));

			if (at >= im->nbounds || im->bounds[at] != a) {
				if (verbose && shown++ < 10)
					fprintf(stderr,
						"%s+%#" PRIx64 " (%#" PRIx64
						"): objdump has no instruction here\n",
						s->name, a - s->addr, a);
				bad++;
				break;
			}
			if (n < 0) {
				if (!im->bad[at]) {
					if (verbose && shown++ < 10)
						fprintf(stderr,
							"%s+%#" PRIx64
							": objdump decodes what we do not\n",
							s->name, a - s->addr);
					bad++;
				}
				break;
			}
			if (im->bad[at]) {
				if (verbose && shown++ < 10)
					fprintf(stderr,
						"%s+%#" PRIx64
						": objdump says (bad), we say %d bytes\n",
						s->name, a - s->addr, n);
				bad++;
				break;
			}
			if (a + (uint64_t)n > stop)
				break; /* padding cut by the next symbol, where objdump restarts */
			ours++;
			a += (uint64_t)n;
		}
		if (a >= stop || (a < stop && lower(im, a) < im->nbounds &&
				  im->bounds[lower(im, a)] == a && !im->bad[lower(im, a)])) {
			/* as many as objdump's in [addr, a), where ours are all objdump's */
			size_t theirs = lower(im, a) - first;

			if (theirs != ours) {
				if (verbose && shown++ < 10)
					fprintf(stderr, "%s: %zu instructions, objdump %zu\n",
						s->name, ours, theirs);
				bad++;
			}
		}
		*ninsns += ours;
	}
	return bad;
}

/* The planted error: opcode 83 (group 1, imm8) one byte short. */
static int buggy_len(const uint8_t *p, size_t n)
{
	ks_insn_t in;
	int len = ks_insn_decode(p, n, &in);

	if (len > 0 && in.in_map == 0 && !in.in_vex && in.in_op == 0x83)
		return len - 1;
	return len;
}

static void check_file(const char *path)
{
	elf_image_t im = { 0 };
	size_t ninsns, nfuncs, bad;

	im.fd = open(path, O_RDONLY);
	if (im.fd < 0) {
		fprintf(stderr, "%s: cannot open\n", path);
		failures++;
		return;
	}
	im.elf = elf_begin(im.fd, ELF_C_READ, NULL);
	CHECK(im.elf != NULL, "%s: not ELF", path);
	if (im.elf == NULL)
		return;
	load_syms(&im);
	CHECK(load_objdump(&im, path) == 0, "%s: objdump failed", path);
	CHECK(im.nsyms > 10, "%s: %zu functions", path, im.nsyms);

	bad = compare(&im, ks_insn_len, true, &ninsns, &nfuncs);
	printf("%s: %zu functions, %zu instructions, %zu mismatches\n", path, nfuncs, ninsns, bad);
	CHECK(bad == 0, "%s: %zu functions disagree with objdump", path, bad);
	CHECK(ninsns > 1000, "%s: only %zu instructions decoded", path, ninsns);

	bad = compare(&im, buggy_len, false, &ninsns, &nfuncs);
	printf("%s: with a planted error, %zu mismatches\n", path, bad);
	CHECK(bad > 0, "%s: the comparison missed a planted error", path);

	elf_end(im.elf);
	close(im.fd);
	free(im.syms);
	free(im.starts);
	free(im.bounds);
	free(im.bad);
}

static void check_one(const char *hex, int len, bool ok)
{
	uint8_t b[16];
	size_t n = 0;
	ks_insn_t in;
	int got;

	for (const char *p = hex; *p != '\0' && n < sizeof(b);) {
		unsigned v;

		if (*p == ' ') {
			p++;
			continue;
		}
		sscanf(p, "%2x", &v);
		b[n++] = (uint8_t)v;
		p += 2;
	}
	got = ks_insn_decode(b, n, &in);
	CHECK(got == len, "%s: length %d, expected %d", hex, got, len);
	if (got > 0)
		CHECK(ks_uprobe_ok(&in) == ok, "%s: uprobe_ok %d, expected %d", hex, !ok, ok);
}

int main(int argc, char **argv)
{
	static const char *const dflt[] = { "/lib/x86_64-linux-gnu/libc.so.6",
					    "/lib64/ld-linux-x86-64.so.2" };

	if (system("objdump --version >/dev/null 2>&1") != 0) {
		printf("objdump not found: skipped\n");
		return 77;
	}
	elf_version(EV_CURRENT);

	/* the kernel's verdicts (arch/x86/kernel/uprobes.c) */
	check_one("55", 1, true);			   /* push %rbp */
	check_one("f3 0f 1e fa", 4, true);		   /* endbr64 */
	check_one("f0 ff 0f", 3, false);		   /* lock decl (%rdi): pthread_spin_lock */
	check_one("2e 0f 1f 84 00 00 00 00 00", 9, false); /* cs nopw */
	check_one("3e ff e0", 3, false);		   /* notrack jmp *%rax */
	check_one("cc", 1, false);			   /* int3 */
	check_one("0f 05", 2, true);			   /* syscall: 0f is good */
	check_one("c5 fe 6f 06", 4, false);		   /* vmovdqu: the VEX opcode 6f is outs */
	check_one("c5 fd 74 0f", 4, true);		   /* vpcmpeqb */
	check_one("62 e1 fe 28 6f 06", 6, false);	   /* EVEX vmovdqu64 */
	check_one("66 e9 00 00", 4, false);		   /* jmpw */
	check_one("e9 00 00 00 00", 5, true);
	check_one("48 b8 01 02 03 04 05 06 07 08", 10, true); /* movabs */
	check_one("8e d0", 2, false);			      /* mov %eax,%ss */
	check_one("c3", 1, true);
	check_one("f3 c3", 2, true); /* repz ret */
	check_one("c2 08 00", 3, true);
	check_one("06", -1, false);		 /* push %es: not in 64-bit mode */
	check_one("48 8b 05", -1, false);	 /* cut short */
	check_one("c4 e3 79 0f c1 08", 6, true); /* vpalignr: map 3, imm8 */
	check_one("f6 c1 01", 3, true);		 /* test $1,%cl */
	check_one("f6 d1", 2, true);		 /* not %cl */

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			check_file(argv[i]);
	} else {
		for (size_t i = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
			check_file(dflt[i]);
	}
	if (failures != 0) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	return 0;
}
