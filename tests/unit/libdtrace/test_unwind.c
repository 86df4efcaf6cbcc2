/*
 * test_unwind.c -- the unwind tables (dt_unwind.c) and the mappings
 * snapshot (dt_pmap.c): libc's rows against readelf's interpretation of
 * its .eh_frame (--debug-dump=frames-interp) at every row readelf prints
 * and at 200 random PCs; python3.11's row count against the design note's
 * measure (libdw: 61,382 rows); the kinds of the .plt and __restore_rt
 * rows; the files cache; and this process's own mappings, against
 * /proc/self/maps and the dynamic linker's dl_iterate_phdr.
 * Prints the time to build each file's rows (libc, python3.11, postgres).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../check.h"
#include "dt_elf.h"
#include "dt_unwind.h"
#include "ks.h"

#define LIBC	 "/lib/x86_64-linux-gnu/libc.so.6"
#define PYTHON	 "/usr/bin/python3.11"
#define POSTGRES "/usr/lib/postgresql/15/bin/postgres"

/* This process's objects by the dynamic linker: their load bias and address ranges. */
typedef struct dso {
	uint64_t bias;
	uint64_t lo, hi; /* from the lowest PT_LOAD to the end of the highest */
} dso_t;

static dso_t dsos[64];
static int ndsos;

static int dso_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	dso_t d = { info->dlpi_addr, UINT64_MAX, 0 };

	(void)size, (void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < d.lo)
			d.lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > d.hi)
			d.hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (ndsos < 64)
		dsos[ndsos++] = d;
	return 0;
}

static const dso_t *dso_at(uint64_t addr)
{
	for (int i = 0; i < ndsos; i++)
		if (dsos[i].lo <= addr && addr < dsos[i].hi)
			return &dsos[i];
	return NULL;
}

/* readelf's rules at a row: the CFA column, rbp's and ra's ("" if not shown) */
typedef struct rrow {
	uint64_t loc;
	char cfa[24], rbp[16], ra[16];
} rrow_t;

typedef struct rfde {
	uint64_t lo, hi;
	uint64_t cie;
	size_t row0, nrows; /* in the rows array */
} rfde_t;

static rrow_t *rrows;
static size_t nrrows;
static rfde_t *rfdes;
static size_t nrfdes;
static uint64_t signal_cie = UINT64_MAX; /* the offset of the "zRS" CIE */

/* An FDE with no row of its own holds its CIE's initial rules from its start. */
typedef struct rcie {
	uint64_t off;
	size_t row;
} rcie_t;

static rcie_t cies[64];
static size_t ncies;

static void add_row(rrow_t r)
{
	rrows = realloc(rrows, (nrrows + 1) * sizeof(*rrows));
	rrows[nrrows++] = r;
}

/* Parse readelf --debug-dump=frames-interp of path: false if it cannot run. */
static bool read_readelf(const char *path)
{
	char cmd[512], line[4096], cols[32][16];
	int ncols = 0;
	bool incie = false;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "readelf --debug-dump=frames-interp %s 2>/dev/null", path);
	if ((fp = popen(cmd, "r")) == NULL)
		return false;
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long off, cie, lo, hi, loc;
		char aug[16];
		int pos;

		if (sscanf(line, "%llx %*x %*x FDE cie=%llx pc=%llx..%llx", &off, &cie, &lo, &hi) ==
		    4) {
			rfdes = realloc(rfdes, (nrfdes + 1) * sizeof(*rfdes));
			rfdes[nrfdes++] = (rfde_t){ lo, hi, cie, nrrows, 0 };
			incie = false;
			ncols = 0;
		} else if (sscanf(line, "%llx %*x %*x CIE \"%15[^\"]\"", &off, aug) == 2) {
			if (strcmp(aug, "zRS") == 0)
				signal_cie = off;
			if (ncies < 64)
				cies[ncies++] = (rcie_t){ off, nrrows };
			incie = true;
			ncols = 0;
		} else if (sscanf(line, " LOC %n", &pos) == 0 && strstr(line, "LOC") != NULL) {
			char *p = strstr(line, "LOC") + 3, *tok;

			ncols = 0;
			for (tok = strtok(p, " \n"); tok != NULL && ncols < 32;
			     tok = strtok(NULL, " \n"))
				snprintf(cols[ncols++], sizeof(cols[0]), "%s", tok);
		} else if (ncols > 0 && sscanf(line, "%16llx %n", &loc, &pos) == 1 &&
			   strlen(line) > 17 && line[16] == ' ') {
			rrow_t r = { .loc = loc };
			char *tok = strtok(line + pos, " \n");

			for (int c = 0; c < ncols && tok != NULL; c++, tok = strtok(NULL, " \n")) {
				if (tok[0] == '(') /* "r10 (r10)": a register rule's name */
					tok = strtok(NULL, " \n");
				if (tok == NULL)
					break;
				if (strcmp(cols[c], "CFA") == 0)
					snprintf(r.cfa, sizeof(r.cfa), "%s", tok);
				else if (strcmp(cols[c], "rbp") == 0)
					snprintf(r.rbp, sizeof(r.rbp), "%s", tok);
				else if (strcmp(cols[c], "ra") == 0)
					snprintf(r.ra, sizeof(r.ra), "%s", tok);
			}
			add_row(r);
			if (!incie && nrfdes > 0)
				rfdes[nrfdes - 1].nrows++;
		}
	}
	(void)pclose(fp); /* exits 1 after warnings about other sections */
	return nrfdes > 1000;
}

/* readelf's rules at pc of FDE d. */
static const rrow_t *readelf_at(const rfde_t *d, uint64_t pc)
{
	const rrow_t *r = NULL;

	if (d->nrows == 0) {
		for (size_t i = 0; i < ncies; i++)
			if (cies[i].off == d->cie)
				return &rrows[cies[i].row];
		return NULL;
	}
	for (size_t i = 0; i < d->nrows; i++)
		if (rrows[d->row0 + i].loc <= pc)
			r = &rrows[d->row0 + i];
	return r;
}

/* What our row must be, from readelf's rules: false if the row differs. */
static bool agrees(const rfde_t *d, const rrow_t *rr, const dt_unw_row_t *row, uint64_t plt,
		   uint64_t pltsize)
{
	int want = DT_UNW_END, off = 0, rbpkind = DT_UNW_SAME, rbpoff = 0;
	char reg[8];

	if (row == NULL)
		return false;
	if (d->cie == signal_cie) {
		want = DT_UNW_SIGNAL;
	} else if (strcmp(rr->ra, "c-8") != 0) {
		want = DT_UNW_END;
	} else if (sscanf(rr->cfa, "%3s%d", reg, &off) == 2 && strcmp(reg, "rsp") == 0) {
		want = DT_UNW_RSP;
	} else if (sscanf(rr->cfa, "%3s%d", reg, &off) == 2 && strcmp(reg, "rbp") == 0) {
		want = DT_UNW_RBP;
	} else if (strcmp(rr->cfa, "exp") == 0 && d->lo >= plt && d->hi <= plt + pltsize) {
		want = DT_UNW_PLT1;
	}
	if (want == DT_UNW_RSP || want == DT_UNW_RBP) {
		if (sscanf(rr->rbp, "c%d", &rbpoff) == 1)
			rbpkind = DT_UNW_AT_CFA_OFF;
		else if (rr->rbp[0] != '\0' && strcmp(rr->rbp, "u") != 0 &&
			 strcmp(rr->rbp, "s") != 0)
			want = DT_UNW_END; /* in a register: the walker cannot follow it */
	}
	if (want != DT_UNW_RSP && want != DT_UNW_RBP) {
		off = 0;
	}
	if (row->ur_cfa != want || row->ur_cfa_off != off || row->ur_rbp != rbpkind ||
	    row->ur_rbp_off != rbpoff) {
		fprintf(stderr,
			"  FDE %#" PRIx64 "..%#" PRIx64 " at %#" PRIx64 ": readelf %s rbp %s "
			"ra %s; ours kind %d off %d rbp kind %d off %d\n",
			d->lo, d->hi, rr->loc, rr->cfa, rr->rbp, rr->ra, row->ur_cfa,
			row->ur_cfa_off, row->ur_rbp, row->ur_rbp_off);
		return false;
	}
	return true;
}

static Elf *open_elf(const char *path, int *fd)
{
	elf_version(EV_CURRENT);
	if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	return elf_begin(*fd, ELF_C_READ_MMAP, NULL);
}

static uint64_t section_size(Elf *e, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(scn, &sh) != NULL &&
		    (n = elf_strptr(e, shstrndx, sh.sh_name)) != NULL && strcmp(n, name) == 0)
			return sh.sh_size;
	}
	return 0;
}

/* Build the rows of path, printing what it took. */
static int build(const char *path, dt_unw_row_t **rows, uint32_t *n, dt_unw_stats_t *st)
{
	int fd, err;
	Elf *e = open_elf(path, &fd);

	if (e == NULL)
		return -1;
	err = dt_unw_build(e, rows, n, st);
	printf("%s: %u rows (%u END) from %u libdw rows (CFA rsp %u, rbp %u, plt %u, signal %u, "
	       "other %u), %.1f ms\n",
	       path, *n, st->us_ends, st->us_fdes_rows, st->us_rsp, st->us_rbp, st->us_plt,
	       st->us_signal, st->us_other, st->us_ns / 1e6);
	elf_end(e);
	close(fd);
	return err;
}

static void test_libc(void)
{
	dt_unw_row_t *rows = NULL;
	dt_unw_stats_t st;
	uint32_t n = 0;
	int fd, bad = 0, checked = 0;
	Elf *e = open_elf(LIBC, &fd);
	uint64_t plt = dt_elf_section_addr(e, ".plt"), pltsize = section_size(e, ".plt");

	CHECK(plt != 0 && pltsize >= 32);
	CHECK_INT(build(LIBC, &rows, &n, &st), 0);
	CHECK(read_readelf(LIBC));
	CHECK(signal_cie != UINT64_MAX);
	if (rows == NULL || nrfdes == 0)
		return;
	CHECK_INT(rows[n - 1].ur_cfa, DT_UNW_END);
	for (uint32_t i = 1; i < n; i++) /* sorted, merged */
		if (rows[i].ur_pc <= rows[i - 1].ur_pc ||
		    (rows[i].ur_cfa == rows[i - 1].ur_cfa &&
		     rows[i].ur_cfa_off == rows[i - 1].ur_cfa_off &&
		     rows[i].ur_rbp == rows[i - 1].ur_rbp &&
		     rows[i].ur_rbp_off == rows[i - 1].ur_rbp_off))
			bad++;
	CHECK_INT(bad, 0);

	/* every row readelf prints, at its first pc; an FDE without rows: its CIE's at its start */
	bad = 0;
	for (size_t k = 0; k < nrfdes; k++) {
		const rfde_t *d = &rfdes[k];

		if (d->nrows == 0 && d->hi > d->lo) {
			const rrow_t *rr = readelf_at(d, d->lo);

			checked++;
			if (rr == NULL ||
			    !agrees(d, rr, dt_unw_find(rows, 0, n, d->lo), plt, pltsize))
				bad++;
		}

		for (size_t i = 0; i < d->nrows; i++) {
			const rrow_t *rr = &rrows[d->row0 + i];

			if (rr->loc >= d->hi)
				continue;
			checked++;
			if (!agrees(d, rr, dt_unw_find(rows, 0, n, rr->loc), plt, pltsize) &&
			    ++bad > 10)
				break;
		}
	}
	printf("libc: %d rows of readelf compared\n", checked);
	CHECK(checked > 20000);
	CHECK_INT(bad, 0);

	/* 200 random PCs of the FDEs (any byte of each, the FDE chosen by size) */
	uint64_t total = 0;
	int kinds[8] = { 0 };

	for (size_t k = 0; k < nrfdes; k++)
		total += rfdes[k].hi - rfdes[k].lo;
	srand48(18);
	bad = 0;
	for (int i = 0; i < 200; i++) {
		uint64_t at = (uint64_t)(drand48() * (double)total);
		const rfde_t *d = rfdes;

		while (at >= d->hi - d->lo)
			at -= d->hi - d->lo, d++;
		const rrow_t *rr = readelf_at(d, d->lo + at);
		const dt_unw_row_t *row = dt_unw_find(rows, 0, n, d->lo + at);

		CHECK(rr != NULL);
		if (rr != NULL && !agrees(d, rr, row, plt, pltsize))
			bad++;
		if (row != NULL)
			kinds[row->ur_cfa & 7]++;
	}
	CHECK_INT(bad, 0);
	printf("libc: 200 random PCs: %d rsp, %d rbp, %d plt, %d end\n", kinds[DT_UNW_RSP],
	       kinds[DT_UNW_RBP], kinds[DT_UNW_PLT1], kinds[DT_UNW_END]);
	CHECK(kinds[DT_UNW_RSP] > 100); /* the sample is not all one kind by accident */

	/* a pc no FDE covers (the first gap after an FDE) is END */
	int gaps = 0;

	for (size_t k = 0; k < nrfdes && gaps < 50; k++) {
		bool covered = false;

		for (size_t j = 0; j < nrfdes && !covered; j++)
			covered = rfdes[j].lo <= rfdes[k].hi && rfdes[k].hi < rfdes[j].hi;
		if (covered)
			continue;
		const dt_unw_row_t *row = dt_unw_find(rows, 0, n, rfdes[k].hi);

		gaps++;
		CHECK(row == NULL || row->ur_cfa == DT_UNW_END);
	}
	CHECK_INT(gaps, 50);

	/* .plt: its first entry pushes twice (rsp+16, +24), then PLT1 */
	const dt_unw_row_t *r = dt_unw_find(rows, 0, n, plt);

	CHECK(r != NULL && r->ur_cfa == DT_UNW_RSP && r->ur_cfa_off == 16);
	r = dt_unw_find(rows, 0, n, plt + 16);
	CHECK(r != NULL && r->ur_cfa == DT_UNW_PLT1);
	r = dt_unw_find(rows, 0, n, plt + pltsize - 1);
	CHECK(r != NULL && r->ur_cfa == DT_UNW_PLT1);
	CHECK_INT(st.us_signal, 1);
	CHECK(st.us_plt >= 1);

	/*
	 * __restore_rt, found as the kernel has it: glibc's sigaction sets it
	 * as sa_restorer (the FDE of the "zRS" CIE starts one byte before it)
	 */
	struct sigaction sa = { .sa_handler = SIG_IGN }, old;
	const dso_t *libc;

	CHECK_INT(sigaction(SIGUSR2, &sa, NULL), 0);
	CHECK_INT(sigaction(SIGUSR2, NULL, &old), 0);
	libc = dso_at((uintptr_t)old.sa_restorer);
	CHECK(libc != NULL && libc == dso_at((uintptr_t)dlsym(RTLD_DEFAULT, "getpid")));
	uint64_t restore = (uintptr_t)old.sa_restorer - (libc != NULL ? libc->bias : 0);

	r = dt_unw_find(rows, 0, n, restore);
	CHECK(r != NULL && r->ur_cfa == DT_UNW_SIGNAL);
	r = dt_unw_find(rows, 0, n, restore - 1);
	CHECK(r != NULL && r->ur_cfa == DT_UNW_SIGNAL);
	r = dt_unw_find(rows, 0, n, restore - 2);
	CHECK(r != NULL && r->ur_cfa != DT_UNW_SIGNAL);
	elf_end(e);
	close(fd);
	free(rows);
}

/* Within 1% of the design note's figure (section 0.4). */
#define NEAR(got, want) ((got)*100 >= (want)*99 && (got)*100 <= (want)*101)

static void test_python(void)
{
	dt_unw_row_t *rows = NULL;
	dt_unw_stats_t st;
	uint32_t n = 0;
	int fd;
	Elf *e;

	CHECK_INT(build(PYTHON, &rows, &n, &st), 0);
	/* the note's libdw count: 61,382 rows, CFA rsp+k 61,380, rbp+k 1, 1 expression (.plt) */
	CHECK(NEAR(st.us_fdes_rows, 61382));
	CHECK(NEAR(st.us_rsp, 61380));
	CHECK_INT(st.us_plt, 1);
	/*
	 * after merging: 4,466 gaps, and 60,110 rows (the note's 58,506 also
	 * counted as merged a row equal to the one before a gap, which an END
	 * row separates: /tmp/stk/cfi with its previous rule forgotten at gaps
	 * gives 61,382 - 1,272)
	 */
	CHECK(NEAR(n - st.us_ends, 60110));
	CHECK(NEAR(st.us_ends, 4466));
	/* its .plt (an executable, not PIE) */
	if ((e = open_elf(PYTHON, &fd)) != NULL) {
		uint64_t plt = dt_elf_section_addr(e, ".plt");
		const dt_unw_row_t *r = dt_unw_find(rows, 0, n, plt + 16 + 11);

		CHECK(r != NULL && r->ur_cfa == DT_UNW_PLT1);
		elf_end(e);
		close(fd);
	}
	free(rows);
	if (access(POSTGRES, R_OK) == 0) { /* only timed: the note's figure is 144 ms */
		CHECK_INT(build(POSTGRES, &rows, &n, &st), 0);
		CHECK(st.us_rbp > 40000); /* built with frame pointers */
		free(rows);
	}
}

static size_t buildid_of(const char *path, uint8_t *id)
{
	int fd;
	Elf *e = open_elf(path, &fd);
	size_t n = e != NULL ? dt_pmap_buildid(e, id) : 0;

	elf_end(e);
	close(fd);
	return n;
}

static void test_cache(void)
{
	dt_unw_t *u = dt_unw_create(1 << 20);
	uint8_t id[DT_BUILDID_MAX], pyid[DT_BUILDID_MAX];
	size_t idlen = buildid_of(LIBC, id), pyidlen = buildid_of(PYTHON, pyid);
	struct stat sb, pysb;
	uint32_t lo, hi, lo2, hi2, nrows;
	dt_unw_stats_t st;

	CHECK_INT(idlen, 20);
	CHECK_INT(stat(LIBC, &sb), 0);
	CHECK_INT(stat(PYTHON, &pysb), 0);
	CHECK_INT(dt_unw_file(u, LIBC, sb.st_dev, sb.st_ino, id, idlen, &lo, &hi, &st), 0);
	CHECK_INT(dt_unw_nbuilt(u), 1);
	CHECK(lo == 0 && hi > 20000);
	CHECK_INT(st.us_rows, hi - lo);
	/* the same file by another path (merged /usr): found, not read */
	CHECK_INT(dt_unw_file(u, "/usr" LIBC, sb.st_dev, sb.st_ino, id, idlen, &lo2, &hi2, NULL),
		  0);
	CHECK_INT(dt_unw_nbuilt(u), 1);
	CHECK(lo2 == lo && hi2 == hi);
	/* another file: after it */
	CHECK_INT(dt_unw_file(u, PYTHON, pysb.st_dev, pysb.st_ino, pyid, pyidlen, &lo2, &hi2, NULL),
		  0);
	CHECK_INT(dt_unw_nbuilt(u), 2);
	CHECK(lo2 == hi && hi2 > lo2 + 50000);
	dt_unw_table(u, &nrows);
	CHECK_INT(nrows, hi2);
	/* a build-id the file at the path no longer has (replaced): no rows, not libc's */
	id[0] ^= 0xff;
	CHECK_INT(dt_unw_file(u, LIBC, sb.st_dev, sb.st_ino, id, idlen, &lo2, &hi2, NULL), 0);
	CHECK_INT(dt_unw_nbuilt(u), 3);
	CHECK(lo2 == hi2);
	id[0] ^= 0xff;
	dt_unw_destroy(u);

	/* a file that does not fit: nothing added */
	u = dt_unw_create(1000);
	CHECK_INT(dt_unw_file(u, LIBC, sb.st_dev, sb.st_ino, id, idlen, &lo, &hi, NULL), -ENOSPC);
	dt_unw_table(u, &nrows);
	CHECK_INT(nrows, 0);
	dt_unw_destroy(u);
	dt_unw_destroy(NULL);
}

static void test_proc(void)
{
	dt_unw_t *u = dt_unw_create(1 << 20);
	dt_pmap_t *pm = NULL;
	dt_unw_proc_t *up = calloc(1, sizeof(*up));
	char line[4096];
	FILE *fp;
	int nexec = 0;

	CHECK_INT(dt_pmap_read(getpid(), &pm), 0);
	CHECK_INT(dt_pmap_read(-2, &pm) < 0, 1);
	if (pm == NULL)
		return;
	uint32_t dropped = 1;

	CHECK_INT(dt_unw_proc(u, pm, up, &dropped), 0);
	CHECK_INT(dropped, 0);
	/*
	 * up_maps sorted, and holding every executable mapping of a file
	 * /proc/self/maps lists (anonymous ones come and go under valgrind)
	 */
	for (uint32_t j = 1; j < up->up_n; j++)
		CHECK(up->up_maps[j - 1].um_end <= up->up_maps[j].um_start);
	fp = fopen("/proc/self/maps", "r");
	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long start, end;
		char perms[8];
		bool found = false;

		if (sscanf(line, "%llx-%llx %7s", &start, &end, perms) != 3 || perms[2] != 'x' ||
		    strchr(line, '/') == NULL)
			continue;
		nexec++;
		for (uint32_t j = 0; j < up->up_n && !found; j++)
			found = up->up_maps[j].um_start == start && up->up_maps[j].um_end == end;
		CHECK(found);
	}
	if (fp != NULL)
		fclose(fp);
	CHECK(nexec >= 3); /* this program, libc, ld.so at least */
	CHECK((int)up->up_n >= nexec);

	/*
	 * libc and this program: the mapping's bias is the dynamic linker's,
	 * and a function's first instruction has the row CFA = rsp + 8
	 */
	const void *fns[] = { dlsym(RTLD_DEFAULT, "getpid"), (const void *)(uintptr_t)test_proc };
	uint32_t nrows;
	const dt_unw_row_t *rows = dt_unw_table(u, &nrows);

	for (size_t i = 0; i < 2; i++) {
		uint64_t pc = (uintptr_t)fns[i];
		const dso_t *d = dso_at(pc);
		const dt_unw_map_t *m = NULL;
		const dt_pmapping_t *pmm = dt_pmap_find(pm, pc);

		for (uint32_t j = 0; j < up->up_n; j++)
			if (up->up_maps[j].um_start <= pc && pc < up->up_maps[j].um_end)
				m = &up->up_maps[j];
		CHECK(d != NULL && m != NULL && pmm != NULL);
		if (d == NULL || m == NULL || pmm == NULL)
			continue;
		CHECK(pmm->pm_exec && pmm->pm_hasbias && pmm->pm_buildidlen == 20);
		CHECK_INT(m->um_bias, d->bias);
		CHECK(m->um_hi > m->um_lo && m->um_hi <= nrows);
		const dt_unw_row_t *r = dt_unw_find(rows, m->um_lo, m->um_hi, pc - m->um_bias);

		CHECK(r != NULL && r->ur_cfa == DT_UNW_RSP && r->ur_cfa_off == 8);
	}
	/*
	 * [vdso], read from this process's memory: biased by where the
	 * kernel put it (AT_SYSINFO_EHDR; its PT_LOAD is at 0), and
	 * __vdso_clock_gettime's first instruction has CFA = rsp + 8
	 */
	uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
	const dt_pmapping_t *vm = dt_pmap_find(pm, vdso);
	const dt_unw_map_t *um = NULL;

	for (uint32_t j = 0; j < up->up_n; j++)
		if (up->up_maps[j].um_start == vdso)
			um = &up->up_maps[j];
	if (vdso == 0) /* valgrind gives its programs none */
		printf("no vDSO: its rows not checked\n");
	else
		CHECK(vm != NULL && um != NULL);
	if (vm != NULL && um != NULL) {
		Elf *e = elf_memory((char *)(uintptr_t)vdso, vm->pm_end - vm->pm_start);
		dt_elfsym_t *syms = NULL;
		size_t nsyms = 0;
		uint64_t fn = 0;

		CHECK_STR(vm->pm_path, "[vdso]");
		CHECK(vm->pm_hasbias && vm->pm_buildidlen > 0);
		CHECK_INT(um->um_bias, vdso);
		CHECK(um->um_hi > um->um_lo + 4);
		CHECK(e != NULL && dt_elf_syms(e, false, &syms, &nsyms) == 0);
		for (size_t j = 0; j < nsyms; j++)
			if (strcmp(syms[j].es_name, "__vdso_clock_gettime") == 0)
				fn = syms[j].es_addr;
		CHECK(fn != 0);
		const dt_unw_row_t *r = dt_unw_find(rows, um->um_lo, um->um_hi, fn);

		CHECK(r != NULL && r->ur_cfa == DT_UNW_RSP && r->ur_cfa_off == 8);
		free(syms);
		elf_end(e);
	}

	/* libc's build-id is the one of its file */
	uint8_t id[DT_BUILDID_MAX];
	const dt_pmapping_t *pmm = dt_pmap_find(pm, (uintptr_t)fns[0]);

	CHECK(pmm != NULL && buildid_of(LIBC, id) == 20 && memcmp(pmm->pm_buildid, id, 20) == 0);
	/* reading the process again builds nothing */
	uint32_t built = dt_unw_nbuilt(u);

	CHECK_INT(dt_unw_proc(u, pm, up, NULL), 0);
	CHECK_INT(dt_unw_nbuilt(u), built);
	free(up);
	dt_pmap_free(pm);
	dt_unw_destroy(u);
}

/*
 * dt_unw_rows and dt_unw_procs read back through the kernel: test_unwind
 * --maps, alone (valgrind's bpf(2) wrapper reports libbpf's unused attr
 * bytes), exit 77 without CAP_BPF
 */
static bool test_maps(void)
{
	dt_unw_t *u = dt_unw_create(1 << 18);
	dt_unw_proc_t *up = calloc(1, sizeof(*up)), *back = calloc(1, sizeof(*back));
	uint32_t tgid = (uint32_t)getpid(), nrows, idx;
	const dt_unw_row_t *rows;
	dt_unw_row_t row;
	int err, bad = 0;

	CHECK_INT(dt_unw_load_proc(u, getpid(), up), -EINVAL); /* no maps yet */
	CHECK_INT(dt_unw_rows_fd(u), -1);
	if ((err = dt_unw_maps_create(u, 16)) == -EPERM) {
		printf("maps: skipped (no CAP_BPF)\n");
		dt_unw_destroy(u);
		free(up);
		free(back);
		return false;
	}
	CHECK_INT(err, 0);
	CHECK(dt_unw_rows_fd(u) >= 0 && dt_unw_procs_fd(u) >= 0);
	CHECK_INT(dt_unw_maps_create(u, 16), -EINVAL);
	CHECK_INT(dt_unw_load_proc(u, getpid(), up), 0);
	CHECK_INT(ks_map_lookup(dt_unw_procs_fd(u), &tgid, back), 0);
	CHECK(up->up_n >= 3 && memcmp(up, back, sizeof(*up)) == 0);
	rows = dt_unw_table(u, &nrows);
	CHECK(nrows > 20000);
	/* every row, through the kernel's lookup (not the mapping they were written by) */
	for (idx = 0; idx < nrows && bad < 10; idx++)
		if (ks_map_lookup(dt_unw_rows_fd(u), &idx, &row) != 0 ||
		    memcmp(&row, &rows[idx], sizeof(row)) != 0)
			bad++;
	CHECK_INT(bad, 0);
	/* past them: zero, so END */
	CHECK_INT(ks_map_lookup(dt_unw_rows_fd(u), &nrows, &row), 0);
	CHECK_INT(row.ur_cfa, DT_UNW_END);
	CHECK_INT(row.ur_pc, 0);
	/* a process that is not there: no entry */
	tgid = 0x3fffffff;
	CHECK(dt_unw_load_proc(u, (pid_t)tgid, NULL) < 0);
	CHECK_INT(ks_map_lookup(dt_unw_procs_fd(u), &tgid, back), -ENOENT);
	/* the second time, nothing to build or copy, the same entry */
	uint32_t built = dt_unw_nbuilt(u);

	CHECK_INT(dt_unw_load_proc(u, getpid(), back), 0);
	CHECK_INT(dt_unw_nbuilt(u), built);
	dt_unw_table(u, &idx);
	CHECK_INT(idx, nrows);
	free(up);
	free(back);
	dt_unw_destroy(u);
	return true;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--maps") == 0)
		return test_maps() ? CHECK_DONE() : 77;
	dl_iterate_phdr(dso_cb, NULL);
	test_libc();
	test_python();
	test_cache();
	test_proc();
	free(rrows);
	free(rfdes);
	return CHECK_DONE();
}
