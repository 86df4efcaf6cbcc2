/*
 * dt_sym.c -- addresses to names, as illumos' dtrace_uaddr2str and
 * dtrace_addr2str: the object a process maps at an address
 * (/proc/PID/maps), and the function symbol of that object that holds it;
 * kernel addresses through /proc/kallsyms.
 *
 * A file's symbols are its .symtab.  A stripped file (.dynsym only) takes
 * the .symtab of its separate debug file, found as gdb finds it: by its
 * build-id (/usr/lib/debug/.build-id/xx/yyyy.debug), else by its
 * .gnu_debuglink (name and CRC), else its MiniDebugInfo (.gnu_debugdata,
 * an xz-compressed ELF whose .symtab adds to .dynsym).  Names are shown
 * demangled (__cxa_demangle) and without ELF version suffixes, each made
 * once per file.  Anonymous executable memory is named from the JIT's
 * /tmp/perf-PID.map.
 *
 * Processes and files are read once and kept for the handle: a process's
 * mappings are read again only when an address falls outside those known
 * (a library it loaded since), and stay known after it exits, so that an
 * address recorded before its exit still has a name at a later print.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lzma.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dt_elf.h"
#include "dt_impl.h"

#define DT_SYM_MAXPROCS 256 /* processes kept; past that, all are forgotten */
#define DT_SYM_DEBUGDIR "/usr/lib/debug"

typedef struct dt_symfile {
	struct dt_symfile *sf_next;
	char *sf_path;
	uint64_t sf_dev, sf_ino; /* as /proc/PID/maps gives them: a file replaced is another */
	int sf_fd, sf_dfd;	 /* the file, its debug file */
	Elf *sf_elf;
	Elf *sf_delf;	   /* the debug file's or MiniDebugInfo's: names point into it */
	void *sf_dimage;   /* MiniDebugInfo, decompressed */
	void *sf_image;	   /* [vdso]: a copy of dtrace's own (the kernel's, the same in all) */
	char *sf_pltnames; /* the names of its PLT entries (name@plt), one block */
	dt_elfsym_t *sf_syms;
	const char **sf_disp; /* the names shown, by symbol: NULL until asked */
	size_t sf_nsyms;
	GElf_Phdr *sf_load;
	size_t sf_nload;
	bool sf_read; /* opened and read (at its first look-up) */
} dt_symfile_t;

typedef struct dt_symmap {
	uint64_t sm_start, sm_end, sm_pgoff;
	uint64_t sm_base;      /* where the object's first mapping starts */
	dt_symfile_t *sm_file; /* NULL: anonymous, or not a file we can read */
	const char *sm_name; /* the object's base name ([vdso]...), or "" if anonymous (interned) */
	bool sm_anon;	     /* anonymous executable memory: JIT code (perf-PID.map) */
	bool sm_exec;
} dt_symmap_t;

typedef struct dt_perfsym {
	uint64_t ps_start, ps_size;
	size_t ps_line;	     /* a later line wins over an earlier one at the same address */
	const char *ps_name; /* interned */
} dt_perfsym_t;

typedef struct dt_symproc {
	struct dt_symproc *sp_next;
	pid_t sp_pid;
	dt_symmap_t *sp_maps;
	size_t sp_nmaps;
	uint64_t sp_readat;  /* when its maps were last read (CLOCK_MONOTONIC ns) */
	bool sp_missed;	     /* ... because of an address outside them */
	uint64_t sp_checkat; /* when /proc/PID/exe was last looked at */
	dev_t sp_exedev;     /* /proc/PID/exe when the maps were read: an exec changes it */
	ino_t sp_exeino;
	dt_perfsym_t *sp_perf; /* /tmp/perf-PID.map, sorted; read when first needed */
	size_t sp_nperf;
	struct timespec sp_perfmtime; /* the map file as read: a JIT appends to it */
	off_t sp_perfsize;
	const char *sp_perfmod; /* "perf-PID.map" */
	int sp_nspid;		/* its PID in its own namespace; 0 until read */
	uint64_t sp_perfat;	/* when a miss last read the map (CLOCK_MONOTONIC ns) */
} dt_symproc_t;

typedef struct dt_ksym {
	uint64_t ks_addr;
	const char *ks_name;
	const char *ks_mod;  /* "vmlinux", or the module's name without its [] */
	uint64_t ks_modbase; /* the module's first symbol */
	bool ks_text;	     /* a function (t, T, w, W): others only bound one */
} dt_ksym_t;

struct dt_symtab {
	dt_symproc_t *st_procs;
	size_t st_nprocs;
	dt_symfile_t *st_files;
	dt_ksym_t *st_ksyms; /* /proc/kallsyms, sorted by address; read at the first look-up */
	size_t st_nksyms;
	char *st_knames;
	bool st_kread;
	dt_arena_t st_arena; /* names of mappings and JIT code, once (intern) */
	dt_strset_t *st_strs;
};

/* ---------------------------------------------------------------- names shown */

typedef char *demangle_f(const char *, char *, size_t *, int *);
static demangle_f *cxa_demangle;
static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;

/*
 * libstdc++'s __cxa_demangle, opened at the first C++ name rather than
 * linked: libdtrace is C, and its consumers (dtrace, the Python, Lua and
 * Node bindings) should not all carry a C++ runtime for a name printer.
 * Without libstdc++, names stay mangled.  A process that has it loaded
 * already (Node) gets the same copy back.
 */
static void demangle_init(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (h != NULL)
		cxa_demangle = (demangle_f *)dlsym(h, "__cxa_demangle");
}

/*
 * The name a user reads: C++ names demangled ("geo::Box<double>::c(double)",
 * as c++filt shows them), an ELF version suffix ("@@GLIBC_2.34",
 * "@GLIBC_2.2.5", which assembler-defined symbols keep in .symtab) dropped;
 * a PLT entry's "@plt" kept.
 * raw itself when unchanged, else malloc'd; NULL out of memory.
 */
static char *shown_name(const char *raw)
{
	const char *at = strchr(raw, '@');
	char *base = NULL, *d, *plt;
	int status = -1;
	bool isplt = at != NULL && strcmp(at, "@plt") == 0;

	if (at != NULL && at > raw && (base = strndup(raw, (size_t)(at - raw))) == NULL)
		return NULL;
	if (strncmp(raw, "_Z", 2) == 0) {
		pthread_once(&demangle_once, demangle_init);
		if (cxa_demangle != NULL &&
		    (d = cxa_demangle(base != NULL ? base : raw, NULL, NULL, &status)) != NULL &&
		    status == 0) {
			free(base);
			base = d;
		}
	}
	if (isplt && base != NULL) { /* a PLT entry (plt_syms) keeps its suffix */
		plt = malloc(strlen(base) + sizeof("@plt"));
		if (plt != NULL)
			sprintf(plt, "%s@plt", base);
		free(base);
		return plt;
	}
	return base != NULL ? base : (char *)raw;
}

/* The name shown for f's symbol s, made at its first use and kept with the file. */
static const char *sym_name(dt_symfile_t *f, const dt_elfsym_t *s)
{
	size_t i = (size_t)(s - f->sf_syms);
	char *n;

	if (f->sf_disp == NULL && (f->sf_disp = calloc(f->sf_nsyms, sizeof(char *))) == NULL)
		return s->es_name;
	if (f->sf_disp[i] == NULL) {
		if ((n = shown_name(s->es_name)) == NULL)
			return s->es_name;
		f->sf_disp[i] = n;
	}
	return f->sf_disp[i];
}

/* ---------------------------------------------------------------- files */

/* The file at path, device dev (major << 32 | minor) and inode ino, as a process maps it. */
static dt_symfile_t *file_of(struct dt_symtab *t, const char *path, uint64_t dev, uint64_t ino)
{
	dt_symfile_t *f;

	for (f = t->st_files; f != NULL; f = f->sf_next)
		if (f->sf_ino == ino && f->sf_dev == dev && strcmp(f->sf_path, path) == 0)
			return f;
	if ((f = calloc(1, sizeof(*f))) == NULL || (f->sf_path = strdup(path)) == NULL) {
		free(f);
		return NULL;
	}
	f->sf_fd = f->sf_dfd = -1;
	f->sf_dev = dev;
	f->sf_ino = ino;
	f->sf_next = t->st_files;
	t->st_files = f;
	return f;
}

/* Whether elf has a .symtab with contents (a debug file's may be NOBITS: none). */
static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_SYMTAB && sh.sh_size > 0)
			return true;
	return false;
}

/* The NT_GNU_BUILD_ID of elf into id: its length, or 0. */
static size_t build_id(Elf *elf, uint8_t *id, size_t max)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)data->d_buf + noff, "GNU", 4) == 0 && nh.n_descsz > 0 &&
			    nh.n_descsz <= max) {
				memcpy(id, (char *)data->d_buf + doff, nh.n_descsz);
				return nh.n_descsz;
			}
	}
	return 0;
}

/* The CRC-32 of .gnu_debuglink (the zlib/IEEE one gdb and objcopy use). */
static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n-- > 0) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return ~crc;
}

static bool file_crc(int fd, uint32_t want)
{
	uint8_t buf[65536];
	uint32_t crc = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32_update(crc, buf, (size_t)n);
	return n == 0 && crc == want;
}

/*
 * Open path as f's debug file when it is an ELF file with a .symtab and,
 * for a build-id path, the same build-id (id, n), or for a debuglink the
 * CRC crc: true if it is now f's.
 */
static bool debug_try(dt_symfile_t *f, const char *path, const uint8_t *id, size_t n, bool crc,
		      uint32_t want)
{
	uint8_t did[64];
	int fd;
	Elf *elf = NULL;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if ((!crc || file_crc(fd, want)) && (elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL &&
	    elf_kind(elf) == ELF_K_ELF && has_symtab(elf) &&
	    (id == NULL || (build_id(elf, did, sizeof(did)) == n && memcmp(did, id, n) == 0))) {
		f->sf_delf = elf;
		f->sf_dfd = fd;
		return true;
	}
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return false;
}

/* f's separate debug file, as gdb looks for it: by build-id, then by .gnu_debuglink. */
static bool debug_find(dt_symfile_t *f)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	uint8_t id[64];
	size_t n = build_id(f->sf_elf, id, sizeof(id));
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;

	if (n >= 2) {
		int len = snprintf(path, sizeof(path), DT_SYM_DEBUGDIR "/.build-id/%02x/", id[0]);

		for (size_t i = 1; i < n && len + 3 < (int)sizeof(path); i++)
			len += snprintf(path + len, sizeof(path) - (size_t)len, "%02x", id[i]);
		if (len + 7 < (int)sizeof(path)) {
			strcpy(path + len, ".debug");
			if (debug_try(f, path, id, n, false, 0))
				return true;
		}
	}
	if ((scn = dt_elf_section(f->sf_elf, ".gnu_debuglink", &sh)) != NULL &&
	    (data = elf_getdata(scn, NULL)) != NULL && data->d_size >= 8) {
		const char *name = data->d_buf;
		size_t nlen = strnlen(name, data->d_size), coff = (nlen + 4) & ~(size_t)3;
		uint32_t crc;

		if (nlen == 0 || coff + 4 > data->d_size || strchr(name, '/') != NULL)
			return false;
		memcpy(&crc, (const char *)data->d_buf + coff, 4);
		if (realpath(f->sf_path, dir) == NULL)
			snprintf(dir, sizeof(dir), "%s", f->sf_path);
		if ((slash = strrchr(dir, '/')) != NULL)
			*slash = '\0';
		for (int i = 0; i < 3; i++) {
			struct stat a, b;
			int len =
			    i == 0
				? snprintf(path, sizeof(path), DT_SYM_DEBUGDIR "%s/%s", dir, name)
			    : i == 1 ? snprintf(path, sizeof(path), "%s/%s", dir, name)
				     : snprintf(path, sizeof(path), "%s/.debug/%s", dir, name);

			if (len >= (int)sizeof(path))
				continue;
			/* "<dir>/<name>" may be the file itself */
			if (stat(path, &a) == 0 && stat(f->sf_path, &b) == 0 &&
			    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				continue;
			if (debug_try(f, path, NULL, 0, true, crc))
				return true;
		}
	}
	return false;
}

typedef lzma_ret stream_buffer_decode_f(uint64_t *, uint32_t, const lzma_allocator *,
					const uint8_t *, size_t *, size_t, uint8_t *, size_t *,
					size_t);

static stream_buffer_decode_f *lzma_decode;
static pthread_once_t lzma_once = PTHREAD_ONCE_INIT;

static void lzma_init(void)
{
	void *h = dlopen("liblzma.so.5", RTLD_LAZY | RTLD_LOCAL);

	if (h != NULL)
		lzma_decode = (stream_buffer_decode_f *)dlsym(h, "lzma_stream_buffer_decode");
}

/*
 * MiniDebugInfo (.gnu_debugdata): an xz stream of an ELF file whose
 * .symtab holds the functions .dynsym lacks (Fedora's; Debian ships
 * none).  liblzma is opened when a file has one, as libstdc++ is for
 * names: the bindings compile libdtrace's sources, and a link would be
 * one more library for each of them to find.
 */
static bool minidebug_find(dt_symfile_t *f)
{
	GElf_Shdr sh;
	Elf_Scn *scn = dt_elf_section(f->sf_elf, ".gnu_debugdata", &sh);
	Elf_Data *data;
	uint8_t *out = NULL;
	lzma_ret r = LZMA_BUF_ERROR;

	if (scn == NULL || (data = elf_rawdata(scn, NULL)) == NULL || data->d_size == 0)
		return false;
	pthread_once(&lzma_once, lzma_init);
	if (lzma_decode == NULL)
		return false;
	/* the output's size is not known: grow until it fits */
	for (size_t cap = data->d_size * 4; r == LZMA_BUF_ERROR && cap <= ((size_t)256 << 20);
	     cap *= 2) {
		uint64_t memlimit = UINT64_MAX;
		size_t in = 0, o = 0;
		uint8_t *p = realloc(out, cap);

		if (p == NULL)
			break;
		out = p;
		r = lzma_decode(&memlimit, 0, NULL, data->d_buf, &in, data->d_size, out, &o, cap);
		if (r == LZMA_OK) {
			if ((f->sf_delf = elf_memory((char *)out, o)) != NULL &&
			    elf_kind(f->sf_delf) == ELF_K_ELF && has_symtab(f->sf_delf)) {
				f->sf_dimage = out;
				return true;
			}
			if (f->sf_delf != NULL)
				elf_end(f->sf_delf);
			f->sf_delf = NULL;
		}
	}
	free(out);
	return false;
}

static int esym_cmp(const void *a, const void *b)
{
	const dt_elfsym_t *x = a, *y = b;

	return x->es_addr < y->es_addr ? -1 : x->es_addr > y->es_addr;
}

/* Add n symbols to f's, sorted again (they may be NULL: nothing added). */
static void syms_add(dt_symfile_t *f, dt_elfsym_t *more, size_t n)
{
	dt_elfsym_t *all;

	if (n > 0 && (all = realloc(f->sf_syms, (f->sf_nsyms + n) * sizeof(*all))) != NULL) {
		memcpy(all + f->sf_nsyms, more, n * sizeof(*all));
		f->sf_syms = all;
		f->sf_nsyms += n;
		qsort(all, f->sf_nsyms, sizeof(*all), esym_cmp);
	}
}

/*
 * The PLT entries of f as symbols name@plt, as gdb and objdump name them:
 * x86-64's .plt holds a resolver stub, then a 16-byte entry for each
 * .rela.plt relocation in order; with IBT, .plt.sec holds them from its
 * start.  A relocation without a symbol (IRELATIVE) names none.
 */
static void plt_syms(dt_symfile_t *f)
{
	GElf_Shdr plt, sec, rela, dsh;
	Elf_Scn *splt = dt_elf_section(f->sf_elf, ".plt", &plt),
		*ssec = dt_elf_section(f->sf_elf, ".plt.sec", &sec);
	Elf_Scn *srela = dt_elf_section(f->sf_elf, ".rela.plt", &rela), *sdyn;
	Elf_Data *rd, *dd;
	dt_elfsym_t *out;
	size_t n, len = 0, k = 0;
	uint64_t base;

	if (srela == NULL || (splt == NULL && ssec == NULL) || rela.sh_entsize == 0 ||
	    (sdyn = elf_getscn(f->sf_elf, rela.sh_link)) == NULL ||
	    gelf_getshdr(sdyn, &dsh) == NULL || (rd = elf_getdata(srela, NULL)) == NULL ||
	    (dd = elf_getdata(sdyn, NULL)) == NULL)
		return;
	n = rela.sh_size / rela.sh_entsize;
	base = ssec != NULL ? sec.sh_addr : plt.sh_addr + 16;
	if (n == 0 || n > 1000000 || (out = calloc(n, sizeof(*out))) == NULL)
		return;
	for (int pass = 0; pass < 2; pass++) {
		char *p = f->sf_pltnames;

		for (size_t i = 0; i < n; i++) {
			GElf_Rela r;
			GElf_Sym s;
			const char *name;

			if (gelf_getrela(rd, (int)i, &r) == NULL || GELF_R_SYM(r.r_info) == 0 ||
			    gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s) == NULL ||
			    (name = elf_strptr(f->sf_elf, dsh.sh_link, s.st_name)) == NULL ||
			    name[0] == '\0')
				continue;
			if (pass == 0) {
				len += strlen(name) + sizeof("@plt");
				continue;
			}
			out[k++] =
			    (dt_elfsym_t){ .es_addr = base + 16 * i, .es_size = 16, .es_name = p };
			p += sprintf(p, "%s@plt", name) + 1;
		}
		if (pass == 0 && (len == 0 || (f->sf_pltnames = malloc(len)) == NULL))
			break;
	}
	syms_add(f, out, k);
	free(out);
}

/*
 * f's symbols: its .symtab; for a file without one, its debug file's
 * .symtab (the same link-time addresses), or .dynsym and MiniDebugInfo's
 * .symtab together, or .dynsym alone; and its PLT entries.
 */
static void file_syms(dt_symfile_t *f)
{
	dt_elfsym_t *mini;
	size_t nmini;

	if (!has_symtab(f->sf_elf) && debug_find(f)) {
		(void)dt_elf_syms(f->sf_delf, true, &f->sf_syms, &f->sf_nsyms);
		plt_syms(f);
		return;
	}
	(void)dt_elf_syms(f->sf_elf, true, &f->sf_syms, &f->sf_nsyms);
	plt_syms(f);
	if (has_symtab(f->sf_elf) || !minidebug_find(f) ||
	    dt_elf_syms(f->sf_delf, true, &mini, &nmini) != 0)
		return;
	syms_add(f, mini, nmini);
	free(mini);
}

int dt_elf_syms_debug(Elf *elf, const char *path, bool ifunc, dt_elfsym_t **syms, size_t *n,
		      dt_elfdebug_t *src)
{
	dt_symfile_t f = { .sf_path = (char *)path, .sf_fd = -1, .sf_dfd = -1, .sf_elf = elf };
	int rc;

	*src = (dt_elfdebug_t){ .ed_fd = -1 };
	if (has_symtab(elf) || !debug_find(&f))
		rc = dt_elf_syms(elf, ifunc, syms, n);
	else
		rc = dt_elf_syms(f.sf_delf, ifunc, syms, n);
	if (rc == 0 && !has_symtab(elf) && f.sf_delf == NULL && minidebug_find(&f)) {
		dt_elfsym_t *mini;
		size_t nmini;

		f.sf_syms = *syms;
		f.sf_nsyms = *n;
		if (dt_elf_syms(f.sf_delf, ifunc, &mini, &nmini) == 0) {
			syms_add(&f, mini, nmini);
			free(mini);
		}
		*syms = f.sf_syms;
		*n = f.sf_nsyms;
	}
	src->ed_fd = f.sf_dfd;
	src->ed_elf = f.sf_delf;
	src->ed_image = f.sf_dimage;
	if (rc == 0) {
		size_t len = 0;
		const char *at;
		char *p;

		for (size_t i = 0; i < *n; i++)
			if ((at = strchr((*syms)[i].es_name, '@')) != NULL &&
			    at > (*syms)[i].es_name)
				len += (size_t)(at - (*syms)[i].es_name) + 1;
		if (len > 0 && (src->ed_names = p = malloc(len)) == NULL) {
			free(*syms);
			*syms = NULL;
			*n = 0;
			dt_elf_debug_free(src);
			return -1;
		}
		for (size_t i = 0; len > 0 && i < *n; i++)
			if ((at = strchr((*syms)[i].es_name, '@')) != NULL &&
			    at > (*syms)[i].es_name) {
				size_t l = (size_t)(at - (*syms)[i].es_name);

				memcpy(p, (*syms)[i].es_name, l);
				p[l] = '\0';
				(*syms)[i].es_name = p;
				p += l + 1;
			}
	}
	return rc;
}

void dt_elf_debug_free(dt_elfdebug_t *src)
{
	if (src->ed_elf != NULL)
		elf_end(src->ed_elf);
	if (src->ed_fd >= 0)
		close(src->ed_fd);
	free(src->ed_image);
	free(src->ed_names);
	*src = (dt_elfdebug_t){ .ed_fd = -1 };
}

/*
 * [vdso]: the kernel's image, the same in every process of the machine,
 * read from dtrace's own (its ELF header is at AT_SYSINFO_EHDR), copied
 * whole (its PT_LOAD segment and its section headers).
 */
static Elf *vdso_elf(dt_symfile_t *f)
{
	const GElf_Ehdr *eh = (const GElf_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const GElf_Phdr *ph;
	size_t size = 0;

	if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	ph = (const GElf_Phdr *)((const char *)eh + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	/* the section headers follow the segment, in the same pages */
	if (eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize > size)
		size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	if (size == 0 || size > (1 << 20) || (f->sf_image = malloc(size)) == NULL)
		return NULL;
	memcpy(f->sf_image, eh, size);
	return elf_memory(f->sf_image, size);
}

/*
 * The file a process maps from start to end, opened as that process sees
 * it: /proc/PID/map_files/START-END is the mapped file itself (replaced or
 * deleted since, or in another mount namespace: a container's), else
 * /proc/PID/root/PATH, else PATH, each only if it is the inode mapped.
 */
static int file_open(const dt_symfile_t *f, pid_t pid, uint64_t start, uint64_t end)
{
	char path[PATH_MAX + 64];
	struct stat st;
	int fd;

	for (int i = 0; i < 3; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
				 (int)pid, start, end);
		else if (i == 1 && snprintf(path, sizeof(path), "/proc/%d/root%s", (int)pid,
					    f->sf_path) >= (int)sizeof(path))
			continue;
		if ((fd = open(i < 2 ? path : f->sf_path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		if (fstat(fd, &st) == 0 && (f->sf_ino == 0 || (uint64_t)st.st_ino == f->sf_ino))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * Read the file's symbols and headers at its first look-up (through the
 * mapping m of pid): false if it has none.
 */
static bool file_read(dt_symfile_t *f, pid_t pid, const dt_symmap_t *m)
{
	if (!f->sf_read) {
		f->sf_read = true;
		if (elf_version(EV_CURRENT) == EV_NONE)
			return false;
		if (strcmp(f->sf_path, "[vdso]") == 0)
			f->sf_elf = vdso_elf(f);
		else if ((f->sf_fd = file_open(f, pid, m->sm_start, m->sm_end)) >= 0)
			f->sf_elf = elf_begin(f->sf_fd, ELF_C_READ_MMAP, NULL);
		if (f->sf_elf != NULL && elf_kind(f->sf_elf) == ELF_K_ELF) {
			file_syms(f);
			(void)dt_elf_loads(f->sf_elf, &f->sf_load, &f->sf_nload);
		}
	}
	return f->sf_syms != NULL && f->sf_load != NULL;
}

static void proc_free(dt_symproc_t *p)
{
	free(p->sp_perf);
	free(p->sp_maps);
	free(p);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The executable pid runs (its device and inode), or false if it is gone. */
static bool proc_exe(pid_t pid, dev_t *dev, ino_t *ino)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (stat(path, &st) != 0)
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

/*
 * s, kept for the handle's life, once: the names a look-up gives stay valid
 * when the maps or a perf map they came from are read again.
 */
static const char *intern(struct dt_symtab *t, const char *s)
{
	const char *k;
	char *c;

	if (t->st_strs == NULL && (t->st_strs = dt_strset_create(&t->st_arena)) == NULL)
		return NULL;
	if ((k = dt_strset_get(t->st_strs, s)) != NULL)
		return k;
	if ((c = dt_arena_strndup(&t->st_arena, s, strlen(s))) == NULL ||
	    dt_strset_add(t->st_strs, c, c, NULL) < 0)
		return NULL;
	return c;
}

/* Read the mappings of pid into p (replacing what it held): 0, or -1. */
static int read_maps(struct dt_symtab *t, dt_symproc_t *p)
{
	char path[64], line[PATH_MAX + 256];
	dt_symmap_t *maps = NULL;
	size_t n = 0, cap = 0;
	FILE *fp;
	dev_t dev = 0, dev2 = 0;
	ino_t ino = 0, ino2 = 0;

	p->sp_readat = p->sp_checkat = now_ns();
	p->sp_missed = false;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->sp_pid);
	(void)proc_exe(p->sp_pid, &dev, &ino);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long start, end, pgoff, inode;
		unsigned int major, minor;
		char perms[8];
		int pos = 0;
		char *file, *slash;
		const char *name;
		size_t len;
		bool anon;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &major, &minor, &inode, &pos) != 7 ||
		    pos == 0)
			continue;
		file = line + pos;
		file[strcspn(file, "\n")] = '\0';
		/* anonymous memory: only executable memory (JIT code) has names, from perf-PID.map */
		anon = file[0] == '\0' || strncmp(file, "[anon", 5) == 0;
		if (anon && perms[2] != 'x')
			continue;
		if (anon)
			file[0] = '\0';
		len = strlen(file);
		if (len > 10 && strcmp(file + len - 10, " (deleted)") == 0)
			file[len -= 10] = '\0';
		slash = strrchr(file, '/');
		if ((name = intern(t, slash != NULL ? slash + 1 : file)) == NULL ||
		    dt_grow(&maps, &cap, n, sizeof(*maps), 16) != 0) {
			free(maps);
			fclose(fp);
			return -1;
		}
		maps[n] =
		    (dt_symmap_t){ start,
				   end,
				   pgoff,
				   start,
				   file[0] == '/' || strcmp(file, "[vdso]") == 0
				       ? file_of(t, file, (uint64_t)major << 32 | minor, inode)
				       : NULL,
				   name,
				   anon,
				   perms[2] == 'x' };
		/* the object starts at its first mapping */
		for (size_t j = 0; j < n; j++)
			if (maps[j].sm_file == maps[n].sm_file && maps[n].sm_file != NULL) {
				maps[n].sm_base = maps[j].sm_base;
				break;
			}
		n++;
	}
	fclose(fp);
	/*
	 * An exited process (a zombie maps nothing): keep what it had.  The
	 * kernel gives the file a page at a time (stdio reads it 1 KB at a
	 * time), each read while the process still has its memory: one that
	 * exits or execs while it is read ends it early, without the last
	 * mappings ([vdso]).  Its executable is there after the read only if
	 * its memory was there for all of it; if not, what it had is kept,
	 * and the read only serves if there was nothing.
	 */
	if (n == 0 || ((!proc_exe(p->sp_pid, &dev2, &ino2) || dev2 != dev || ino2 != ino) &&
		       p->sp_nmaps > 0)) {
		free(maps);
		return -1;
	}
	free(p->sp_maps);
	p->sp_maps = maps;
	p->sp_nmaps = n;
	p->sp_exedev = dev;
	p->sp_exeino = ino;
	return 0;
}

/* The mapping that holds addr, or NULL: /proc/PID/maps is sorted and without overlaps. */
static const dt_symmap_t *map_at(const dt_symproc_t *p, uint64_t addr)
{
	size_t lo = 0, hi = p->sp_nmaps;

	while (lo < hi) { /* lo: the first mapping that starts after addr */
		size_t mid = (lo + hi) / 2;

		if (p->sp_maps[mid].sm_start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < p->sp_maps[lo - 1].sm_end ? &p->sp_maps[lo - 1] : NULL;
}

/* The process pid as known (*fresh: its maps were just read), or NULL out of memory. */
static dt_symproc_t *proc_of(dtrace_hdl_t *dtp, pid_t pid, bool *fresh)
{
	struct dt_symtab *t = dtp->dt_usyms;
	dt_symproc_t *p;

	*fresh = false;
	if (t == NULL && (t = dtp->dt_usyms = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	for (p = t->st_procs; p != NULL && p->sp_pid != pid; p = p->sp_next)
		;
	if (p != NULL)
		return p;
	if (t->st_nprocs >= DT_SYM_MAXPROCS) {
		while ((p = t->st_procs) != NULL) {
			t->st_procs = p->sp_next;
			proc_free(p);
		}
		t->st_nprocs = 0;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->sp_pid = pid;
	p->sp_next = t->st_procs;
	t->st_procs = p;
	t->st_nprocs++;
	(void)read_maps(t, p);
	*fresh = true;
	return p;
}

static const dt_symmap_t *lookup_map(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr)
{
	bool fresh;
	dt_symproc_t *p = proc_of(dtp, pid, &fresh);
	const dt_symmap_t *m;
	uint64_t now;
	dev_t dev;
	ino_t ino;

	if (p == NULL)
		return NULL;
	m = map_at(p, addr);
	now = now_ns();
	if (fresh)
		return m;
	/*
	 * An address outside what is known (a library loaded, memory mapped
	 * since): read again, but not when a miss read them less than 100 ms
	 * ago (an address nothing maps, uaddr(12345), in every record must not
	 * read the maps at every print).  An address inside: read again if
	 * the process runs another executable (it exec'd: what is known is
	 * another program's), looked at at most every 100 ms.  An exited
	 * process keeps its maps.
	 */
	if (m == NULL) {
		if (p->sp_missed && now - p->sp_readat < 100000000ULL)
			return NULL;
		if (read_maps(dtp->dt_usyms, p) == 0)
			m = map_at(p, addr);
		p->sp_missed = true;
	} else if (now - p->sp_checkat >= 100000000ULL) {
		p->sp_checkat = now;
		if (proc_exe(pid, &dev, &ino) && (dev != p->sp_exedev || ino != p->sp_exeino) &&
		    read_maps(dtp->dt_usyms, p) == 0)
			m = map_at(p, addr);
	}
	return m;
}

void dt_usym_remember(dtrace_hdl_t *dtp, pid_t pid)
{
	bool fresh;
	dt_symproc_t *p = proc_of(dtp, pid, &fresh);

	if (p != NULL && !fresh)
		(void)read_maps(dtp->dt_usyms, p);
}

static int perf_cmp(const void *a, const void *b)
{
	const dt_perfsym_t *x = a, *y = b;

	if (x->ps_start != y->ps_start)
		return x->ps_start < y->ps_start ? -1 : 1;
	return x->ps_line < y->ps_line ? -1 : x->ps_line > y->ps_line;
}

/*
 * Where pid's JIT writes its map: /tmp/perf-N.map, N its PID in its own
 * namespace (NSpid's last: a container's), under its root
 * (/proc/PID/root), else in ours; as perf looks for it.  True with the
 * file's stat in st.
 */
static bool perf_path(dt_symproc_t *p, char *path, size_t len, struct stat *st)
{
	char line[256];
	int nspid = (int)p->sp_pid;
	FILE *fp;

	snprintf(path, len, "/proc/%d/status", (int)p->sp_pid);
	if (p->sp_nspid != 0)
		nspid = p->sp_nspid;
	else if ((fp = fopen(path, "re")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL) {
			char *last;

			if (strncmp(line, "NSpid:", 6) != 0)
				continue;
			line[strcspn(line, "\n")] = '\0';
			if ((last = strrchr(line, '\t')) != NULL ||
			    (last = strrchr(line, ' ')) != NULL)
				nspid = p->sp_nspid = atoi(last + 1);
			break;
		}
		fclose(fp);
	}
	snprintf(path, len, "/proc/%d/root/tmp/perf-%d.map", (int)p->sp_pid, nspid);
	if (stat(path, st) == 0)
		return true;
	snprintf(path, len, "/tmp/perf-%d.map", (int)p->sp_pid);
	return stat(path, st) == 0;
}

/*
 * Read /tmp/perf-PID.map (lines "START SIZE name", hex without 0x, as V8's
 * --perf-basic-prof and Python 3.12's perf trampoline write them) when it
 * changed since it was read last: a JIT appends as it compiles.
 */
static void perf_read(struct dt_symtab *t, dt_symproc_t *p)
{
	char path[64], line[4096];
	dt_perfsym_t *syms = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	FILE *fp;

	if (!perf_path(p, path, sizeof(path), &st) ||
	    (st.st_size == p->sp_perfsize && st.st_mtim.tv_sec == p->sp_perfmtime.tv_sec &&
	     st.st_mtim.tv_nsec == p->sp_perfmtime.tv_nsec) ||
	    (p->sp_perfmod = intern(t, strrchr(path, '/') + 1)) == NULL ||
	    (fp = fopen(path, "re")) == NULL)
		return;
	p->sp_perfsize = st.st_size;
	p->sp_perfmtime = st.st_mtim;
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *e1, *e2, *name;
		unsigned long long start = strtoull(line, &e1, 16), size;
		const char *k;

		if (e1 == line || *e1 != ' ')
			continue;
		size = strtoull(e1 + 1, &e2, 16);
		if (e2 == e1 + 1 || *e2 != ' ' || size == 0)
			continue;
		name = e2 + 1;
		name[strcspn(name, "\n")] = '\0';
		if ((k = intern(t, name)) == NULL ||
		    dt_grow(&syms, &cap, n, sizeof(*syms), 64) != 0)
			break;
		syms[n] = (dt_perfsym_t){ start, size, n, k };
		n++;
	}
	fclose(fp);
	if (n > 0)
		qsort(syms, n, sizeof(*syms), perf_cmp);
	free(p->sp_perf);
	p->sp_perf = syms;
	p->sp_nperf = n;
}

static const dt_perfsym_t *perf_search(const dt_symproc_t *p, uint64_t addr)
{
	const dt_perfsym_t *best = NULL;
	size_t lo = 0, hi = p->sp_nperf;

	while (lo < hi) { /* lo: the first entry that starts after addr */
		size_t mid = (lo + hi) / 2;

		if (p->sp_perf[mid].ps_start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i-- > 0 && k < 64; k++) {
		const dt_perfsym_t *s = &p->sp_perf[i];

		if (addr - s->ps_start < s->ps_size && (best == NULL || s->ps_line > best->ps_line))
			best = s;
	}
	return best;
}

/*
 * The perf-PID.map entry that holds addr (the last written, where they
 * overlap), or NULL.  The map is read again for an address it does not
 * name (a JIT appends as it compiles), at most every 100 ms for such
 * misses, as the maps are.
 */
static const dt_perfsym_t *perf_find(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr)
{
	bool fresh;
	dt_symproc_t *p = proc_of(dtp, pid, &fresh);
	const dt_perfsym_t *s;
	uint64_t now;

	if (p == NULL)
		return NULL;
	if ((s = perf_search(p, addr)) != NULL ||
	    ((now = now_ns()) - p->sp_perfat < 100000000ULL && p->sp_perfat != 0))
		return s;
	p->sp_perfat = now;
	perf_read(dtp->dt_usyms, p);
	return perf_search(p, addr);
}

/*
 * JIT code named by the process's perf map into u: true if it names addr.
 * The module is the map file's name, as perf report shows the object of
 * such a frame ("perf-1234.map").
 */
static bool perf_name(dtrace_hdl_t *dtp, pid_t pid, const dt_symmap_t *m, uint64_t addr,
		      dt_usym_t *u)
{
	const dt_perfsym_t *ps = perf_find(dtp, pid, addr);
	bool fresh;
	const dt_symproc_t *p = proc_of(dtp, pid, &fresh);

	if (ps == NULL || p == NULL || p->sp_perfmod == NULL)
		return false;
	u->us_mod = p->sp_perfmod;
	u->us_modbase = m->sm_start;
	u->us_name = ps->ps_name;
	u->us_symaddr = ps->ps_start;
	return true;
}

static size_t underscores(const char *name)
{
	return strspn(name, "_");
}

/*
 * Of the symbols at s's address that hold as much, the name a user
 * calls it by: the fewest leading underscores, then the shortest (malloc,
 * not __libc_malloc), not counting a version suffix (a debug file's
 * .symtab has "pthread_kill@GLIBC_2.2.5").
 */
static const dt_elfsym_t *best_alias(const dt_symfile_t *f, const dt_elfsym_t *s)
{
	const dt_elfsym_t *best = s, *first = f->sf_syms, *end = f->sf_syms + f->sf_nsyms;

	while (s > first && s[-1].es_addr == best->es_addr)
		s--;
	for (; s < end && s->es_addr == best->es_addr; s++) {
		size_t u = underscores(s->es_name), bu = underscores(best->es_name);

		if (s->es_size >= best->es_size &&
		    (u < bu || (u == bu && strcspn(s->es_name, "@") < strcspn(best->es_name, "@"))))
			best = s;
	}
	return best;
}

int dt_usym_lookup(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr, dt_usym_t *u)
{
	const dt_symmap_t *m = pid > 0 ? lookup_map(dtp, pid, addr) : NULL;
	dt_symfile_t *f;
	const dt_elfsym_t *s;
	uint64_t foff, vaddr = 0;
	bool in = false;

	memset(u, 0, sizeof(*u));
	if (m == NULL)
		return -1;
	if (m->sm_anon) /* memory the map does not name has no object at all (0x...) */
		return perf_name(dtp, pid, m, addr, u) ? 0 : -1;
	u->us_mod = m->sm_name;
	u->us_modbase = m->sm_base;
	if ((f = m->sm_file) == NULL || !file_read(m->sm_file, pid, m)) {
		/* not ELF: JIT code in a file's memory (a memfd that is mapped twice) */
		if (m->sm_exec &&
		    (f == NULL || f->sf_elf == NULL || elf_kind(f->sf_elf) != ELF_K_ELF))
			(void)perf_name(dtp, pid, m, addr, u);
		return 0;
	}
	/* the address in the file, then where the file's headers put that offset */
	foff = addr - m->sm_start + m->sm_pgoff;
	for (size_t i = 0; i < f->sf_nload && !in; i++) {
		const GElf_Phdr *ph = &f->sf_load[i];

		if (foff >= ph->p_offset && foff < ph->p_offset + ph->p_filesz) {
			vaddr = foff - ph->p_offset + ph->p_vaddr;
			in = true;
		}
	}
	if (!in || (s = dt_elf_sym_find(f->sf_syms, f->sf_nsyms, vaddr)) == NULL)
		return 0;
	s = best_alias(f, s);
	u->us_name = sym_name(f, s);
	u->us_symaddr = addr - (vaddr - s->es_addr);
	return 0;
}

void dt_usym_str(const dt_usym_t *u, bool known, uint64_t addr, char *buf, size_t len)
{
	if (!known || u->us_mod == NULL)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (u->us_name == NULL)
		snprintf(buf, len, "%s`0x%" PRIx64, u->us_mod, addr);
	else if (addr > u->us_symaddr)
		snprintf(buf, len, "%s`%s+0x%" PRIx64, u->us_mod, u->us_name, addr - u->us_symaddr);
	else
		snprintf(buf, len, "%s`%s", u->us_mod, u->us_name);
}

void dt_uaddr_str(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr, char *buf, size_t len)
{
	dt_usym_t u;
	bool known = dt_usym_lookup(dtp, pid, addr, &u) == 0;

	dt_usym_str(&u, known, addr, buf, len);
}

/* ---------------------------------------------------------------- kernel */

static int ksym_cmp(const void *a, const void *b)
{
	const dt_ksym_t *x = a, *y = b;

	if (x->ks_addr != y->ks_addr)
		return x->ks_addr < y->ks_addr ? -1 : 1;
	/* equal addresses keep the file's order (qsort is not stable) */
	return x->ks_name < y->ks_name ? -1 : x->ks_name > y->ks_name;
}

/*
 * /proc/kallsyms into t, sorted: every symbol bounds the one before it,
 * functions (t, T, w, W) have names.  Without the addresses (kptr_restrict,
 * no CAP_SYSLOG: all zero) nothing is kept.
 */
static void kread(struct dt_symtab *t)
{
	char line[1024];
	dt_ksym_t *syms = NULL;
	size_t n = 0, cap = 0, nlen = 0, ncap = 0;
	char *names = NULL;
	FILE *fp;

	t->st_kread = true;
	if ((fp = fopen("/proc/kallsyms", "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		/* "ADDR TYPE NAME" and "\t[MODULE]" for a module's (by hand: sscanf is 3x slower) */
		char *end, *name, *mod, type;
		uint64_t addr = strtoull(line, &end, 16);
		size_t ln, lm;

		if (end == line || end[0] != ' ' || end[1] == '\0' || end[2] != ' ' || addr == 0)
			continue;
		type = end[1];
		name = end + 3;
		name[strcspn(name, "\n")] = '\0';
		if ((mod = strchr(name, '\t')) != NULL) {
			*mod++ = '\0';
			if (mod[0] == '[')
				mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
		if (name[0] == '\0')
			continue;
		ln = strlen(name);
		lm = mod != NULL ? strlen(mod) + 1 : 0;
		if (dt_grow(&syms, &cap, n, sizeof(*syms), 4096) != 0)
			break;
		while (nlen + ln + 1 + lm > ncap && dt_grow(&names, &ncap, ncap, 1, 1 << 20) == 0)
			;
		if (nlen + ln + 1 + lm > ncap)
			break;
		memcpy(names + nlen, name, ln + 1);
		if (mod != NULL)
			memcpy(names + nlen + ln + 1, mod, lm);
		/* offsets into names (it moves as it grows); vmlinux's, all but modules', as -1 */
		syms[n] = (dt_ksym_t){ addr, (const char *)(uintptr_t)nlen,
				       (const char *)(mod != NULL ? nlen + ln + 1 : UINTPTR_MAX), 0,
				       strchr("tTwW", type) != NULL };
		nlen += ln + 1 + lm;
		n++;
	}
	fclose(fp);
	for (size_t i = 0; i < n; i++) {
		syms[i].ks_name = names + (uintptr_t)syms[i].ks_name;
		syms[i].ks_mod = (uintptr_t)syms[i].ks_mod == UINTPTR_MAX
				     ? "vmlinux"
				     : names + (uintptr_t)syms[i].ks_mod;
	}
	if (n > 0)
		qsort(syms, n, sizeof(*syms), ksym_cmp);
	/* a module's base: its first symbol, the lowest (the distinct modules are few) */
	const char **mods = NULL;
	uint64_t *bases = NULL;
	size_t nm = 0, mcap = 0, bcap = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < nm && strcmp(mods[j], syms[i].ks_mod) != 0)
			j++;
		if (j == nm && dt_grow(&mods, &mcap, nm, sizeof(*mods), 8) == 0 &&
		    dt_grow(&bases, &bcap, nm, sizeof(*bases), 8) == 0) {
			mods[nm] = syms[i].ks_mod;
			bases[nm++] = syms[i].ks_addr;
		}
		syms[i].ks_modbase = j < nm ? bases[j] : syms[i].ks_addr;
	}
	free(mods);
	free(bases);
	t->st_ksyms = syms;
	t->st_nksyms = n;
	t->st_knames = names;
}

int dt_ksym_lookup(dtrace_hdl_t *dtp, uint64_t addr, dt_usym_t *u)
{
	struct dt_symtab *t = dtp->dt_usyms;
	const dt_ksym_t *s, *best = NULL;
	size_t lo = 0, hi;

	memset(u, 0, sizeof(*u));
	if (t == NULL && (t = dtp->dt_usyms = calloc(1, sizeof(*t))) == NULL)
		return -1;
	if (!t->st_kread)
		kread(t);
	for (hi = t->st_nksyms; lo < hi;) { /* lo: the first symbol that starts after addr */
		size_t mid = (lo + hi) / 2;

		if (t->st_ksyms[mid].ks_addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	s = &t->st_ksyms[lo - 1];
	/*
	 * The last symbol has no end: it holds its own page at most, unless
	 * it is a BPF image's (a program's, a trampoline's: the highest
	 * addresses).  Those the kernel packs in 2 MB regions of JIT images,
	 * each of which has a symbol, so code past the last one's start in its
	 * region is its own: a program's frame can lie pages past its start.
	 */
	if (lo == t->st_nksyms) {
		int shift = strcmp(s->ks_mod, "bpf") == 0 ? 21 : 12;

		if ((addr >> shift) != (s->ks_addr >> shift))
			return -1;
	}
	/* of the functions at that address, the name a user calls it by, as best_alias */
	for (const dt_ksym_t *a = s; a >= t->st_ksyms && a->ks_addr == s->ks_addr; a--) {
		if (!a->ks_text)
			continue;
		if (best == NULL || underscores(a->ks_name) < underscores(best->ks_name) ||
		    (underscores(a->ks_name) == underscores(best->ks_name) &&
		     strlen(a->ks_name) <= strlen(best->ks_name)))
			best = a;
	}
	if (best == NULL)
		return -1;
	u->us_mod = best->ks_mod;
	u->us_name = best->ks_name;
	u->us_symaddr = best->ks_addr;
	u->us_modbase = best->ks_modbase;
	return 0;
}

void dt_kaddr_str(dtrace_hdl_t *dtp, uint64_t addr, char *buf, size_t len)
{
	dt_usym_t u;

	/* illumos dtrace_addr2str (dt_subr.c): mod`sym+0xoff, mod`sym, or 0xaddr */
	if (dt_ksym_lookup(dtp, addr, &u) != 0)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (addr != u.us_symaddr)
		snprintf(buf, len, "%s`%s+0x%" PRIx64, u.us_mod, u.us_name, addr - u.us_symaddr);
	else
		snprintf(buf, len, "%s`%s", u.us_mod, u.us_name);
}

void dt_usym_free(dtrace_hdl_t *dtp)
{
	struct dt_symtab *t = dtp->dt_usyms;
	dt_symproc_t *p;
	dt_symfile_t *f;

	if (t == NULL)
		return;
	while ((p = t->st_procs) != NULL) {
		t->st_procs = p->sp_next;
		proc_free(p);
	}
	while ((f = t->st_files) != NULL) {
		t->st_files = f->sf_next;
		for (size_t i = 0; f->sf_disp != NULL && i < f->sf_nsyms; i++)
			if (f->sf_disp[i] != f->sf_syms[i].es_name)
				free((char *)f->sf_disp[i]);
		free(f->sf_disp);
		free(f->sf_syms);
		free(f->sf_load);
		if (f->sf_delf != NULL)
			elf_end(f->sf_delf);
		if (f->sf_dfd >= 0)
			close(f->sf_dfd);
		free(f->sf_dimage);
		if (f->sf_elf != NULL)
			elf_end(f->sf_elf);
		free(f->sf_image);
		free(f->sf_pltnames);
		if (f->sf_fd >= 0)
			close(f->sf_fd);
		free(f->sf_path);
		free(f);
	}
	free(t->st_ksyms);
	free(t->st_knames);
	dt_arena_free(&t->st_arena);
	free(t);
	dtp->dt_usyms = NULL;
}
