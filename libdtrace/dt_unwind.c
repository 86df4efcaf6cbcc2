/*
 * dt_unwind.c -- the unwind tables (dt_unwind.h): .eh_frame rows through
 * libdw, the files cache, and a process's row ranges.
 *
 * libdw interprets the CIEs and FDEs (augmentations, pointer encodings,
 * the CFA programs), so there is no parser of ours to get wrong: for each
 * executable section, dwarf_cfi_addrframe gives the rules at a pc and the
 * range [start, end) they hold for, and we step from range to range.
 * A pc no FDE covers is a gap, an END row.  The rules become one of the
 * few kinds the BPF walker follows; anything else ends the stack there.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "dt_impl.h"
#include "ks.h"
#include "dt_unwind.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RIP 16

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* An expression of one op: a register plus a constant (DW_OP_bregN or DW_OP_bregx). */
static bool breg(const Dwarf_Op *op, unsigned int reg, int64_t *off)
{
	if (op->atom == DW_OP_bregx && op->number == reg) {
		*off = (int64_t)op->number2;
		return true;
	}
	if (op->atom == DW_OP_breg0 + reg) {
		*off = (int64_t)op->number;
		return true;
	}
	return false;
}

/*
 * The lazy-binding .plt's CFA, as GCC's and binutils' x86-64 PLT writes
 * it: rsp + 8, and 8 more past the push in the second half of each 16-byte
 * entry: DW_OP_breg7 8; DW_OP_breg16 0; lit15; and; litN; ge; lit3; shl;
 * plus.  N is 11 (PLT1) or 10 (PLT2, the IBT/-z bndplt layouts).
 */
static int plt_kind(const Dwarf_Op *ops, size_t n)
{
	static const uint8_t tail[] = { DW_OP_lit15, DW_OP_and, 0,	   DW_OP_ge,
					DW_OP_lit3,  DW_OP_shl, DW_OP_plus };
	int64_t off;

	if (n != 9 || !breg(&ops[0], REG_RSP, &off) || off != 8 || !breg(&ops[1], REG_RIP, &off) ||
	    off != 0)
		return DT_UNW_END;
	for (size_t i = 0; i < sizeof(tail); i++)
		if (i != 2 && ops[2 + i].atom != tail[i])
			return DT_UNW_END;
	return ops[4].atom == DW_OP_lit11   ? DT_UNW_PLT1
	       : ops[4].atom == DW_OP_lit10 ? DT_UNW_PLT2
					    : DT_UNW_END;
}

/* DW_CFA_expression's location of a register: the CFA pushed, then one op. */
static bool at_expr(const Dwarf_Op *ops, size_t n, unsigned int reg, int64_t want)
{
	int64_t off;

	return n == 2 && ops[0].atom == DW_OP_call_frame_cfa && breg(&ops[1], reg, &off) &&
	       off == want;
}

/* DW_CFA_offset's location of a register: CFA + off. */
static bool at_cfa(const Dwarf_Op *ops, size_t n, int64_t *off)
{
	if (n != 2 || ops[0].atom != DW_OP_call_frame_cfa || ops[1].atom != DW_OP_plus_uconst)
		return false;
	*off = (int64_t)ops[1].number;
	return true;
}

/* A signal frame's rules, checked against what the walker assumes (the "zRS" CIE of libc). */
static bool signal_rules(Dwarf_Frame *f, const Dwarf_Op *cfa, size_t ncfa)
{
	Dwarf_Op mem[3], *ops;
	size_t n;
	int64_t off;

	if (ncfa != 2 || !breg(&cfa[0], REG_RSP, &off) || off != DT_UNW_SIG_RSP ||
	    cfa[1].atom != DW_OP_deref)
		return false;
	if (dwarf_frame_register(f, REG_RIP, mem, &ops, &n) != 0 ||
	    !at_expr(ops, n, REG_RSP, DT_UNW_SIG_RIP))
		return false;
	return dwarf_frame_register(f, REG_RBP, mem, &ops, &n) == 0 &&
	       at_expr(ops, n, REG_RSP, DT_UNW_SIG_RBP);
}

/* The row of the rules of f (ur_pc left to the caller). */
static dt_unw_row_t classify(Dwarf_Frame *f, dt_unw_stats_t *st)
{
	dt_unw_row_t r = { 0 };
	Dwarf_Addr start, end;
	Dwarf_Op mem[3], *cfa, *ops;
	size_t ncfa, n;
	bool signal = false;
	int64_t off;
	int ra = dwarf_frame_info(f, &start, &end, &signal);

	if (ra < 0 || dwarf_frame_cfa(f, &cfa, &ncfa) != 0 || ncfa == 0)
		goto other;
	if (signal) {
		if (!signal_rules(f, cfa, ncfa))
			goto other;
		st->us_signal++;
		r.ur_cfa = DT_UNW_SIGNAL;
		return r;
	}
	if (dwarf_frame_register(f, ra, mem, &ops, &n) != 0)
		goto other;
	if (n == 0) /* undefined (_start) or unchanged: the outermost frame */
		return r;
	if (!at_cfa(ops, n, &off) || off != -8)
		goto other;
	if (ncfa == 1 && breg(&cfa[0], REG_RSP, &off)) {
		r.ur_cfa = DT_UNW_RSP;
		st->us_rsp++;
	} else if (ncfa == 1 && breg(&cfa[0], REG_RBP, &off)) {
		r.ur_cfa = DT_UNW_RBP;
		st->us_rbp++;
	} else if ((r.ur_cfa = (uint8_t)plt_kind(cfa, ncfa)) != DT_UNW_END) {
		st->us_plt++;
		return r;
	} else {
		goto other;
	}
	if (off < INT32_MIN || off > INT32_MAX)
		goto other;
	r.ur_cfa_off = (int32_t)off;
	if (dwarf_frame_register(f, REG_RBP, mem, &ops, &n) != 0)
		goto other;
	if (n != 0) { /* 0: unchanged, or undefined (no frame uses it after) */
		if (!at_cfa(ops, n, &off) || off < INT16_MIN || off > INT16_MAX)
			goto other;
		r.ur_rbp = DT_UNW_AT_CFA_OFF;
		r.ur_rbp_off = (int16_t)off;
	}
	return r;
other:
	st->us_other++;
	return (dt_unw_row_t){ 0 };
}

static bool same_rules(const dt_unw_row_t *a, const dt_unw_row_t *b)
{
	return a->ur_cfa == b->ur_cfa && a->ur_cfa_off == b->ur_cfa_off && a->ur_rbp == b->ur_rbp &&
	       a->ur_rbp_off == b->ur_rbp_off;
}

/* By pc, and at one pc an END (a section's end) before the row that starts there. */
static int row_cmp(const void *pa, const void *pb)
{
	const dt_unw_row_t *a = pa, *b = pb;

	if (a->ur_pc != b->ur_pc)
		return a->ur_pc < b->ur_pc ? -1 : 1;
	return (a->ur_cfa != DT_UNW_END) - (b->ur_cfa != DT_UNW_END);
}

typedef struct rowbuf {
	dt_unw_row_t *rb_rows;
	size_t rb_n, rb_cap;
	bool rb_oom;
} rowbuf_t;

static void push(rowbuf_t *rb, uint64_t pc, dt_unw_row_t r)
{
	if (rb->rb_oom || dt_grow(&rb->rb_rows, &rb->rb_cap, rb->rb_n, sizeof(r), 1024) != 0) {
		rb->rb_oom = true;
		return;
	}
	r.ur_pc = (uint32_t)pc;
	rb->rb_rows[rb->rb_n++] = r;
}

/* The rows of [pc, end): a range per frame libdw gives, END where none. */
static void section_rows(Dwarf_CFI *cfi, uint64_t pc, uint64_t end, rowbuf_t *rb,
			 dt_unw_stats_t *st)
{
	bool gap = false;

	while (pc < end && !rb->rb_oom) {
		Dwarf_Frame *f;
		Dwarf_Addr s, e;

		if (dwarf_cfi_addrframe(cfi, pc, &f) != 0) {
			if (!gap)
				push(rb, pc, (dt_unw_row_t){ 0 });
			gap = true;
			pc++;
			continue;
		}
		gap = false;
		push(rb, pc, classify(f, st));
		st->us_fdes_rows++;
		(void)dwarf_frame_info(f, &s, &e, NULL);
		free(f);
		pc = e > pc ? e : pc + 1;
	}
	push(rb, end, (dt_unw_row_t){ 0 });
}

int dt_unw_build(Elf *e, dt_unw_row_t **rowsp, uint32_t *np, dt_unw_stats_t *stats)
{
	dt_unw_stats_t st = { 0 };
	uint64_t t0 = now_ns();
	rowbuf_t rb = { 0 };
	Elf_Scn *scn = NULL;
	Dwarf_CFI *cfi;
	size_t out = 0;

	if ((cfi = dwarf_getcfi_elf(e)) == NULL)
		return -ENOENT;
	while ((scn = elf_nextscn(e, scn)) != NULL && !rb.rb_oom) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_EXECINSTR) ||
		    sh.sh_type != SHT_PROGBITS || sh.sh_size == 0)
			continue;
		if (sh.sh_addr + sh.sh_size > UINT32_MAX) {
			free(rb.rb_rows);
			dwarf_cfi_end(cfi);
			return -E2BIG;
		}
		section_rows(cfi, sh.sh_addr, sh.sh_addr + sh.sh_size, &rb, &st);
	}
	dwarf_cfi_end(cfi);
	if (rb.rb_oom) {
		free(rb.rb_rows);
		return -ENOMEM;
	}
	if (rb.rb_n == 0) {
		free(rb.rb_rows);
		return -ENOENT;
	}
	/*
	 * Sections in address order, each closed by an END; where one ends as
	 * the next begins, the next one's row holds.  Then a row whose rules
	 * are its predecessor's adds nothing.
	 */
	qsort(rb.rb_rows, rb.rb_n, sizeof(*rb.rb_rows), row_cmp);
	for (size_t i = 0; i < rb.rb_n; i++) {
		const dt_unw_row_t *r = &rb.rb_rows[i];

		if (i + 1 < rb.rb_n && rb.rb_rows[i + 1].ur_pc == r->ur_pc)
			continue;
		if (out > 0 && same_rules(&rb.rb_rows[out - 1], r))
			continue;
		rb.rb_rows[out++] = *r;
		if (r->ur_cfa == DT_UNW_END)
			st.us_ends++;
	}
	st.us_rows = (uint32_t)out;
	st.us_ns = now_ns() - t0;
	*rowsp = rb.rb_rows;
	*np = (uint32_t)out;
	if (stats != NULL)
		*stats = st;
	return 0;
}

const dt_unw_row_t *dt_unw_find(const dt_unw_row_t *rows, uint32_t lo, uint32_t hi, uint64_t pc)
{
	if (lo >= hi || pc < rows[lo].ur_pc || pc > UINT32_MAX)
		return NULL;
	while (hi - lo > 1) { /* rows[lo].ur_pc <= pc, and pc < rows[hi].ur_pc if hi is a row */
		uint32_t mid = lo + (hi - lo) / 2;

		if (rows[mid].ur_pc <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return &rows[lo];
}

/* The files cache ------------------------------------------------------------ */

typedef struct dt_unw_file {
	uint64_t uf_dev, uf_ino;
	uint8_t uf_buildid[DT_BUILDID_MAX];
	size_t uf_buildidlen;
	uint32_t uf_lo, uf_hi;
	dt_unw_stats_t uf_stats;
} dt_unw_file_t;

struct dt_unw {
	dt_unw_row_t *u_rows;
	uint32_t u_nrows, u_maxrows;
	size_t u_rowcap;
	dt_unw_file_t *u_files;
	size_t u_nfiles, u_filecap;
	uint32_t u_nbuilt;
	int u_rowsfd, u_procsfd; /* the maps, once made; -1: none */
	dt_unw_row_t *u_map;	 /* dt_unw_rows, mapped */
	size_t u_mapsize;
	uint32_t u_nloaded; /* rows copied into it */
};

dt_unw_t *dt_unw_create(uint32_t maxrows)
{
	dt_unw_t *u = calloc(1, sizeof(*u));

	if (u != NULL) {
		u->u_maxrows = maxrows;
		u->u_rowsfd = u->u_procsfd = -1;
	}
	return u;
}

void dt_unw_destroy(dt_unw_t *u)
{
	if (u == NULL)
		return;
	if (u->u_map != NULL)
		munmap(u->u_map, u->u_mapsize);
	if (u->u_rowsfd >= 0)
		close(u->u_rowsfd);
	if (u->u_procsfd >= 0)
		close(u->u_procsfd);
	free(u->u_rows);
	free(u->u_files);
	free(u);
}

const dt_unw_row_t *dt_unw_table(const dt_unw_t *u, uint32_t *n)
{
	*n = u->u_nrows;
	return u->u_rows;
}

uint32_t dt_unw_nbuilt(const dt_unw_t *u)
{
	return u->u_nbuilt;
}

static dt_unw_file_t *file_find(dt_unw_t *u, uint64_t dev, uint64_t ino, const uint8_t *id,
				size_t idlen)
{
	for (size_t i = 0; i < u->u_nfiles; i++) {
		dt_unw_file_t *f = &u->u_files[i];

		if (f->uf_dev == dev && f->uf_ino == ino && f->uf_buildidlen == idlen &&
		    memcmp(f->uf_buildid, id, idlen) == 0)
			return f;
	}
	return NULL;
}

/* The rows of e, if it is still the file identified (its build-id). */
static int elf_rows(Elf *e, const uint8_t *id, size_t idlen, dt_unw_row_t **rows, uint32_t *n,
		    dt_unw_stats_t *st)
{
	uint8_t now[DT_BUILDID_MAX];

	if (e == NULL || elf_kind(e) != ELF_K_ELF || dt_pmap_buildid(e, now) != idlen ||
	    memcmp(now, id, idlen) != 0)
		return -ENOENT;
	return dt_unw_build(e, rows, n, st);
}

/* Where a file's rows come from: the file at a path, or a process's vDSO. */
typedef struct source {
	const char *path;
	pid_t pid;
	const dt_pmapping_t *vdso;
} source_t;

static int source_rows(const source_t *src, const uint8_t *id, size_t idlen, dt_unw_row_t **rows,
		       uint32_t *n, dt_unw_stats_t *st)
{
	size_t size;
	void *image;
	int fd, err;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	if (src->path == NULL) {
		if ((image = dt_pmap_image(src->pid, src->vdso, &size)) == NULL)
			return -ENOENT;
		e = elf_memory(image, size);
		err = elf_rows(e, id, idlen, rows, n, st);
		elf_end(e);
		free(image);
		return err;
	}
	if ((fd = open(src->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = elf_rows(e, id, idlen, rows, n, st);
	elf_end(e);
	close(fd);
	return err;
}

static int file_get(dt_unw_t *u, const source_t *src, uint64_t dev, uint64_t ino, const uint8_t *id,
		    size_t idlen, uint32_t *lo, uint32_t *hi, dt_unw_stats_t *stats)
{
	dt_unw_file_t *f = file_find(u, dev, ino, id, idlen);
	dt_unw_row_t *rows = NULL;
	dt_unw_stats_t st = { 0 };
	uint32_t n = 0;
	int err;

	if (f == NULL) {
		if (idlen > DT_BUILDID_MAX)
			return -EINVAL;
		err = source_rows(src, id, idlen, &rows, &n, &st);
		u->u_nbuilt++;
		if (err == -ENOMEM)
			return err;
		if (err != 0) /* no tables: remembered, so not read again */
			n = 0;
		if (n > u->u_maxrows - u->u_nrows) {
			free(rows);
			return -ENOSPC;
		}
		if (dt_grow(&u->u_files, &u->u_filecap, u->u_nfiles, sizeof(*f), 16) != 0) {
			free(rows);
			return -ENOMEM;
		}
		if (n > 0 && u->u_nrows + n > u->u_rowcap) {
			size_t cap =
			    u->u_rowcap * 2 > u->u_nrows + n ? u->u_rowcap * 2 : u->u_nrows + n;
			dt_unw_row_t *grown = realloc(u->u_rows, cap * sizeof(*grown));

			if (grown == NULL) {
				free(rows);
				return -ENOMEM;
			}
			u->u_rows = grown;
			u->u_rowcap = cap;
		}
		f = &u->u_files[u->u_nfiles++];
		*f = (dt_unw_file_t){ .uf_dev = dev,
				      .uf_ino = ino,
				      .uf_buildidlen = idlen,
				      .uf_lo = u->u_nrows,
				      .uf_hi = u->u_nrows + n,
				      .uf_stats = st };
		memcpy(f->uf_buildid, id, idlen);
		if (n > 0)
			memcpy(u->u_rows + u->u_nrows, rows, n * sizeof(*rows));
		u->u_nrows += n;
		free(rows);
	}
	*lo = f->uf_lo;
	*hi = f->uf_hi;
	if (stats != NULL)
		*stats = f->uf_stats;
	return 0;
}

int dt_unw_file(dt_unw_t *u, const char *path, uint64_t dev, uint64_t ino, const uint8_t *id,
		size_t idlen, uint32_t *lo, uint32_t *hi, dt_unw_stats_t *stats)
{
	source_t src = { .path = path };

	return file_get(u, &src, dev, ino, id, idlen, lo, hi, stats);
}

int dt_unw_proc(dt_unw_t *u, const dt_pmap_t *pm, dt_unw_proc_t *up, uint32_t *dropped)
{
	memset(up, 0, sizeof(*up));
	if (dropped != NULL)
		*dropped = 0;
	for (size_t i = 0; i < pm->pp_nmaps; i++) {
		const dt_pmapping_t *m = &pm->pp_maps[i];
		uint32_t lo = 0, hi = 0;

		if (!m->pm_exec || m->pm_start >= 1ULL << 63) /* [vsyscall]: the kernel's */
			continue;
		if (up->up_n == DT_UNW_MAXMAPS) {
			if (dropped != NULL)
				(*dropped)++;
			continue;
		}
		if (m->pm_path != NULL && m->pm_hasbias) {
			/* the vDSO: no file, one per kernel (device and inode 0, its build-id) */
			bool vdso = strcmp(m->pm_path, "[vdso]") == 0;
			source_t src = { vdso ? NULL : m->pm_path, pm->pp_pid, vdso ? m : NULL };
			int err = file_get(u, &src, vdso ? 0 : m->pm_dev, vdso ? 0 : m->pm_ino,
					   m->pm_buildid, m->pm_buildidlen, &lo, &hi, NULL);

			if (err != 0)
				return err;
		}
		up->up_maps[up->up_n++] = (dt_unw_map_t){ m->pm_start, m->pm_end,
							  m->pm_hasbias ? m->pm_bias : 0, lo, hi };
	}
	return 0;
}

/* The maps ------------------------------------------------------------------- */

int dt_unw_maps_create(dt_unw_t *u, uint32_t maxprocs)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = ((size_t)u->u_maxrows * sizeof(dt_unw_row_t) + (size_t)page - 1) /
		      (size_t)page * (size_t)page;
	int rows, procs, err;
	void *p;

	if (u->u_rowsfd >= 0 || u->u_maxrows == 0 || maxprocs == 0)
		return -EINVAL;
	rows = ks_map_create(BPF_MAP_TYPE_ARRAY, "dt_unw_rows", 4, sizeof(dt_unw_row_t),
			     u->u_maxrows, BPF_F_MMAPABLE);
	if (rows < 0)
		return rows;
	if ((p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, rows, 0)) == MAP_FAILED) {
		err = -errno;
		close(rows);
		return err;
	}
	procs =
	    ks_map_create(BPF_MAP_TYPE_HASH, "dt_unw_procs", 4, sizeof(dt_unw_proc_t), maxprocs, 0);
	if (procs < 0) {
		munmap(p, size);
		close(rows);
		return procs;
	}
	u->u_rowsfd = rows;
	u->u_procsfd = procs;
	u->u_map = p;
	u->u_mapsize = size;
	u->u_nloaded = 0;
	return 0;
}

int dt_unw_rows_fd(const dt_unw_t *u)
{
	return u->u_rowsfd;
}

int dt_unw_procs_fd(const dt_unw_t *u)
{
	return u->u_procsfd;
}

int dt_unw_load_proc(dt_unw_t *u, pid_t pid, dt_unw_proc_t *out)
{
	dt_unw_proc_t *up = calloc(1, sizeof(*up));
	dt_pmap_t *pm = NULL;
	uint32_t tgid = (uint32_t)pid;
	int err;

	if (up == NULL)
		return -ENOMEM;
	if (u->u_map == NULL)
		err = -EINVAL;
	else if ((err = dt_pmap_read(pid, &pm)) == 0 && (err = dt_unw_proc(u, pm, up, NULL)) == 0) {
		/* the rows first: a walker that finds the entry finds its rows */
		memcpy(u->u_map + u->u_nloaded, u->u_rows + u->u_nloaded,
		       (size_t)(u->u_nrows - u->u_nloaded) * sizeof(dt_unw_row_t));
		u->u_nloaded = u->u_nrows;
		err = ks_map_update(u->u_procsfd, &tgid, up, BPF_ANY);
	}
	if (err == 0 && out != NULL)
		*out = *up;
	dt_pmap_free(pm);
	free(up);
	return err;
}
