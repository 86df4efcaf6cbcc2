/*
 * dt_prov_usdt.c -- USDT probes: the stapsdt notes of the files mapped by
 * running processes (provider name and PID: python1234), of a file named
 * as the module for every process (python:/usr/bin/python3.11::), and of
 * a target's files as it maps them.  Each probe's program is made once per
 * argument specification of its sites (a probe inlined in several places
 * may keep its arguments in other registers at each), and attached to the
 * sites with the kernel's semaphore counting (ref_ctr_offset), in one
 * uprobe_multi link where the kernel has them.
 *
 * USDT probes are found as the kernel would attach them: a process's
 * executable file mappings from /proc/PID/maps, each file's notes read
 * once per walk (libc is mapped by every process).  A process is read
 * only for a description that can match its probes (desc_scope).  The
 * function of a probe is the symbol that holds its address, from .symtab
 * or else .dynsym (dt_elf.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dt_elf.h"
#include "dt_provider.h"

/*
 * A USDT probe's notes carry no stability: a provider declared without
 * #pragma D attributes is Private/Private/Unknown throughout (as dtrace -G
 * takes it), and the running process cannot tell us otherwise.
 */
static const dt_pattr_t usdt_attr = {
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
};

/* ---------------------------------------------------------------- the probes of files */

typedef struct fprobe {
	const char *fp_prov, *fp_func, *fp_name; /* in the handle's probe arena */
	dt_usite_t *fp_sites;			 /* ditto */
} fprobe_t;

/* The USDT probes of one file, read once per walk. */
typedef struct ufile {
	dev_t uf_dev;
	ino_t uf_ino;
	const char *uf_module;
	fprobe_t *uf_probes;
	size_t uf_n;
} ufile_t;

typedef struct freader {
	ufile_t *fr_file;
	dt_arena_t *fr_arena;
	dt_elfsym_t *fr_syms;
	size_t fr_nsyms;
	uint64_t fr_base;   /* address of .stapsdt.base in this file, or 0 */
	GElf_Phdr *fr_load; /* PT_LOAD headers: addresses to file offsets */
	size_t fr_nload;
	bool fr_libusdt; /* a libusdt image: its symbols are provider_function_name */
	Elf *fr_elf;	 /* the file, while its notes are read */
	size_t fr_cap;
	bool fr_nomem;
} freader_t;

/*
 * libusdt names a probe function provider_function_name: the function of
 * its probe is the middle part.
 */
static const char *usdt_func(const char *sym, const char *prov, const char *name, size_t *len)
{
	size_t sl = strlen(sym), pl = strlen(prov), nl = strlen(name);

	if (sl > pl + nl + 2 && strncmp(sym, prov, pl) == 0 && sym[pl] == '_' &&
	    sym[sl - nl - 1] == '_' && strcmp(sym + sl - nl, name) == 0) {
		*len = sl - pl - nl - 2;
		return sym + pl + 1;
	}
	return sym;
}

/* The link-time address of the symbol name in the file (.symtab, else .dynsym): 0, or -1. */
static int sym_addr(Elf *elf, const char *name, size_t len, uint64_t *addr)
{
	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			Elf_Data *data;
			size_t n;

			if (gelf_getshdr(scn, &sh) == NULL ||
			    sh.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM) ||
			    (data = elf_getdata(scn, NULL)) == NULL || sh.sh_entsize == 0)
				continue;
			n = sh.sh_size / sh.sh_entsize;
			for (size_t i = 0; i < n; i++) {
				GElf_Sym sy;
				const char *s;

				if (gelf_getsym(data, (int)i, &sy) != NULL &&
				    sy.st_shndx != SHN_UNDEF &&
				    (s = elf_strptr(elf, sh.sh_link, sy.st_name)) != NULL &&
				    strncmp(s, name, len) == 0 && s[len] == '\0') {
					*addr = sy.st_value;
					return 0;
				}
			}
		}
	}
	return -1;
}

/*
 * An operand relative to the instruction pointer names a symbol: "40+sym(%rip)",
 * "sym+8(%rip)" (what gcc writes for a global argument).  The program reads
 * it at the probe's own address plus the distance to the symbol, known here
 * from the file: written "DELTA(%site)", %site being the probe's address.
 * False if it names no symbol the file has.
 */
static bool rip_operand(freader_t *fr, const char *op, uint64_t pc, char *out, size_t outlen)
{
	size_t len = strlen(op) - strlen("(%rip)");
	int64_t off = 0;
	uint64_t addr = 0;
	bool sym = false;

	for (size_t i = 0; i < len;) {
		size_t j = i + (op[i] == '+' || op[i] == '-');
		int sign = op[i] == '-' ? -1 : 1;
		size_t e = j;

		while (e < len && op[e] != '+' && op[e] != '-')
			e++;
		if (e == j)
			return false;
		if (op[j] >= '0' && op[j] <= '9') {
			off += sign * (int64_t)strtoll(op + j, NULL, 0);
		} else {
			if (sym || sign < 0 || fr->fr_elf == NULL ||
			    sym_addr(fr->fr_elf, op + j, e - j, &addr) != 0)
				return false;
			sym = true;
		}
		i = e;
	}
	if (!sym)
		return false;
	snprintf(out, outlen, "%lld(%%site)", (long long)(int64_t)(addr + (uint64_t)off - pc));
	return true;
}

/*
 * The site's argument specification, with symbol operands relative to the
 * instruction pointer made relative to the site (rip_operand); the note's
 * own where it has none or a symbol cannot be found.
 */
static const char *site_argspec(freader_t *fr, const dt_stapsdt_note_t *n, uint64_t pc)
{
	char buf[DT_MAXPROBEARGS * 160], op[128];
	size_t len = 0;

	if (strstr(n->sn_argspec, "(%rip)") == NULL || n->sn_nargs <= 0)
		return dt_arena_strndup(fr->fr_arena, n->sn_argspec, strlen(n->sn_argspec));
	for (int i = 0; i < n->sn_nargs; i++) {
		const dt_stapsdt_arg_t *a = &n->sn_args[i];
		size_t ol = strlen(a->sa_operand);
		const char *o = a->sa_operand;

		if (ol > 6 && strcmp(o + ol - 6, "(%rip)") == 0) {
			if (!rip_operand(fr, o, pc, op, sizeof(op)))
				return dt_arena_strndup(fr->fr_arena, n->sn_argspec,
							strlen(n->sn_argspec));
			o = op;
		}
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%d%s@%s", i ? " " : "",
					a->sa_signed ? "-" : "", a->sa_size, a->sa_float ? "f" : "",
					o);
		if (len >= sizeof(buf))
			return dt_arena_strndup(fr->fr_arena, n->sn_argspec, strlen(n->sn_argspec));
	}
	return dt_arena_strndup(fr->fr_arena, buf, len);
}

static int note_cb(const dt_stapsdt_note_t *n, void *arg)
{
	freader_t *fr = arg;
	ufile_t *uf = fr->fr_file;
	uint64_t pc = n->sn_pc;
	const char *func, *dname;
	dt_usite_t *site;
	size_t flen;

	if (fr->fr_base != 0 && n->sn_base != 0) /* prelink moved the file */
		pc += fr->fr_base - n->sn_base;
	func = dt_elf_sym_at(fr->fr_syms, fr->fr_nsyms, pc);
	flen = strlen(func);
	if (fr->fr_libusdt)
		func = usdt_func(func, n->sn_provider, n->sn_name, &flen);
	if ((func = dt_arena_strndup(fr->fr_arena, func, flen)) == NULL ||
	    (dname = dt_probe_dname(fr->fr_arena, n->sn_name)) == NULL)
		goto nomem;
	if ((site = dt_arena_alloc(fr->fr_arena, sizeof(*site))) == NULL ||
	    (site->us_argspec = site_argspec(fr, n, pc)) == NULL)
		goto nomem;
	site->us_off = dt_elf_file_offset(fr->fr_load, fr->fr_nload, pc);
	site->us_refoff = n->sn_sema != 0 ? dt_elf_file_offset(fr->fr_load, fr->fr_nload,
							       n->sn_sema + (pc - n->sn_pc))
					  : 0;
	site->us_nargs = n->sn_nargs;
	if (site->us_off == 0) /* not in a loaded segment: not a site */
		return 0;
	for (size_t i = 0; i < uf->uf_n; i++) /* one probe for several sites */
		if (strcmp(uf->uf_probes[i].fp_prov, n->sn_provider) == 0 &&
		    strcmp(uf->uf_probes[i].fp_func, func) == 0 &&
		    strcmp(uf->uf_probes[i].fp_name, dname) == 0) {
			site->us_next = uf->uf_probes[i].fp_sites;
			uf->uf_probes[i].fp_sites = site;
			return 0;
		}
	if (dt_grow(&uf->uf_probes, &fr->fr_cap, uf->uf_n, sizeof(fprobe_t), 16) != 0)
		goto nomem;
	uf->uf_probes[uf->uf_n].fp_prov =
	    dt_arena_strndup(fr->fr_arena, n->sn_provider, strlen(n->sn_provider));
	if (uf->uf_probes[uf->uf_n].fp_prov == NULL)
		goto nomem;
	uf->uf_probes[uf->uf_n].fp_func = func;
	uf->uf_probes[uf->uf_n].fp_sites = site;
	uf->uf_probes[uf->uf_n++].fp_name = dname;
	return 0;
nomem:
	fr->fr_nomem = true;
	return 1;
}

/*
 * A libusdt image is PID-START-module-provider-N.so (us_provider.c names
 * it): its module is the one the program gave, and *libusdt is set.
 * Anything else is named by its base name.
 */
static const char *module_name(dt_arena_t *a, const char *path, bool *libusdt)
{
	const char *base = strrchr(path, '/');
	const char *p, *dash;
	size_t n;

	base = base != NULL ? base + 1 : path;
	*libusdt = false;
	p = base;
	for (int k = 0; k < 2; k++) { /* PID- START- */
		size_t d = strspn(p, "0123456789");

		if (d == 0 || p[d] != '-')
			return dt_arena_strndup(a, base, strlen(base));
		p += d + 1;
	}
	n = strlen(p);
	/* module-provider-N.so: the module ends before the second last dash */
	dash = p + n - 3;
	if (n < 4 || strcmp(dash, ".so") != 0)
		return dt_arena_strndup(a, base, strlen(base));
	while (dash > p && isdigit((unsigned char)dash[-1]))
		dash--;
	if (dash == p || dash[-1] != '-')
		return dt_arena_strndup(a, base, strlen(base));
	dash--;
	while (dash > p && dash[-1] != '-')
		dash--;
	if (dash == p)
		return dt_arena_strndup(a, base, strlen(base));
	*libusdt = true;
	return dt_arena_strndup(a, p, (size_t)(dash - 1 - p));
}

/* The files read in one walk; their strings and sites live in *fc_arena (the handle's). */
typedef struct fcache {
	ufile_t *fc_files;
	size_t fc_n, fc_cap;
	dt_arena_t *fc_arena;
} fcache_t;

/*
 * The probes of the file at path (as seen from process pid; read through
 * rpath, the name dtrace opens); NULL: none.
 */
static ufile_t *file_probes(fcache_t *fc, const char *rpath, const char *path, bool *nomem)
{
	struct stat st;
	freader_t fr;
	ufile_t uf;
	Elf *elf;
	int fd;
	char err[128];

	/* a FIFO must not block */
	if ((fd = open(rpath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	for (size_t i = 0; i < fc->fc_n; i++)
		if (fc->fc_files[i].uf_dev == st.st_dev && fc->fc_files[i].uf_ino == st.st_ino) {
			close(fd);
			return fc->fc_files[i].uf_n ? &fc->fc_files[i] : NULL;
		}
	memset(&uf, 0, sizeof(uf));
	memset(&fr, 0, sizeof(fr));
	uf.uf_dev = st.st_dev;
	uf.uf_ino = st.st_ino;
	fr.fr_file = &uf;
	fr.fr_arena = fc->fc_arena;
	if ((uf.uf_module = module_name(fc->fc_arena, path, &fr.fr_libusdt)) == NULL)
		fr.fr_nomem = true;
	elf = fr.fr_nomem ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	/*
	 * Most files have no probes: their symbols (3 MB of libLLVM's) are
	 * read only when a section of notes is there.
	 */
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF && dt_elf_has_section(elf, ".note.stapsdt")) {
		fr.fr_elf = elf;
		fr.fr_base = dt_elf_section_addr(elf, ".stapsdt.base");
		if (dt_elf_syms(elf, false, &fr.fr_syms, &fr.fr_nsyms) != 0 ||
		    dt_elf_loads(elf, &fr.fr_load, &fr.fr_nload) != 0)
			fr.fr_nomem = true;
		else
			(void)dt_stapsdt_iter(elf, note_cb, &fr, err, sizeof(err));
	}
	elf_end(elf);
	close(fd);
	free(fr.fr_syms);
	free(fr.fr_load);
	if (!fr.fr_nomem && dt_grow(&fc->fc_files, &fc->fc_cap, fc->fc_n, sizeof(ufile_t), 64) != 0)
		fr.fr_nomem = true;
	if (fr.fr_nomem) {
		*nomem = true;
		free(uf.uf_probes);
		return NULL;
	}
	fc->fc_files[fc->fc_n++] = uf;
	return uf.uf_n ? &fc->fc_files[fc->fc_n - 1] : NULL;
}

static void fcache_free(fcache_t *fc)
{
	for (size_t i = 0; i < fc->fc_n; i++)
		free(fc->fc_files[i].uf_probes);
	free(fc->fc_files);
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* Is this probe in the table already (a rescan)? */
static bool known(const dt_ptab_t *w, size_t from, const char *prov, const char *mod,
		  const fprobe_t *fp)
{
	for (size_t i = from; i < w->pt_n; i++)
		if (strcmp(w->pt_probes[i].dtpd_name, fp->fp_name) == 0 &&
		    strcmp(w->pt_probes[i].dtpd_func, fp->fp_func) == 0 &&
		    strcmp(w->pt_probes[i].dtpd_provider, prov) == 0 &&
		    strcmp(w->pt_probes[i].dtpd_mod, mod) == 0)
			return true;
	return false;
}

/*
 * A descriptor of process pid open on the inode (dev, ino): where a user
 * without CAP_SYS_ADMIN (which /proc/PID/map_files wants) finds a memfd
 * the process still holds, as bpftrace does.  0, or -1 if none.
 */
static int fd_path(pid_t pid, dev_t dev, ino_t ino, char *rpath, size_t len)
{
	char dir[64];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int rc = -1;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	if ((d = opendir(dir)) == NULL)
		return -1;
	while (rc != 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(rpath, len, "%s/%s", dir, de->d_name);
		if (stat(rpath, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == dev &&
		    st.st_ino == ino)
			rc = 0;
	}
	closedir(d);
	return rc;
}

/*
 * The name by which dtrace reads, and the kernel attaches to, the file of a
 * mapping: through the process's root, so that containers' files resolve.
 * A file that has no name any more is read through the mapping itself,
 * /proc/PID/map_files/START-END, which opens the inode mapped: a memfd
 * (libstapsdt loads its provider image from one: "/memfd:NAME (deleted)")
 * or a file unlinked after it was mapped ("PATH (deleted)").  The uprobe
 * is then registered on that inode, as bpftrace does through the
 * /proc/PID/fd/N of the memfd (the name used here too when map_files is
 * closed to us: listing needs no privileges).  *file loses the
 * " (deleted)" and a memfd's "memfd:" (a module name cannot hold a colon):
 * the module is the name the file had, or the one memfd_create() was given.
 */
static void mapping_path(pid_t pid, unsigned long start, unsigned long end, dev_t dev, ino_t ino,
			 char *file, char *rpath, size_t len)
{
	static const char deleted[] = " (deleted)";
	size_t n = strlen(file), d = sizeof(deleted) - 1;

	if (n > d && strcmp(file + n - d, deleted) == 0) {
		file[n - d] = '\0';
		if (strncmp(file, "/memfd:", 7) == 0 && file[7] != '\0')
			memmove(file + 1, file + 7, strlen(file + 7) + 1);
		snprintf(rpath, len, "/proc/%d/map_files/%lx-%lx", (int)pid, start, end);
		if (access(rpath, R_OK) != 0 && fd_path(pid, dev, ino, rpath, len) != 0)
			snprintf(rpath, len, "/proc/%d/map_files/%lx-%lx", (int)pid, start, end);
	} else {
		snprintf(rpath, len, "/proc/%d/root%s", (int)pid, file);
	}
}

/* A copy of sites in block b (their argument specifications too): NULL out of memory. */
static dt_usite_t *copy_sites(dt_pblock_t *b, const dt_usite_t *s)
{
	dt_usite_t *head = NULL, **tail = &head;

	for (; s != NULL; s = s->us_next) {
		dt_usite_t *c = dt_arena_alloc(&b->pb_arena, sizeof(*c));

		if (c == NULL)
			return NULL;
		*c = *s;
		c->us_next = NULL;
		if ((c->us_argspec = dt_arena_strndup(&b->pb_arena, s->us_argspec,
						      strlen(s->us_argspec))) == NULL)
			return NULL;
		*tail = c;
		tail = &c->us_next;
	}
	return head;
}

/*
 * Add probe i of file uf (read through rpath) for provider prov: its path
 * and sites go to *bp, made at the file's first new probe.  0, or -1 out of
 * memory.
 */
static int add_probe(dt_ptab_t *w, dt_pblock_t **bp, const char *rpath, const char *prov,
		     const ufile_t *uf, size_t i, dt_pinfo_t *pi)
{
	if (*bp == NULL) {
		if ((*bp = dt_pblock_new()) == NULL ||
		    (pi->pi_path = dt_arena_strndup(&(*bp)->pb_arena, rpath, strlen(rpath))) ==
			NULL)
			return -1;
		pi->pi_block = *bp;
	}
	if ((pi->pi_sites = copy_sites(*bp, uf->uf_probes[i].fp_sites)) == NULL ||
	    dt_ptab_add(w, prov, uf->uf_module, uf->uf_probes[i].fp_func, uf->uf_probes[i].fp_name,
			pi) != 0)
		return -1;
	return 0;
}

/*
 * The USDT probes of one process, each file once, in mapping order.  With
 * rescan, only probes not in the table already are added.
 */
static int walk_process(dt_ptab_t *w, fcache_t *fc, pid_t pid, bool rescan, bool *nomem)
{
	char path[64], line[4096 + 256], prov[DTRACE_PROVNAMELEN + 16], rpath[4096 + 256 + 64];
	size_t *seen = NULL; /* indexes: fc_files moves when it grows */
	size_t nseen = 0;
	dt_pblock_t *block;
	dt_pinfo_t pi = { .pi_prov = &dt_prov_usdt,
			  .pi_kind = DT_PK_USDT,
			  .pi_pid = pid,
			  .pi_attr = &usdt_attr };
	unsigned long start, end, ino;
	unsigned major, minor;
	FILE *maps;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((maps = fopen(path, "re")) == NULL)
		return 0; /* gone, or not ours to read */
	while (rc == 0 && fgets(line, sizeof(line), maps) != NULL) {
		char perms[8], *file;
		ufile_t *uf;
		size_t *ns, idx;
		bool dup = false;
		int off = 0;

		if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu %n", &start, &end, perms, &major,
			   &minor, &ino, &off) != 6 ||
		    off == 0 || perms[2] != 'x')
			continue;
		file = line + off;
		file[strcspn(file, "\n")] = '\0';
		if (file[0] != '/')
			continue;
		mapping_path(pid, start, end, makedev(major, minor), (ino_t)ino, file, rpath,
			     sizeof(rpath));
		if ((uf = file_probes(fc, rpath, file, nomem)) == NULL) {
			if (*nomem)
				rc = -1;
			continue;
		}
		idx = (size_t)(uf - fc->fc_files);
		for (size_t i = 0; i < nseen; i++)
			dup |= seen[i] == idx;
		if (dup)
			continue;
		if ((ns = realloc(seen, (nseen + 1) * sizeof(*ns))) == NULL) {
			*nomem = true;
			rc = -1;
			break;
		}
		seen = ns;
		seen[nseen++] = idx;
		block = NULL;
		for (size_t i = 0; rc == 0 && i < uf->uf_n; i++) {
			snprintf(prov, sizeof(prov), "%s%d", uf->uf_probes[i].fp_prov, (int)pid);
			if (rescan && known(w, 0, prov, uf->uf_module, &uf->uf_probes[i]))
				continue;
			if (add_probe(w, &block, rpath, prov, uf, i, &pi) != 0) {
				*nomem = true;
				rc = -1;
			}
		}
		if (block != NULL && block->pb_refs == 0)
			dt_pblock_put(block);
	}
	fclose(maps);
	free(seen);
	return rc;
}

/* ---------------------------------------------------------------- which processes */

/*
 * A process's probes are read only for a description that can match one,
 * and only from the processes it can match (issue 19: BEGIN { exit(0); }
 * read every process's maps and the ELF files of their libraries, 19-50
 * ms on a machine of 100 processes against 6 ms alone).  Its probes are
 * provider NAME<PID>, module the base name of a file (module_name), so:
 *
 *   - no description (dtrace -l), or a provider that is empty or a glob:
 *     every process, except for a bare name the dtrace and profile
 *     providers own (BEGIN, END, ERROR, tick-N, profile-N), which a
 *     process's probe is not taken to have;
 *   - a module that is a path: none (the file's own probes, provide());
 *   - a provider named in full that ends in digits (python1234, what
 *     python$target becomes): the process those digits name, the longest
 *     run of them that is a process (a provider's own name may end in a
 *     digit: http21234 is http2 of process 1234 when there is no process
 *     21234; when there is, 1234 is not read for it);
 *   - any other name (syscall, sched, pid1234 of the pid provider, a
 *     name without a PID): none.
 *
 * Each process is read once (dt_usdt_pids, sorted); its later probes come
 * from the rescan of a target (rescan() below), as before.
 */
typedef enum { SCOPE_NONE, SCOPE_PID, SCOPE_ALL } scope_t;

static bool pglob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

static scope_t desc_scope(const dtrace_probedesc_t *d)
{
	const char *p, *n;
	size_t len;

	if (d == NULL)
		return SCOPE_ALL;
	if (d->dtpd_mod[0] == '/' && !pglob(d->dtpd_mod))
		return SCOPE_NONE;
	p = d->dtpd_provider;
	if (p[0] == '\0') {
		n = d->dtpd_name;
		if (d->dtpd_mod[0] == '\0' && d->dtpd_func[0] == '\0' && !pglob(n) &&
		    (strcmp(n, "BEGIN") == 0 || strcmp(n, "END") == 0 || strcmp(n, "ERROR") == 0 ||
		     strncmp(n, "tick-", 5) == 0 || strncmp(n, "profile-", 8) == 0))
			return SCOPE_NONE;
		return SCOPE_ALL;
	}
	if (pglob(p))
		return SCOPE_ALL;
	len = strlen(p);
	if (len < 2 || !isdigit((unsigned char)p[len - 1]))
		return SCOPE_NONE;
	if (strncmp(p, "pid", 3) == 0 && strspn(p + 3, "0123456789") == len - 3)
		return SCOPE_NONE; /* the pid provider's */
	return SCOPE_PID;
}

/* Was process pid read?  *at: where it is, or would go, in dt_usdt_pids. */
static bool pid_read(const dtrace_hdl_t *dtp, pid_t pid, size_t *at)
{
	size_t lo = 0, hi = dtp->dt_usdt_npids;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (dtp->dt_usdt_pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < dtp->dt_usdt_npids && dtp->dt_usdt_pids[lo] == pid;
}

/* Note process pid as read: 0, or -1 out of memory. */
static int pid_note(dtrace_hdl_t *dtp, pid_t pid)
{
	size_t at;

	if (pid_read(dtp, pid, &at))
		return 0;
	if (dt_grow(&dtp->dt_usdt_pids, &dtp->dt_usdt_pidcap, dtp->dt_usdt_npids, sizeof(pid_t),
		    64) != 0)
		return -1;
	memmove(dtp->dt_usdt_pids + at + 1, dtp->dt_usdt_pids + at,
		(dtp->dt_usdt_npids - at) * sizeof(pid_t));
	dtp->dt_usdt_pids[at] = pid;
	dtp->dt_usdt_npids++;
	return 0;
}

/* Read the processes running now that were not read yet, in PID order: 0, or 1 (no memory). */
static int walk_all(dtrace_hdl_t *dtp, dt_ptab_t *w)
{
	dt_arena_t tmp = { 0 }; /* what the walk reads; the probes keep copies */
	fcache_t fc = { .fc_arena = &tmp };
	pid_t *pids = NULL, self = getpid();
	size_t n = 0, cap = 0, at;
	struct dirent *de;
	bool nomem = false;
	int rc = 0;
	DIR *d;

	if (elf_version(EV_CURRENT) == EV_NONE || (d = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (*end != '\0' || v <= 0 || (pid_t)v == self || pid_read(dtp, (pid_t)v, &at))
			continue;
		if (dt_grow(&pids, &cap, n, sizeof(*pids), 256) != 0) {
			nomem = true;
			break;
		}
		pids[n++] = (pid_t)v;
	}
	closedir(d);
	if (!nomem) {
		if (n > 0)
			qsort(pids, n, sizeof(*pids), pid_cmp);
		for (size_t i = 0; rc == 0 && i < n; i++) {
			rc = walk_process(w, &fc, pids[i], false, &nomem);
			if (rc == 0 && pid_note(dtp, pids[i]) != 0)
				nomem = true, rc = -1;
		}
	}
	if (!nomem)
		dtp->dt_usdt_all = true;
	fcache_free(&fc);
	dt_arena_free(&tmp);
	free(pids);
	return nomem || rc != 0;
}

/* The table's first read: every process for dtrace -l (in the providers' order), else none. */
static int populate(dtrace_hdl_t *dtp, dt_ptab_t *w)
{
	return dtp->dt_usdt_listing ? walk_all(dtp, w) : 0;
}

/*
 * The process a provider's trailing digits name: the longest run of them
 * that is a process running now, read once.  0, or -1 with the handle's
 * error.
 */
static int walk_named(dtrace_hdl_t *dtp, const char *prov)
{
	size_t len = strlen(prov), k = len;

	while (k > 1 && isdigit((unsigned char)prov[k - 1]))
		k--;
	for (; k < len; k++) { /* prov + k: the digits, longest first */
		dt_arena_t tmp = { 0 };
		fcache_t fc = { .fc_arena = &tmp };
		char path[64], *end;
		bool nomem = false;
		dt_ptab_t w;
		size_t at;
		long v;
		int rc;

		if (prov[k] == '0' || len - k > 10 || (v = strtol(prov + k, &end, 10)) <= 0 ||
		    v > INT_MAX)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", v);
		if ((pid_t)v == getpid() || pid_read(dtp, (pid_t)v, &at))
			return 0;
		if (access(path, F_OK) != 0)
			continue;
		if (elf_version(EV_CURRENT) == EV_NONE)
			return dt_set_errno(dtp, EDT_ELF);
		w = dt_ptab_get(dtp);
		rc = walk_process(&w, &fc, (pid_t)v, false, &nomem);
		dt_ptab_put(dtp, &w);
		fcache_free(&fc);
		dt_arena_free(&tmp);
		return nomem || rc != 0 || pid_note(dtp, (pid_t)v) != 0
			   ? dt_set_errno(dtp, EDT_NOMEM)
			   : 0;
	}
	return 0;
}

/*
 * A module that is a path: the probes of the file for every process
 * (provider without a PID, module the path), whether or not a process maps
 * it now.
 */
static int provide_file(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	dt_arena_t tmp = { 0 };
	fcache_t fc = { .fc_arena = &tmp };
	dt_pinfo_t pi = {
		.pi_prov = &dt_prov_usdt, .pi_kind = DT_PK_USDT, .pi_pid = 0, .pi_attr = &usdt_attr
	};
	dt_pblock_t *block = NULL;
	const char *path = desc->dtpd_mod;
	char rpath[4096 + 64];
	bool nomem = false;
	ufile_t *uf;
	dt_ptab_t w;
	int rc = 0;

	for (size_t i = 0; i < dtp->dt_nprobes; i++) /* read already */
		if (dtp->dt_pinfo[i].pi_prov == &dt_prov_usdt && dtp->dt_pinfo[i].pi_pid == 0 &&
		    strcmp(dtp->dt_probes[i].dtpd_mod, path) == 0)
			return 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_errno(dtp, EDT_ELF);
	snprintf(rpath, sizeof(rpath), "/proc/%d/root%s", (int)getpid(), path);
	uf = file_probes(&fc, rpath, path, &nomem);
	w = dt_ptab_get(dtp);
	/* the module is the path itself: the file's probes for every process */
	for (size_t i = 0; uf != NULL && !nomem && rc == 0 && i < uf->uf_n; i++) {
		uf->uf_module = path;
		rc = add_probe(&w, &block, path, uf->uf_probes[i].fp_prov, uf, i, &pi);
	}
	if (block != NULL && block->pb_refs == 0)
		dt_pblock_put(block);
	dt_ptab_put(dtp, &w);
	fcache_free(&fc);
	dt_arena_free(&tmp);
	return nomem || rc != 0 ? dt_set_errno(dtp, EDT_NOMEM) : 0;
}

/* The probes a description can match: of a file, of one process, of every process. */
static int provide(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	dt_ptab_t w;
	int rc;

	if (desc != NULL && desc->dtpd_mod[0] == '/')
		return provide_file(dtp, desc);
	switch (desc_scope(desc)) {
	case SCOPE_ALL:
		if (dtp->dt_usdt_all)
			return 0;
		w = dt_ptab_get(dtp);
		rc = walk_all(dtp, &w);
		dt_ptab_put(dtp, &w);
		return rc != 0 ? dt_set_errno(dtp, EDT_NOMEM) : 0;
	case SCOPE_PID: return walk_named(dtp, desc->dtpd_provider);
	default: return 0;
	}
}

/*
 * The probes of process pid not in the table yet: a process read before
 * (a description could match its probes), or any when all were.
 */
static int rescan(dtrace_hdl_t *dtp, pid_t pid, uint64_t hash)
{
	dt_arena_t tmp = { 0 };
	fcache_t fc = { .fc_arena = &tmp };
	dt_ptab_t w;
	bool nomem = false;
	size_t at;
	int rc;

	(void)hash;
	if (!dtp->dt_usdt_all && !pid_read(dtp, pid, &at))
		return 0;
	w = dt_ptab_get(dtp);
	rc = walk_process(&w, &fc, pid, true, &nomem);
	dt_ptab_put(dtp, &w);
	fcache_free(&fc);
	dt_arena_free(&tmp);
	if (!nomem && rc == 0 && pid_note(dtp, pid) != 0)
		nomem = true;
	return nomem || rc != 0 ? dt_set_errno(dtp, EDT_NOMEM) : 0;
}

/* ---------------------------------------------------------------- programs */

/* One program per argument specification of the probe's sites. */
static int programs(dtrace_hdl_t *dtp, size_t p, dt_progspec_f *add, void *arg)
{
	for (dt_usite_t *s = dtp->dt_pinfo[p].pi_sites; s != NULL; s = s->us_next) {
		bool seen = false;

		for (dt_usite_t *o = dtp->dt_pinfo[p].pi_sites; o != s && !seen; o = o->us_next)
			seen = strcmp(o->us_argspec, s->us_argspec) == 0;
		if (!seen && add(arg, s->us_argspec) != 0)
			return -1;
	}
	return 0;
}

/* USDT sites of a program share one link where the kernel has uprobe_multi. */
static void progtype(const dt_pinfo_t *pi, enum bpf_prog_type *type, uint32_t *attach_type,
		     uint32_t *btf_id)
{
	(void)pi, (void)btf_id;
	*type = BPF_PROG_TYPE_KPROBE;
	*attach_type = ks_features()->kf_uprobe_multi ? KS_UPROBE_MULTI : 0;
}

static int arg_error(const dt_argreq_t *rq, int i, const char *what, const char *op)
{
	const dtrace_probedesc_t *pd = &rq->ar_dtp->dt_probes[rq->ar_probe];

	return dt_set_errmsg(rq->ar_dtp, EDT_ENABLING, "USDT argument %d of %s:%s:%s:%s: %s %s", i,
			     pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func, pd->dtpd_name, what,
			     op);
}

/* r0 = argument i as the site's note describes it (0 where it has none). */
static int arg(const dt_argreq_t *rq, int i)
{
	dt_frag_t *o = rq->ar_out;
	const dt_stapsdt_arg_t *a;
	const char *op;
	int width, off;

	if (i >= rq->ar_nargs) {
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
		return 0;
	}
	a = &rq->ar_args[i];
	op = a->sa_operand;
	if (op[0] == '$') { /* a constant */
		char *end;
		long long v = strtoll(op + 1, &end, 0);
		struct bpf_insn ld[2] = { KS_LD_IMM64(BPF_REG_0, v) };

		if (*end != '\0')
			return arg_error(rq, i, "unsupported operand", op);
		dt_frag_emit(o, ld[0]);
		dt_frag_emit(o, ld[1]);
	} else if (op[0] == '%') { /* a register */
		/*
		 * An SSE register (gcc may put a double, or any value, there):
		 * a uprobe's program gets the trap's pt_regs, the general
		 * registers only; the SSE ones stay live in the CPU (the
		 * task's saved FPU state is stale until a context switch), and
		 * no BPF helper reads them.  A kernel limit, not ours.
		 */
		if (strncmp(op, "%xmm", 4) == 0)
			return arg_error(rq, i,
					 "is in an SSE register, which BPF cannot read at a uprobe "
					 "(the kernel saves the general registers only):",
					 op);
		if ((off = ks_reg_offset(op, &width)) < 0)
			return arg_error(rq, i, "unknown register", op);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, (int16_t)off));
		if (width < 8)
			dt_frag_extend(o, BPF_REG_0, (size_t)width, false);
	} else { /* disp(%base[,%index[,scale]]) */
		char base[16] = "", index[16] = "";
		long disp = 0, scale = 1;
		const char *paren = strchr(op, '(');
		char *end;

		if (paren == NULL ||
		    sscanf(paren, "(%15[^,)],%15[^,)],%ld)", base, index, &scale) < 1)
			return arg_error(rq, i, "unsupported operand", op);
		if (paren != op) {
			disp = strtol(op, &end, 0);
			if (end != paren) /* a symbol the file's tables do not have (stripped) */
				return arg_error(rq, i, "no symbol in the file's tables for", op);
		}
		/* %site: the probe's own address, in ip when a uprobe fires (site_argspec) */
		if ((off = ks_reg_offset(strcmp(base, "%site") == 0 ? "ip" : base, &width)) < 0 ||
		    strcmp(base, "%rip") == 0)
			return arg_error(rq, i, "unsupported base in", op);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, (int16_t)off));
		if (index[0] != '\0') {
			if ((off = ks_reg_offset(index, &width)) < 0)
				return arg_error(rq, i, "unsupported index in", op);
			dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, (int16_t)off));
			dt_frag_emit(o, KS_ALU64_IMM(BPF_MUL, BPF_REG_1, (int32_t)scale));
			dt_frag_emit(o, KS_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
		}
		if (disp != (int32_t)disp)
			return arg_error(rq, i, "displacement out of range in", op);
		if (disp != 0)
			dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_0, (int32_t)disp));
		dt_frag_load_user(o, (size_t)a->sa_size, a->sa_signed, rq->ar_action,
				  rq->ar_lfault);
		return 0;
	}
	dt_frag_extend(o, BPF_REG_0, (size_t)a->sa_size, a->sa_signed);
	return 0;
}

/* ---------------------------------------------------------------- attaching */

/* Every site of the probe with the argument spec, in one link. */
static int attach_multi(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, dt_links_t *links)
{
	const dt_pinfo_t *pi = &dtp->dt_pinfo[p];
	uint64_t *offs, *refs;
	size_t n = 0;
	int link;

	for (dt_usite_t *s = pi->pi_sites; s != NULL; s = s->us_next)
		n += strcmp(s->us_argspec, argspec) == 0;
	if (n == 0)
		return 0;
	offs = calloc(n, sizeof(*offs));
	refs = calloc(n, sizeof(*refs));
	if (offs == NULL || refs == NULL) {
		free(offs);
		free(refs);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	n = 0;
	for (dt_usite_t *s = pi->pi_sites; s != NULL; s = s->us_next)
		if (strcmp(s->us_argspec, argspec) == 0) {
			offs[n] = s->us_off;
			refs[n++] = s->us_refoff;
		}
	link = ks_attach_uprobes(fd, pi->pi_path, offs, refs, NULL, n,
				 pi->pi_pid > 0 ? pi->pi_pid : -1);
	free(offs);
	free(refs);
	if (link == -ESRCH && pi->pi_pid > 0) /* the process has gone */
		return 0;
	return link < 0 ? dt_probe_attach_err(dtp, p, -link) : dt_links_add(dtp, links, link);
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	const dt_pinfo_t *pi = &dtp->dt_pinfo[p];
	int link;

	(void)ncpus;
	if (attach_type == KS_UPROBE_MULTI)
		return attach_multi(dtp, p, argspec, fd, links);
	for (dt_usite_t *s = pi->pi_sites; s != NULL; s = s->us_next) {
		if (strcmp(s->us_argspec, argspec) != 0)
			continue;
		link = ks_attach_uprobe(fd, pi->pi_path, s->us_off, s->us_refoff, false,
					pi->pi_pid > 0 ? pi->pi_pid : -1);
		if (link == -ESRCH && pi->pi_pid > 0) /* the process has gone */
			continue;
		if (link < 0)
			return dt_probe_attach_err(dtp, p, -link);
		if (dt_links_add(dtp, links, link) != 0)
			return -1;
	}
	return 0;
}

const dt_provimpl_t dt_prov_usdt = {
	.pv_name = "usdt",
	.pv_populate = populate,
	.pv_provide = provide,
	.pv_rescan = rescan,
	.pv_programs = programs,
	.pv_progtype = progtype,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_gone = dt_probe_file_gone,
};
