/*
 * ks_uprobe_ok() against the kernel: the first instruction of every
 * function of libc and ld.so (as the pid provider's entry probes see
 * them), then every instruction of them (offset probes, return sites).
 * Those it accepts must all attach in one uprobe_multi link (one refused
 * offset fails a whole link, with ENOTSUPP), and each one it refuses must
 * fail alone.  The links are restricted to a child that waits.
 * Prints the counts; exit 77 (skipped) when the machine cannot trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../unit/check.h"
#include "dt_elf.h"
#include "ks.h"

/*
 * Every function's first instruction, or with every_insn each instruction
 * of each function, of path: those ks_uprobe_ok() accepts in one link,
 * each it refuses alone, in process pid.
 */
static void check_file(const char *path, int prog_fd, pid_t pid, bool every_insn)
{
	dt_elfsym_t *syms = NULL;
	GElf_Phdr *load = NULL;
	size_t nsyms = 0, nload = 0, nok = 0, nbad = 0, disagree = 0, cap = 0;
	uint64_t *ok = NULL;
	Elf *elf;
	int fd = open(path, O_RDONLY), link;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(elf != NULL);
	CHECK_INT(dt_elf_syms(elf, false, &syms, &nsyms), 0);
	CHECK_INT(dt_elf_loads(elf, &load, &nload), 0);
	for (size_t i = 0; i < nsyms; i++) {
		uint64_t off = dt_elf_file_offset(load, nload, syms[i].es_addr);
		uint64_t end = off + syms[i].es_size;

		if (syms[i].es_size == 0 || off == 0 ||
		    (i > 0 && syms[i].es_addr == syms[i - 1].es_addr))
			continue;
		while (off < end) {
			uint8_t b[15];
			ssize_t n = pread(fd, b, sizeof(b), (off_t)off);
			ks_insn_t in;
			int len;

			if (n <= 0 || (len = ks_insn_decode(b, (size_t)n, &in)) < 0)
				break;
			if (ks_uprobe_ok(&in)) {
				if (nok == cap) {
					cap = cap ? 2 * cap : 4096;
					ok = realloc(ok, cap * sizeof(*ok));
					if (ok == NULL)
						abort();
				}
				ok[nok++] = off;
			} else {
				nbad++;
				link = ks_attach_uprobes(prog_fd, path, &off, NULL, NULL, 1, pid);
				if (link >= 0) {
					fprintf(
					    stderr,
					    "%s: %s+%#lx (%02x %02x %02x %02x): the kernel takes "
					    "what we refuse\n",
					    path, syms[i].es_name,
					    (unsigned long)(off - (end - syms[i].es_size)), b[0],
					    b[1], b[2], b[3]);
					disagree++;
					close(link);
				}
			}
			if (!every_insn)
				break;
			off += (uint64_t)len;
		}
	}
	link = nok > 0 ? ks_attach_uprobes(prog_fd, path, ok, NULL, NULL, nok, pid) : -1;
	if (link < 0)
		fprintf(stderr, "%s: %zu offsets we accept in one link: %s\n", path, nok,
			strerror(-link));
	CHECK(link >= 0);
	if (link >= 0)
		close(link);
	printf("%s: %s: %zu accepted (one link: %s), %zu refused, %zu of them taken by the "
	       "kernel\n",
	       path, every_insn ? "every instruction" : "function entries", nok,
	       link >= 0 ? "attached" : "failed", nbad, disagree);
	CHECK_INT((int)disagree, 0);
	CHECK(nok > 10);
	free(ok);
	free(syms);
	free(load);
	elf_end(elf);
	close(fd);
}

int main(void)
{
	const struct bpf_insn ret0[] = { KS_MOV64_IMM(BPF_REG_0, 0), KS_EXIT() };
	ks_code_t code = { 0 };
	char log[4096];
	int prog_fd;
	pid_t child;

	if (geteuid() != 0 || !ks_features()->kf_uprobe_multi) {
		fprintf(stderr, "test_uprobe_ok: cannot trace here (root, uprobe_multi)\n");
		return getenv("CI") && strcmp(getenv("CI"), "true") == 0 ? 1 : 77;
	}
	elf_version(EV_CURRENT);
	ks_emit(&code, ret0, 2);
	prog_fd =
	    ks_prog_load(BPF_PROG_TYPE_KPROBE, KS_UPROBE_MULTI, "kst_ok", &code, log, sizeof(log));
	ks_code_free(&code);
	CHECK(prog_fd >= 0);
	if (prog_fd < 0)
		return 1;
	/* a child that waits: the uprobes go into its copy of the libraries only */
	if ((child = fork()) == 0) {
		pause();
		_exit(0);
	}
	CHECK(child > 0);
	for (int every = 0; child > 0 && every < 2; every++) {
		check_file("/lib/x86_64-linux-gnu/libc.so.6", prog_fd, child, every);
		check_file("/lib64/ld-linux-x86-64.so.2", prog_fd, child, every);
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	close(prog_fd);
	return CHECK_DONE();
}
