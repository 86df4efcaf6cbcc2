/*
 * dt_prov_pid.c -- the pid provider: pid<N>:module:function:entry, :return
 * and :OFFSET, any function of any file process N maps, made on demand
 * from a description (as illumos makes them, dt_pid.c): nothing is listed
 * until a description names pid<N>.
 *
 * Modules are the executable file mappings of /proc/N/maps.  A module
 * matches by its full path, its base name ("libc.so.6"), the base name cut
 * after ".so" ("libc.so", as illumos' libproc matches an unversioned
 * name), or "a.out" for the executable; a probe's module is the name the
 * description gave, or with a glob the base name.  Functions are the
 * defined, sized STT_FUNC symbols of .symtab, else of its separate debug
 * file (by build-id or .gnu_debuglink), else .dynsym and MiniDebugInfo's,
 * as stacks find names (dt_elf_syms_debug); a
 * name several symbol versions define is one probe on each.  With a glob,
 * aliases (symbols at one address) make one probe, of the name with the
 * fewest leading underscores, and _init and _fini are left out, as illumos
 * does.  An STT_GNU_IFUNC symbol (a resolver) is the implementation the
 * process's dynamic linker chose, read from the file's GOT slot in the
 * process: entry, and return by a uretprobe (its size is unknown).
 *
 * entry is a uprobe on the first instruction: arg0..arg5 are rdi, rsi,
 * rdx, rcx, r8, r9, and arg6 on are read from the stack.  return is a
 * uprobe on each ret of the function and on each jmp that leaves it (a
 * tail call), found by decoding it (kernel-shim/ks_insn_x86_64.c): arg0 is
 * that instruction's offset in the function and arg1 the return value
 * (rax), as illumos gives them.  A function that does not decode gets a
 * uretprobe instead, where arg0 is -1.  OFFSET (hexadecimal, as illumos)
 * must be an instruction boundary.  The kernel refuses a uprobe on some
 * instructions (lock prefixes, int3...; ks_uprobe_ok): a function whose
 * first instruction is one is listed but not attached when a glob named
 * it, and refused with an error when the description named it.
 *
 * Probes share programs (groups, dt_provider.h): the entry and offset
 * probes of one file in one process have one program, attached with one
 * uprobe_multi link restricted to process N (one more for uretprobes);
 * their return probes another.  Each probe has a key in its file (pi_key,
 * given as it is made); the attach cookie of each site is the key << 32,
 * or'ed for a return site with its offset (0xffffffff: a uretprobe).  The
 * guard reads the key back, a return's arg0 the offset.  A probe with no
 * site (its first instruction refused) is in no link and no program.
 * The descriptions given are kept and
 * read again when process N maps new files (a dlopen()), at the
 * consumer's rescan.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dt_elf.h"
#include "dt_provider.h"

/* With a glob name on one function: at most this many offset probes. */
#define PID_MAXOFFSETS 10000

/* ---------------------------------------------------------------- descriptions */

/* The process of a provider name pid<N>, or 0 when it is not one. */
/*
 * A pid probe description that cannot be made: the handle's error, and the
 * tag illumos gives it (dt_pid.c: D_PROC_NAME, D_PROC_OFF, D_PROC_ALIGN,
 * D_PROC_FUNC, D_PROC_CREATEFAIL), which the compiler reports it under
 * (dt_probe_compile).  Returns -1.
 */
static int __attribute__((format(printf, 4, 5)))
pid_error(dtrace_hdl_t *dtp, int err, const char *tag, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dtp->dt_ptag = tag;
	return dt_set_errmsg(dtp, err, "%s", msg);
}

static pid_t desc_pid(const char *prov)
{
	char *end;
	long v;

	if (strncmp(prov, "pid", 3) != 0 || prov[3] < '1' || prov[3] > '9')
		return 0;
	v = strtol(prov + 3, &end, 10);
	return *end == '\0' && v > 0 && v <= INT_MAX ? (pid_t)v : 0;
}

static bool is_glob(const char *s)
{
	return s[0] == '\0' || strpbrk(s, "*?[\\") != NULL;
}

static bool gmatch(const char *pattern, const char *s)
{
	return pattern[0] == '\0' || fnmatch(pattern, s, 0) == 0;
}

/* The probes there are already: hashes of their four names (FNV-1a). */
typedef struct keyset {
	uint64_t *ks_h;
	size_t ks_n, ks_cap;
} keyset_t;

static uint64_t key_hash(const char *mod, const char *func, const char *name)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[3] = { mod, func, name };

	for (int i = 0; i < 3; i++) {
		for (const char *c = parts[i]; *c != '\0'; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h | 1; /* 0: an empty slot */
}

static bool keyset_has(const keyset_t *k, uint64_t h)
{
	if (k->ks_cap == 0)
		return false;
	for (size_t i = h & (k->ks_cap - 1);; i = (i + 1) & (k->ks_cap - 1)) {
		if (k->ks_h[i] == 0)
			return false;
		if (k->ks_h[i] == h)
			return true;
	}
}

static int keyset_add(keyset_t *k, uint64_t h)
{
	if (2 * (k->ks_n + 1) > k->ks_cap) {
		size_t nc = k->ks_cap ? 2 * k->ks_cap : 1024;
		uint64_t *nh = calloc(nc, sizeof(*nh));

		if (nh == NULL)
			return -1;
		for (size_t i = 0; i < k->ks_cap; i++) {
			if (k->ks_h[i] == 0)
				continue;
			for (size_t j = k->ks_h[i] & (nc - 1);; j = (j + 1) & (nc - 1))
				if (nh[j] == 0) {
					nh[j] = k->ks_h[i];
					break;
				}
		}
		free(k->ks_h);
		k->ks_h = nh;
		k->ks_cap = nc;
	}
	for (size_t i = h & (k->ks_cap - 1);; i = (i + 1) & (k->ks_cap - 1)) {
		if (k->ks_h[i] == h)
			return 0;
		if (k->ks_h[i] == 0) {
			k->ks_h[i] = h;
			k->ks_n++;
			return 0;
		}
	}
}

/* ---------------------------------------------------------------- functions */

/* A function's code decoded: its instruction starts and its return sites. */
typedef struct fcode {
	uint8_t *fc_code;
	size_t fc_size;
	uint32_t *fc_insns; /* offsets of the instructions decoded */
	size_t fc_ninsns;
	uint32_t *fc_rets; /* offsets of its rets and tail-call jmps */
	size_t fc_nrets;
	bool fc_whole;	  /* decoded to its end */
	bool fc_first_ok; /* the kernel takes a uprobe on its first instruction */
	ks_insn_t fc_first;
} fcode_t;

static void fcode_free(fcode_t *fc)
{
	free(fc->fc_code);
	free(fc->fc_insns);
	free(fc->fc_rets);
	memset(fc, 0, sizeof(*fc));
}

/* A ret (c3, c2 iw, cb, ca iw), or a jmp (e9, eb) out of [0, size): a return site. */
static bool leaves(const ks_insn_t *in, const uint8_t *p, uint32_t off, size_t size)
{
	int64_t rel, to;

	if (in->in_vex || in->in_map != 0)
		return false;
	switch (in->in_op) {
	case 0xc3:
	case 0xc2:
	case 0xcb:
	case 0xca: return true;
	case 0xe9:
		if (in->in_imm_len != 4)
			return false;
		rel = (int32_t)((uint32_t)p[in->in_imm_off] | (uint32_t)p[in->in_imm_off + 1] << 8 |
				(uint32_t)p[in->in_imm_off + 2] << 16 |
				(uint32_t)p[in->in_imm_off + 3] << 24);
		break;
	case 0xeb: rel = (int8_t)p[in->in_imm_off]; break;
	default: return false;
	}
	to = (int64_t)off + in->in_len + rel;
	return to < 0 || to >= (int64_t)size;
}

/* Read and decode the function at file offset foff, size bytes: 0, or -1 (no memory, unreadable). */
static int fcode_read(int fd, uint64_t foff, size_t size, fcode_t *fc)
{
	size_t cap = 0, rcap = 0;
	uint32_t off = 0;

	memset(fc, 0, sizeof(*fc));
	if (size == 0) { /* an IFUNC's implementation: its first instruction only */
		ssize_t n;
		ks_insn_t in;

		if ((fc->fc_code = malloc(15)) == NULL ||
		    (fc->fc_insns = malloc(sizeof(uint32_t))) == NULL ||
		    (n = pread(fd, fc->fc_code, 15, (off_t)foff)) <= 0) {
			fcode_free(fc);
			return -1;
		}
		fc->fc_size = (size_t)n;
		if (ks_insn_decode(fc->fc_code, (size_t)n, &in) > 0) {
			fc->fc_first = in;
			fc->fc_first_ok = ks_uprobe_ok(&in);
			fc->fc_insns[fc->fc_ninsns++] = 0;
		}
		return 0; /* not whole: a uretprobe for its return */
	}
	if (size > (1u << 24) || (fc->fc_code = malloc(size)) == NULL)
		return -1;
	if (pread(fd, fc->fc_code, size, (off_t)foff) != (ssize_t)size) {
		fcode_free(fc);
		return -1;
	}
	fc->fc_size = size;
	while (off < size) {
		ks_insn_t in;
		int n = ks_insn_decode(fc->fc_code + off, size - off, &in);

		if (n <= 0)
			break;
		if (off == 0) {
			fc->fc_first = in;
			fc->fc_first_ok = ks_uprobe_ok(&in);
		}
		if (dt_grow(&fc->fc_insns, &cap, fc->fc_ninsns, sizeof(uint32_t), 64) != 0) {
			fcode_free(fc);
			return -1;
		}
		fc->fc_insns[fc->fc_ninsns++] = off;
		if (leaves(&in, fc->fc_code + off, off, size) && ks_uprobe_ok(&in)) {
			if (dt_grow(&fc->fc_rets, &rcap, fc->fc_nrets, sizeof(uint32_t), 8) != 0) {
				fcode_free(fc);
				return -1;
			}
			fc->fc_rets[fc->fc_nrets++] = off;
		}
		off += (uint32_t)n;
	}
	fc->fc_whole = off == size;
	if (fc->fc_ninsns == 0) { /* not even the first: the kernel would not take it either */
		fc->fc_first_ok = false;
	}
	return 0;
}

static bool is_insn(const fcode_t *fc, uint64_t off)
{
	size_t lo = 0, hi = fc->fc_ninsns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fc->fc_insns[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fc->fc_ninsns && fc->fc_insns[lo] == off;
}

/* ---------------------------------------------------------------- making probes */

typedef struct pctx {
	dtrace_hdl_t *pc_dtp;
	const dtrace_probedesc_t *pc_desc;
	pid_t pc_pid;
	dt_ptab_t pc_w;
	bool pc_got; /* pc_w taken from the handle */
	keyset_t pc_keys;
	/* the module being read */
	const char *pc_mod;  /* the probes' module name */
	const char *pc_path; /* pi_path: in the handle's probe arena */
	int pc_fd;
	uint64_t pc_start, pc_pgoff; /* the executable mapping: its address and file offset */
	GElf_Phdr *pc_load;
	size_t pc_nload;
	size_t pc_noffsets;
	const char *pc_gentry, *pc_greturn; /* the module's groups: in the probe arena */
	uint32_t pc_key;		    /* the next probe's key in them */
} pctx_t;

/* Add probe func:name with the given sites, unless it is there already: 0, or -1. */
static int add_probe(pctx_t *pc, const char *func, const char *name, dt_pkind_t kind,
		     dt_usite_t *sites)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_pid, .pi_kind = kind, .pi_pid = pc->pc_pid };
	uint64_t h = key_hash(pc->pc_mod, func, name);

	if (keyset_has(&pc->pc_keys, h))
		return 0;
	pi.pi_path = pc->pc_path;
	pi.pi_sites = sites;
	pi.pi_group = kind == DT_PK_PID_RETURN ? pc->pc_greturn : pc->pc_gentry;
	pi.pi_key = pc->pc_key++;
	if (keyset_add(&pc->pc_keys, h) != 0 ||
	    dt_ptab_add(&pc->pc_w, pc->pc_desc->dtpd_provider, pc->pc_mod, func, name, &pi) != 0)
		return dt_set_errno(pc->pc_dtp, EDT_NOMEM);
	return 0;
}

static dt_usite_t *site(pctx_t *pc, uint64_t foff, uint64_t cookie, dt_usite_t *next)
{
	dt_usite_t *s = dt_arena_alloc(pc->pc_w.pt_arena, sizeof(*s));

	if (s != NULL) {
		s->us_off = foff;
		s->us_cookie = cookie;
		s->us_next = next;
	}
	return s;
}

static const char *refusal(const ks_insn_t *in)
{
	for (int k = 0; k < in->in_npfx; k++)
		if (in->in_pfx[k] == 0xf0)
			return "it has a lock prefix";
	for (int k = 0; k < in->in_npfx; k++)
		if (in->in_pfx[k] == 0x26 || in->in_pfx[k] == 0x2e || in->in_pfx[k] == 0x36 ||
		    in->in_pfx[k] == 0x3e)
			return "it has a segment prefix";
	return "the kernel does not single-step that opcode";
}

/*
 * The probes of one function (every address a symbol of that name has:
 * versions) that the description's name asks for.  explicit: the
 * description named this function (errors are the user's to see).
 */
static int func_probes(pctx_t *pc, const char *func, const uint64_t *addrs, const uint64_t *sizes,
		       size_t n, bool explicit)
{
	const char *name = pc->pc_desc->dtpd_name;
	dtrace_hdl_t *dtp = pc->pc_dtp;
	dt_usite_t *entry = NULL, *ret = NULL;
	bool glob = is_glob(name), want_entry, want_ret, offsets;
	uint64_t off = 0;
	int rc = 0;

	want_entry = gmatch(name, "entry");
	want_ret = gmatch(name, "return");
	offsets = !want_entry && !want_ret;
	if (offsets && !glob) {
		char *end;

		errno = 0;
		off = strtoull(name, &end, 16);
		if (*end != '\0' || errno != 0 || name[0] == '-' || name[0] == '+')
			return pid_error(dtp, EDT_BADPSPEC, "D_PROC_NAME",
					 "'%s' is an invalid probe name", name);
	}
	/* offset probes on every instruction: only for a function named, as their number grows fast */
	if (glob && !explicit)
		offsets = false;
	else if (glob && explicit)
		offsets = true;

	for (size_t k = 0; rc == 0 && k < n; k++) {
		uint64_t foff = dt_elf_file_offset(pc->pc_load, pc->pc_nload, addrs[k]);
		fcode_t fc;

		if (foff == 0 || fcode_read(pc->pc_fd, foff, sizes[k], &fc) != 0)
			continue;
		if (want_entry) {
			if (fc.fc_first_ok) {
				if ((entry = site(pc, foff, 0, entry)) == NULL)
					rc = dt_set_errno(dtp, EDT_NOMEM);
			} else if (explicit && !glob) {
				rc = pid_error(
				    dtp, EDT_ENABLING, "D_PROC_CREATEFAIL",
				    "a uprobe cannot be put on the first instruction of '%s' (%s)",
				    func, refusal(&fc.fc_first));
			}
		}
		if (rc == 0 && want_ret) {
			if (fc.fc_whole) {
				for (size_t i = 0; rc == 0 && i < fc.fc_nrets; i++)
					if ((ret = site(pc, foff + fc.fc_rets[i], fc.fc_rets[i],
							ret)) == NULL)
						rc = dt_set_errno(dtp, EDT_NOMEM);
			} else if (fc.fc_first_ok) {
				/* it does not decode: a uretprobe, which knows no offset */
				if ((ret = site(pc, foff, UINT64_MAX, ret)) == NULL)
					rc = dt_set_errno(dtp, EDT_NOMEM);
			}
		}
		if (rc == 0 && offsets && !glob) {
			if (sizes[k] == 0)
				rc = pid_error(dtp, EDT_BADPSPEC, "D_UNSUPPORTED",
					       "'%s' is an IFUNC: offsets in the implementation "
					       "chosen for it are not supported",
					       func);
			else if (off >= sizes[k])
				rc = pid_error(dtp, EDT_BADPSPEC, "D_PROC_OFF",
					       "offset 0x%llx outside of function '%s'",
					       (unsigned long long)off, func);
			else if (!is_insn(&fc, off))
				rc = pid_error(dtp, EDT_BADPSPEC, "D_PROC_ALIGN",
					       "offset 0x%llx is not aligned on an instruction",
					       (unsigned long long)off);
			else {
				ks_insn_t in;

				(void)ks_insn_decode(fc.fc_code + off, fc.fc_size - off, &in);
				if (!ks_uprobe_ok(&in))
					rc = pid_error(
					    dtp, EDT_ENABLING, "D_PROC_CREATEFAIL",
					    "a uprobe cannot be put on the instruction at offset "
					    "0x%llx of '%s' (%s)",
					    (unsigned long long)off, func, refusal(&in));
				else if ((entry = site(pc, foff + off, 0, NULL)) == NULL)
					rc = dt_set_errno(dtp, EDT_NOMEM);
				else
					rc = add_probe(pc, func, name, DT_PK_PID_OFFSET, entry);
				entry = NULL;
			}
		} else if (rc == 0 &&
			   offsets) { /* a glob name: each instruction whose offset matches */
			for (size_t i = 0; rc == 0 && i < fc.fc_ninsns; i++) {
				char oname[32];
				ks_insn_t in;
				dt_usite_t *s;

				snprintf(oname, sizeof(oname), "%x", fc.fc_insns[i]);
				if (!gmatch(name, oname))
					continue;
				(void)ks_insn_decode(fc.fc_code + fc.fc_insns[i],
						     fc.fc_size - fc.fc_insns[i], &in);
				if (!ks_uprobe_ok(&in))
					continue;
				if (++pc->pc_noffsets > PID_MAXOFFSETS) {
					rc = pid_error(dtp, EDT_BADPSPEC, "D_PROC_CREATEFAIL",
						       "%s:%s:%s:%s: more than %d offset probes",
						       pc->pc_desc->dtpd_provider, pc->pc_mod, func,
						       name, PID_MAXOFFSETS);
					break;
				}
				if ((s = site(pc, foff + fc.fc_insns[i], 0, NULL)) == NULL)
					rc = dt_set_errno(dtp, EDT_NOMEM);
				else
					rc = add_probe(pc, func, oname, DT_PK_PID_OFFSET, s);
			}
		}
		fcode_free(&fc);
	}
	/* a probe with no site (its first instruction refused) is listed, and attaches nothing */
	if (rc == 0 && want_entry)
		rc = add_probe(pc, func, "entry", DT_PK_PID_ENTRY, entry);
	if (rc == 0 && want_ret)
		rc = add_probe(pc, func, "return", DT_PK_PID_RETURN, ret);
	return rc;
}

/* Of aliases (one address), the name a glob's probe takes: fewest leading '_', then shortest. */
static bool better_alias(const char *a, const char *b)
{
	size_t ua = strspn(a, "_"), ub = strspn(b, "_");

	if (ua != ub)
		return ua < ub;
	if (strlen(a) != strlen(b))
		return strlen(a) < strlen(b);
	return strcmp(a, b) < 0;
}

/* Where the module is loaded in the process: its load bias (0 for a fixed executable). */
static uint64_t load_bias(const pctx_t *pc)
{
	for (size_t i = 0; i < pc->pc_nload; i++) {
		const GElf_Phdr *ph = &pc->pc_load[i];

		if ((ph->p_offset & ~(uint64_t)0xfff) == pc->pc_pgoff)
			return pc->pc_start - (ph->p_vaddr & ~(uint64_t)0xfff);
	}
	return UINT64_MAX;
}

/*
 * The implementation the process's dynamic linker chose for the
 * STT_GNU_IFUNC resolver at address resolver: the R_X86_64_IRELATIVE
 * relocation whose addend is the resolver names the GOT slot that holds
 * it, read from the process.  Its link-time address, or 0 (no such
 * relocation: the file never calls it itself; unreadable).
 */
static uint64_t ifunc_target(const pctx_t *pc, Elf *elf, uint64_t bias, uint64_t resolver)
{
	Elf_Scn *scn = NULL;

	if (bias == UINT64_MAX)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    sh.sh_entsize == 0 || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			uint64_t v = 0;
			struct iovec local = { &v, sizeof(v) }, remote;

			if (gelf_getrela(d, (int)i, &r) == NULL ||
			    GELF_R_TYPE(r.r_info) != R_X86_64_IRELATIVE ||
			    (uint64_t)r.r_addend != resolver)
				continue;
			remote.iov_base = (void *)(uintptr_t)(bias + r.r_offset);
			remote.iov_len = sizeof(v);
			if (process_vm_readv(pc->pc_pid, &local, 1, &remote, 1, 0) != sizeof(v) ||
			    v < bias)
				return 0;
			return v - bias;
		}
	}
	return 0;
}

static int esym_cmp(const void *a, const void *b)
{
	const dt_elfsym_t *x = a, *y = b;

	return x->es_addr < y->es_addr ? -1 : x->es_addr > y->es_addr;
}

/*
 * IFUNC symbols become their implementation in this process (an address,
 * size unknown: 0); those that cannot be resolved are dropped.
 */
static void resolve_ifuncs(const pctx_t *pc, Elf *elf, dt_elfsym_t *syms, size_t *n)
{
	uint64_t bias = load_bias(pc);
	size_t k = 0;
	bool any = false;

	for (size_t i = 0; i < *n; i++) {
		if (syms[i].es_ifunc) {
			uint64_t impl = ifunc_target(pc, elf, bias, syms[i].es_addr);

			if (impl == 0)
				continue;
			syms[i].es_addr = impl;
			syms[i].es_size = 0;
			any = true;
		}
		syms[k++] = syms[i];
	}
	*n = k;
	if (any)
		qsort(syms, k, sizeof(*syms), esym_cmp);
}

/* A function to make probes of: sized, or an IFUNC's implementation. */
static bool usable(const dt_elfsym_t *s)
{
	return s->es_size != 0 || s->es_ifunc;
}

/* The probes of function name: every address a symbol of that name has (versions). */
static int name_probes(pctx_t *pc, const dt_elfsym_t *syms, size_t nsyms, const char *name,
		       uint64_t *addrs, uint64_t *sizes)
{
	size_t n = 0;

	for (size_t k = 0; k < nsyms; k++) {
		bool dup = false;

		if (!usable(&syms[k]) || strcmp(syms[k].es_name, name) != 0)
			continue;
		for (size_t m = 0; m < n; m++)
			dup |= addrs[m] == syms[k].es_addr;
		if (!dup) {
			addrs[n] = syms[k].es_addr;
			sizes[n++] = syms[k].es_size;
		}
	}
	return func_probes(pc, name, addrs, sizes, n, false);
}

/* The probes of the module at rpath that the description names. */
static int module_probes(pctx_t *pc, const char *rpath)
{
	const char *func = pc->pc_desc->dtpd_func;
	dt_elfsym_t *syms = NULL;
	size_t nsyms = 0;
	uint64_t *addrs = NULL, *sizes = NULL;
	Elf *elf = NULL;
	dt_elfdebug_t dbg = { .ed_fd = -1 };
	int rc = 0;

	if ((pc->pc_fd = open(rpath, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return 0;
	elf = elf_begin(pc->pc_fd, ELF_C_READ, NULL);
	if (elf == NULL || elf_kind(elf) != ELF_K_ELF)
		goto out;
	if (dt_elf_syms_debug(elf, rpath, true, &syms, &nsyms, &dbg) != 0 ||
	    dt_elf_loads(elf, &pc->pc_load, &pc->pc_nload) != 0 ||
	    (addrs = calloc(nsyms + 1, sizeof(*addrs))) == NULL ||
	    (sizes = calloc(nsyms + 1, sizeof(*sizes))) == NULL) {
		rc = dt_set_errno(pc->pc_dtp, EDT_NOMEM);
		goto out;
	}
	resolve_ifuncs(pc, elf, syms, &nsyms);
	if (!is_glob(func)) {
		size_t n = 0;

		for (size_t i = 0; i < nsyms; i++) {
			bool dup = false;

			if (!usable(&syms[i]) || strcmp(syms[i].es_name, func) != 0)
				continue;
			for (size_t j = 0; j < n; j++)
				dup |= addrs[j] == syms[i].es_addr;
			if (!dup) {
				addrs[n] = syms[i].es_addr;
				sizes[n++] = syms[i].es_size;
			}
		}
		/* as illumos, a function a named module lacks is an error; with -Z, no match */
		if (n == 0 && !is_glob(pc->pc_desc->dtpd_mod) &&
		    !dt_option_isset(pc->pc_dtp, "zdefs")) {
			rc = pid_error(pc->pc_dtp, EDT_BADPSPEC, "D_PROC_FUNC",
				       "failed to lookup '%s' in module '%s'", func, pc->pc_mod);
			goto out;
		}
		if (n > 0)
			rc = func_probes(pc, func, addrs, sizes, n, true);
		goto out;
	}
	/*
	 * One probe per address, named by its best alias (IFUNCs each their
	 * own: memcpy and memmove may share an implementation); versions of a
	 * name: one probe.
	 */
	for (size_t i = 0; rc == 0 && i < nsyms;) {
		size_t j = i, best = SIZE_MAX;

		for (; rc == 0 && j < nsyms && syms[j].es_addr == syms[i].es_addr; j++) {
			if (!usable(&syms[j]) || !gmatch(func, syms[j].es_name) ||
			    strcmp(syms[j].es_name, "_init") == 0 ||
			    strcmp(syms[j].es_name, "_fini") == 0)
				continue;
			if (syms[j].es_ifunc)
				rc = name_probes(pc, syms, nsyms, syms[j].es_name, addrs, sizes);
			else if (best == SIZE_MAX ||
				 better_alias(syms[j].es_name, syms[best].es_name))
				best = j;
		}
		if (rc == 0 && best != SIZE_MAX)
			rc = name_probes(pc, syms, nsyms, syms[best].es_name, addrs, sizes);
		i = j;
	}
out:
	free(addrs);
	free(sizes);
	free(syms);
	dt_elf_debug_free(&dbg);
	free(pc->pc_load);
	pc->pc_load = NULL;
	pc->pc_nload = 0;
	elf_end(elf);
	close(pc->pc_fd);
	return rc;
}

/* The module name a mapping of path takes for the description's module pattern, or NULL. */
static const char *module_match(const char *pat, const char *path, bool exe, char *buf, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *so = strstr(base, ".so.");

	if (!is_glob(pat)) {
		if (strcmp(pat, path) == 0 || strcmp(pat, base) == 0 ||
		    (exe && strcmp(pat, "a.out") == 0) ||
		    (so != NULL && strlen(pat) == (size_t)(so - base) + 3 &&
		     strncmp(pat, base, (size_t)(so - base) + 3) == 0))
			return pat;
		return NULL;
	}
	if (gmatch(pat, base))
		return base;
	if (gmatch(pat, path))
		return path;
	if (exe && gmatch(pat, "a.out"))
		return "a.out";
	if (so != NULL) {
		snprintf(buf, len, "%.*s", (int)(so - base) + 3, base);
		if (gmatch(pat, buf))
			return buf;
	}
	return NULL;
}

/*
 * The groups of the module at rpath, and the first key its new probes
 * take there: after those of its probes made from other descriptions.
 */
static int module_groups(pctx_t *pc, const char *rpath)
{
	size_t len = strlen(rpath);
	char *e = dt_arena_alloc(pc->pc_w.pt_arena, len + 7);
	char *r = dt_arena_alloc(pc->pc_w.pt_arena, len + 8);

	if (e == NULL || r == NULL)
		return -1;
	snprintf(e, len + 7, "entry %s", rpath);
	snprintf(r, len + 8, "return %s", rpath);
	pc->pc_gentry = e;
	pc->pc_greturn = r;
	pc->pc_key = 0;
	for (size_t i = 0; i < pc->pc_w.pt_n; i++) {
		const dt_pinfo_t *pi = &pc->pc_w.pt_info[i];

		if (pi->pi_prov == &dt_prov_pid && pi->pi_path != NULL &&
		    strcmp(pi->pi_path, rpath) == 0 && pi->pi_key >= pc->pc_key)
			pc->pc_key = pi->pi_key + 1;
	}
	return 0;
}

static int provide_one(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	pctx_t pc = { .pc_dtp = dtp, .pc_desc = desc, .pc_fd = -1 };
	char path[64], exe[PATH_MAX], line[PATH_MAX + 256], rpath[PATH_MAX + 64];
	char **seen = NULL;
	size_t nseen = 0;
	ssize_t elen;
	FILE *maps;
	int rc = 0;

	if ((pc.pc_pid = desc_pid(desc->dtpd_provider)) == 0)
		return 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_errno(dtp, EDT_ELF);
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pc.pc_pid);
	elen = readlink(path, exe, sizeof(exe) - 1);
	exe[elen > 0 ? elen : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pc.pc_pid);
	if ((maps = fopen(path, "re")) == NULL)
		return 0; /* gone, or not ours: no probes */
	/* the probes of this provider there are already */
	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		if (dtp->dt_pinfo[i].pi_prov == &dt_prov_pid &&
		    strcmp(dtp->dt_probes[i].dtpd_provider, desc->dtpd_provider) == 0 &&
		    keyset_add(&pc.pc_keys,
			       key_hash(dtp->dt_probes[i].dtpd_mod, dtp->dt_probes[i].dtpd_func,
					dtp->dt_probes[i].dtpd_name)) != 0) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
	pc.pc_w = dt_ptab_get(dtp);
	while (rc == 0 && fgets(line, sizeof(line), maps) != NULL) {
		char perms[8], *file, mbuf[256], **ns;
		const char *mod;
		bool dup = false;
		unsigned long start, pgoff;
		int off = 0;

		if (sscanf(line, "%lx-%*x %7s %lx %*x:%*x %*u %n", &start, perms, &pgoff, &off) !=
			3 ||
		    off == 0 || perms[2] != 'x')
			continue;
		file = line + off;
		file[strcspn(file, "\n")] = '\0';
		/* a file with a name (not [vdso], not deleted or a memfd: not yet) */
		if (file[0] != '/' || strstr(file, " (deleted)") != NULL)
			continue;
		for (size_t i = 0; i < nseen; i++)
			dup |= strcmp(seen[i], file) == 0;
		if (dup)
			continue;
		if ((ns = realloc(seen, (nseen + 1) * sizeof(*ns))) == NULL ||
		    (ns[nseen] = strdup(file)) == NULL) {
			if (ns != NULL)
				seen = ns;
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		seen = ns;
		nseen++;
		mod = module_match(desc->dtpd_mod, file, exe[0] != '\0' && strcmp(file, exe) == 0,
				   mbuf, sizeof(mbuf));
		if (mod == NULL)
			continue;
		snprintf(rpath, sizeof(rpath), "/proc/%d/root%s", (int)pc.pc_pid, file);
		if ((pc.pc_mod = dt_arena_strndup(pc.pc_w.pt_arena, mod, strlen(mod))) == NULL ||
		    (pc.pc_path = dt_arena_strndup(pc.pc_w.pt_arena, rpath, strlen(rpath))) ==
			NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		if (module_groups(&pc, rpath) != 0) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		pc.pc_start = start;
		pc.pc_pgoff = pgoff;
		rc = module_probes(&pc, rpath);
	}
	dt_ptab_put(dtp, &pc.pc_w);
	fclose(maps);
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(pc.pc_keys.ks_h);
	return rc;
}

/*
 * A description the provider was given, read again when its process maps
 * new executable files (a library dlopen()ed): in the handle's probe arena.
 */
typedef struct dt_piddesc {
	struct dt_piddesc *pd_next;
	dtrace_probedesc_t pd_desc;
	uint64_t pd_hash; /* the process's executable mappings when last read */
} dt_piddesc_t;

static int provide(dtrace_hdl_t *dtp, const dtrace_probedesc_t *desc)
{
	dt_piddesc_t *d;
	pid_t pid = desc != NULL ? desc_pid(desc->dtpd_provider) : 0;
	uint64_t h;

	if (pid == 0)
		return 0;
	h = dt_maps_hash(pid); /* before reading: a change while we read is read again */
	for (d = dtp->dt_piddescs; d != NULL; d = d->pd_next)
		if (strcmp(d->pd_desc.dtpd_provider, desc->dtpd_provider) == 0 &&
		    strcmp(d->pd_desc.dtpd_mod, desc->dtpd_mod) == 0 &&
		    strcmp(d->pd_desc.dtpd_func, desc->dtpd_func) == 0 &&
		    strcmp(d->pd_desc.dtpd_name, desc->dtpd_name) == 0)
			break;
	/*
	 * Made already (compiling, listing, args[] and enabling each ask), and
	 * the process maps the same files: its ELF files are not read again.
	 */
	if (d != NULL && d->pd_hash == h)
		return 0;
	if (provide_one(dtp, desc) != 0)
		return -1;
	if (d != NULL) {
		d->pd_hash = h;
		return 0;
	}
	if ((d = dt_arena_alloc(&dtp->dt_parena, sizeof(*d))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	d->pd_desc = *desc;
	d->pd_hash = h;
	d->pd_next = dtp->dt_piddescs;
	dtp->dt_piddescs = d;
	return 0;
}

/*
 * The probes of process pid's new files: each description given before
 * is read again when the process's executable mappings changed.  The
 * consumer looks at each dtrace_work(), so a library's functions called
 * between its dlopen() and that look are missed (illumos stops the
 * process at the dynamic linker's event instead: not yet).
 */
static int rescan(dtrace_hdl_t *dtp, pid_t pid, uint64_t h)
{
	for (dt_piddesc_t *d = dtp->dt_piddescs; d != NULL; d = d->pd_next) {
		if (desc_pid(d->pd_desc.dtpd_provider) != pid)
			continue;
		if (h == d->pd_hash)
			continue;
		d->pd_hash = h;
		if (provide_one(dtp, &d->pd_desc) != 0)
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- programs */

static int populate(dtrace_hdl_t *dtp, dt_ptab_t *w)
{
	(void)dtp;
	(void)w;
	return 0; /* made on demand only */
}

static int programs(dtrace_hdl_t *dtp, size_t p, dt_progspec_f *add, void *arg)
{
	return dtp->dt_pinfo[p].pi_sites != NULL ? add(arg, NULL) : 0;
}

static void progtype(const dt_pinfo_t *pi, enum bpf_prog_type *type, uint32_t *attach_type,
		     uint32_t *btf_id)
{
	(void)pi, (void)btf_id;
	*type = BPF_PROG_TYPE_KPROBE;
	*attach_type = KS_UPROBE_MULTI;
}

/* r0 = argument i: the function's arguments at entry and offsets; offset and rax at return. */
static int arg(const dt_argreq_t *rq, int i)
{
	static const char *const regs[] = { "rdi", "rsi", "rdx", "rcx", "r8", "r9" };
	const dt_pinfo_t *pi = &rq->ar_dtp->dt_pinfo[rq->ar_probe];
	dt_frag_t *o = rq->ar_out;

	if (pi->pi_kind == DT_PK_PID_RETURN) {
		if (i == 0) { /* the cookie's low word: the offset, or -1 for a uretprobe */
			dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_6));
			dt_frag_emit(o, KS_CALL(BPF_FUNC_get_attach_cookie));
			dt_frag_emit(o, KS_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
			dt_frag_emit(o, KS_ALU64_IMM(BPF_ARSH, BPF_REG_0, 32));
		} else if (i == 1) {
			dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6,
						   (int16_t)ks_reg_offset("rax", NULL)));
		} else {
			dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
		}
		return 0;
	}
	if (i < 6) {
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6,
					   (int16_t)ks_reg_offset(regs[i], NULL)));
		return 0;
	}
	/* the seventh on: above the return address, 8 bytes each */
	dt_frag_emit(o,
		     KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, (int16_t)ks_reg_offset("rsp", NULL)));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_0, 8 * (i - 5)));
	dt_frag_load_user(o, 8, false, rq->ar_action, rq->ar_lfault);
	return 0;
}

/* ---------------------------------------------------------------- attaching */

/* The entry and offset probes of a file in a process in one program, its returns in another. */
static const char *group(dtrace_hdl_t *dtp, size_t p, uint32_t *key)
{
	const dt_pinfo_t *pi = &dtp->dt_pinfo[p];

	*key = pi->pi_key;
	return pi->pi_group;
}

/* r0 = the key of the probe that fires: the attach cookie's high word. */
static int guard(const dt_argreq_t *rq)
{
	dt_frag_t *o = rq->ar_out;

	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_6));
	dt_frag_emit(o, KS_CALL(BPF_FUNC_get_attach_cookie));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	return 0;
}

/*
 * A group's sites (its probes are of one file and process): one
 * uprobe_multi link, one more for uretprobes; each site's cookie its
 * probe's key << 32, with a return site's offset (0xffffffff: a
 * uretprobe).
 */
static int attach_group(dtrace_hdl_t *dtp, const size_t *probes, const uint32_t *keys, size_t np,
			int fd, uint32_t attach_type, dt_links_t *links)
{
	const dt_pinfo_t *pi0 = &dtp->dt_pinfo[probes[0]];
	uint64_t *offs, *cookies;
	size_t n = 0;
	int rc = 0;

	if (attach_type != KS_UPROBE_MULTI || !ks_features()->kf_uprobe_multi)
		return dt_set_errmsg(
		    dtp, EDT_ENABLING,
		    "cannot enable %s:%s:%s:%s: pid probes need uprobe_multi links "
		    "(Linux 6.6)",
		    dtp->dt_probes[probes[0]].dtpd_provider, dtp->dt_probes[probes[0]].dtpd_mod,
		    dtp->dt_probes[probes[0]].dtpd_func, dtp->dt_probes[probes[0]].dtpd_name);
	for (size_t i = 0; i < np; i++)
		for (dt_usite_t *s = dtp->dt_pinfo[probes[i]].pi_sites; s != NULL; s = s->us_next)
			n++;
	if (n == 0)
		return 0;
	offs = calloc(n, sizeof(*offs));
	cookies = calloc(n, sizeof(*cookies));
	if (offs == NULL || cookies == NULL) {
		free(offs);
		free(cookies);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	for (int ret = 0; rc == 0 && ret < 2; ret++) {
		int link;

		n = 0;
		for (size_t i = 0; i < np; i++) {
			const dt_pinfo_t *pi = &dtp->dt_pinfo[probes[i]];

			for (dt_usite_t *s = pi->pi_sites; s != NULL; s = s->us_next) {
				if ((s->us_cookie == UINT64_MAX) != (ret == 1))
					continue;
				offs[n] = s->us_off;
				cookies[n++] =
				    (uint64_t)keys[i] << 32 |
				    (pi->pi_kind == DT_PK_PID_RETURN ? s->us_cookie & 0xffffffff
								     : 0);
			}
		}
		if (n == 0)
			continue;
		link =
		    ret ? ks_attach_uretprobes(fd, pi0->pi_path, offs, cookies, n, pi0->pi_pid)
			: ks_attach_uprobes(fd, pi0->pi_path, offs, NULL, cookies, n, pi0->pi_pid);
		if (link == -ESRCH || link == -ENOENT) /* the process has gone */
			break;
		rc = link < 0 ? dt_probe_attach_err(dtp, probes[0], -link)
			      : dt_links_add(dtp, links, link);
	}
	free(offs);
	free(cookies);
	return rc;
}

/* A probe alone (not in a group: pv_group always names one): as a group of one. */
static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	uint32_t key = dtp->dt_pinfo[p].pi_key;

	(void)argspec, (void)ncpus;
	return attach_group(dtp, &p, &key, 1, fd, attach_type, links);
}

/* Its descriptions' probes are made when the program compiles, as illumos' dt_setcontext. */
static bool is_pid_desc(const dtrace_probedesc_t *desc)
{
	return desc_pid(desc->dtpd_provider) != 0;
}

const dt_provimpl_t dt_prov_pid = {
	.pv_name = "pid",
	.pv_populate = populate,
	.pv_provide = provide,
	.pv_at_compile = is_pid_desc,
	.pv_rescan = rescan,
	.pv_programs = programs,
	.pv_progtype = progtype,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_gone = dt_probe_file_gone,
	.pv_group = group,
	.pv_guard = guard,
	.pv_attach_group = attach_group,
};
