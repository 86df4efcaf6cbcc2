/*
 * test_sym.c -- addresses to names (dt_sym.c).
 *
 * Kernel: addresses read from /proc/kallsyms here (a function with an
 * address of its own, one byte and its last byte in, the last function,
 * a data symbol, below the first symbol) against dt_ksym_lookup and
 * dt_kaddr_str, whose forms are illumos dtrace_addr2str's.  Without the
 * addresses (kptr_restrict, not root: all zero) every look-up must fail.
 * BPF images: the highest symbol has no end, but code pages past its
 * start in its 2 MB region is its own (a large program's frames).
 *
 * User: this process's own libc: dlinfo by its name without the version
 * libc's debug file gives it, main's return address in the static
 * __libc_start_call_main that only the debug file names (libc6-dbg);
 * libstdc++'s C++ functions demangled.  Prints the time of the first libc
 * look-up (maps, the file, its debug file's symbols) and the cost of a
 * demangling look-up against a cached one.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../check.h"
#include "dt_elf.h"
#include "dt_impl.h"

#define LIBSTDCXX "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"

typedef struct ksym {
	uint64_t addr;
	char type;
	char name[128];
} ksym_t;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* How many symbols of /proc/kallsyms are at addr. */
static int at_count(const ksym_t *k, size_t n, uint64_t addr)
{
	int c = 0;

	for (size_t i = 0; i < n; i++)
		c += k[i].addr == addr;
	return c;
}

/*
 * The highest BPF image's address and name in /proc/kallsyms, or 0; *last:
 * is it the highest symbol of all (an ftrace trampoline, made once a tool
 * has used ftrace, lies above the BPF images)?
 */
static uint64_t bpf_top(char *name, size_t len, bool *last)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t top = 0, all = 0;

	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
		uint64_t a;
		char type, n[128];

		if (sscanf(line, "%" SCNx64 " %c %127s", &a, &type, n) != 3)
			continue;
		if (a > all)
			all = a;
		if (strstr(line, "[bpf]") != NULL && a >= top) {
			top = a;
			snprintf(name, len, "%s", n);
		}
	}
	if (fp != NULL)
		fclose(fp);
	*last = top != 0 && top == all;
	return top;
}

/*
 * The highest BPF image (one of ours is loaded, so that there is one): a
 * frame a page past its start is named by it, an address in the next 2 MB
 * region by nothing when no symbol lies higher.  Other tests load and
 * unload programs meanwhile: the check is made again when the highest
 * changed between two reads of /proc/kallsyms, or when the handle's read,
 * between them, named another symbol (a program that came and went in
 * that time: ctest -j2 saw "bpf`<same name>+0x1000" for +0x1010, a
 * program of the same name 0x10 higher).  20 disagreements fail.
 */
static void bpf_last(void)
{
	const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char name[128] = "", again[128] = "", want[300], buf[256] = "";
	union bpf_attr attr;
	int fd;

	/* bpf(2) itself, every byte of attr set: valgrind checks them all */
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uint64_t)(uintptr_t)prog;
	attr.insn_cnt = 2;
	attr.license = (uint64_t)(uintptr_t) "GPL";
	memcpy(attr.prog_name, "dt_symtest", sizeof("dt_symtest"));
	fd = (int)syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));

	if (fd < 0) {
		printf("kernel: no BPF image to name (cannot load one)\n");
		return;
	}
	for (int i = 0; i < 20; i++) {
		dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
		bool last, again_last;
		uint64_t top = bpf_top(name, sizeof(name), &last), at = top + 0x1010;
		dt_usym_t u;
		dt_usym_t far;
		int rc = dt_ksym_lookup(dtp, at, &u); /* reads the symbols */
		int rcfar = dt_ksym_lookup(dtp, ((top >> 21) + 1) << 21, &far);
		bool inside = at >> 21 == top >> 21; /* not at its region's very end */

		dt_kaddr_str(dtp, at, buf, sizeof(buf));
		if (top == 0 || bpf_top(again, sizeof(again), &again_last) != top ||
		    (inside && (rc != 0 || u.us_symaddr != top))) {
			dtrace_close(dtp);
			continue;
		}
		if (inside) {
			CHECK_STR(u.us_mod, "bpf");
			CHECK_STR(u.us_name, name);
			snprintf(want, sizeof(want), "bpf`%s+0x1010", name);
			CHECK_STR(buf, want);
		}
		if (last) /* past the last symbol's region: nothing */
			CHECK_INT(rcfar, -1);
		dtrace_close(dtp);
		close(fd);
		return;
	}
	printf("last look-up: %s, for bpf`%s+0x1010\n", buf, name);
	CHECK(!"a look-up agreed with /proc/kallsyms's highest BPF image");
	close(fd);
}

static void kernel(dtrace_hdl_t *dtp)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	ksym_t *k = NULL;
	size_t n = 0, cap = 0;
	char line[512], buf[256], want[300];
	const ksym_t *fn = NULL, *last = NULL, *data = NULL;
	uint64_t lowest = UINT64_MAX, next = UINT64_MAX;
	dt_usym_t u;
	double t0;

	CHECK(fp != NULL);
	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		ksym_t s = { 0 };

		if (strchr(line, '[') != NULL) /* modules, BPF programs: come and go */
			continue;
		if (sscanf(line, "%" SCNx64 " %c %127s", &s.addr, &s.type, s.name) != 3)
			continue;
		if (n == cap && (k = realloc(k, (cap = cap ? 2 * cap : 4096) * sizeof(*k))) == NULL)
			abort();
		k[n++] = s;
	}
	fclose(fp);
	if (n == 0 || k[0].addr == 0) {
		printf("kernel: no addresses in /proc/kallsyms (kptr_restrict): look-ups fail\n");
		CHECK_INT(dt_ksym_lookup(dtp, 0xffffffff81000000ULL, &u), -1);
		dt_kaddr_str(dtp, 0xffffffff81000000ULL, buf, sizeof(buf));
		CHECK_STR(buf, "0xffffffff81000000");
		free(k);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (k[i].addr < lowest)
			lowest = k[i].addr;
		if (is_text(k[i].type) && (last == NULL || k[i].addr > last->addr))
			last = &k[i];
		if ((k[i].type == 'R' || k[i].type == 'D') && data == NULL &&
		    at_count(k, n, k[i].addr) == 1)
			data = &k[i];
		if (fn == NULL && strcmp(k[i].name, "vfs_read") == 0)
			fn = &k[i];
	}
	CHECK(fn != NULL && at_count(k, n, fn->addr) == 1);
	if (fn == NULL) {
		free(k);
		return;
	}
	for (size_t i = 0; i < n; i++) /* where the function after vfs_read starts */
		if (k[i].addr > fn->addr && k[i].addr < next)
			next = k[i].addr;

	t0 = now_ms();
	CHECK_INT(dt_ksym_lookup(dtp, fn->addr, &u), 0);
	printf("kernel: %zu symbols read and sorted in %.1f ms\n", n, now_ms() - t0);
	CHECK_STR(u.us_mod, "vmlinux");
	CHECK_STR(u.us_name, "vfs_read");
	CHECK_INT(u.us_symaddr, fn->addr);
	dt_kaddr_str(dtp, fn->addr, buf, sizeof(buf));
	CHECK_STR(buf, "vmlinux`vfs_read");
	dt_kaddr_str(dtp, fn->addr + 1, buf, sizeof(buf));
	CHECK_STR(buf, "vmlinux`vfs_read+0x1");
	snprintf(want, sizeof(want), "vmlinux`vfs_read+0x%" PRIx64, next - 1 - fn->addr);
	dt_kaddr_str(dtp, next - 1, buf, sizeof(buf));
	CHECK_STR(buf, want);
	dt_kaddr_str(dtp, next, buf, sizeof(buf)); /* the next one's, not vfs_read's */
	CHECK(strstr(buf, "vfs_read+") == NULL);

	/* the last function: one of the names at its address */
	CHECK_INT(dt_ksym_lookup(dtp, last->addr, &u), 0);
	CHECK(u.us_name != NULL && u.us_symaddr == last->addr);
	if (u.us_name != NULL) {
		bool named = false;

		for (size_t i = 0; i < n; i++)
			named |= k[i].addr == last->addr && strcmp(k[i].name, u.us_name) == 0;
		CHECK(named);
	}

	/* below the first symbol: nothing, and the address in hex */
	CHECK_INT(dt_ksym_lookup(dtp, lowest - 1, &u), -1);
	snprintf(want, sizeof(want), "0x%" PRIx64, lowest - 1);
	dt_kaddr_str(dtp, lowest - 1, buf, sizeof(buf));
	CHECK_STR(buf, want);
	CHECK_INT(dt_ksym_lookup(dtp, 0, &u), -1);

	/* data is no function's */
	CHECK(data != NULL);
	if (data != NULL)
		CHECK_INT(dt_ksym_lookup(dtp, data->addr, &u), -1);
	free(k);
}

__attribute__((noinline)) static void user(dtrace_hdl_t *dtp, void *ra)
{
	char buf[512];
	dt_usym_t u;
	double t0;
	void *h;
	pid_t pid = getpid();

	t0 = now_ms();
	CHECK_INT(dt_usym_lookup(dtp, pid, (uintptr_t)ra, &u), 0);
	printf("user: first libc look-up (maps, libc.so.6, its debug file's .symtab) %.1f ms\n",
	       now_ms() - t0);
	CHECK_STR(u.us_mod, "libc.so.6");
	CHECK_STR(u.us_name, "__libc_start_call_main");
	CHECK(u.us_symaddr < (uintptr_t)ra && (uintptr_t)ra - u.us_symaddr < 256);

	CHECK_INT(dt_usym_lookup(dtp, pid, (uintptr_t)dlinfo, &u), 0);
	CHECK_STR(u.us_name, "dlinfo");
	dt_uaddr_str(dtp, pid, (uintptr_t)dlinfo + 3, buf, sizeof(buf));
	CHECK_STR(buf, "libc.so.6`dlinfo+0x3");

	/* C++: libstdc++'s own functions (it has no .symtab: .dynsym's names) */
	h = dlopen("libstdc++.so.6", RTLD_NOW);
	CHECK(h != NULL);
	if (h == NULL)
		return;
	dt_usym_remember(dtp, pid); /* a library mapped since the first look-up */
	void *dtor = dlsym(h, "_ZNSt9exceptionD1Ev");

	CHECK(dtor != NULL);
	CHECK_INT(dt_usym_lookup(dtp, pid, (uintptr_t)dtor, &u), 0);
	CHECK(u.us_mod != NULL && strncmp(u.us_mod, "libstdc++.so.6", 14) == 0);
	CHECK_STR(u.us_name, "std::exception::~exception()");

	/* demangling's cost: the first look-up of each of up to 2000 functions, then again */
	int fd = open(LIBSTDCXX, O_RDONLY);
	Elf *elf = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE
		       ? elf_begin(fd, ELF_C_READ_MMAP, NULL)
		       : NULL;
	dt_elfsym_t *syms = NULL;
	size_t ns = 0, na = 0;
	uintptr_t *addrs;

	CHECK(elf != NULL && dt_elf_syms(elf, false, &syms, &ns) == 0 && ns > 0);
	addrs = calloc(ns + 1, sizeof(*addrs));
	for (size_t i = 0; addrs != NULL && i < ns && na < 2000; i++) {
		void *a;

		if (strncmp(syms[i].es_name, "_Z", 2) == 0 &&
		    (a = dlsym(h, syms[i].es_name)) != NULL)
			addrs[na++] = (uintptr_t)a;
	}
	CHECK(na >= 1000);
	double t1 = now_ms(), t2, t3;
	size_t named = 0;

	for (size_t i = 0; i < na; i++)
		named += dt_usym_lookup(dtp, pid, addrs[i], &u) == 0 && u.us_name != NULL &&
			 strncmp(u.us_name, "_Z", 2) != 0;
	t2 = now_ms();
	for (size_t i = 0; i < na; i++)
		(void)dt_usym_lookup(dtp, pid, addrs[i], &u);
	t3 = now_ms();
	CHECK(named >= na * 99 / 100);
	printf("user: %zu C++ look-ups: first %.2f us each (demangling), then %.2f us each "
	       "(cached)\n",
	       na, (t2 - t1) * 1e3 / (double)na, (t3 - t2) * 1e3 / (double)na);
	free(addrs);
	free(syms);
	if (elf != NULL)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	dlclose(h);
}

int main(void)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return CHECK_DONE();
	kernel(dtp);
	bpf_last();
	user(dtp, __builtin_return_address(0));
	dtrace_close(dtp);
	return CHECK_DONE();
}
