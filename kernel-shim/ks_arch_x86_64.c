/*
 * ks_arch_x86_64.c -- what is particular to x86-64: where each register
 * sits in the kernel's struct pt_regs (what a uprobe's BPF program gets),
 * by every name a USDT argument specification may use.  Another
 * architecture brings a file like this one.
 */
#include <stdio.h>
#include <string.h>

#include "ks.h"

/* struct pt_regs: r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di orig_ax ip cs flags sp ss */
static const struct {
	const char *names[4]; /* 64-, 32-, 16- and 8-bit names */
	int off;
} regs[] = {
	{ { "rax", "eax", "ax", "al" }, 80 },
	{ { "rbx", "ebx", "bx", "bl" }, 40 },
	{ { "rcx", "ecx", "cx", "cl" }, 88 },
	{ { "rdx", "edx", "dx", "dl" }, 96 },
	{ { "rsi", "esi", "si", "sil" }, 104 },
	{ { "rdi", "edi", "di", "dil" }, 112 },
	{ { "rbp", "ebp", "bp", "bpl" }, 32 },
	{ { "rsp", "esp", "sp", "spl" }, 152 },
	{ { "r8", "r8d", "r8w", "r8b" }, 72 },
	{ { "r9", "r9d", "r9w", "r9b" }, 64 },
	{ { "r10", "r10d", "r10w", "r10b" }, 56 },
	{ { "r11", "r11d", "r11w", "r11b" }, 48 },
	{ { "r12", "r12d", "r12w", "r12b" }, 24 },
	{ { "r13", "r13d", "r13w", "r13b" }, 16 },
	{ { "r14", "r14d", "r14w", "r14b" }, 8 },
	{ { "r15", "r15d", "r15w", "r15b" }, 0 },
	{ { "rip", "eip", "ip", NULL }, 128 },
	{ { "cs", NULL, NULL, NULL }, 136 }, /* its low 2 bits: the privilege level (user: 3) */
};

int ks_reg_offset(const char *name, int *width)
{
	if (name[0] == '%')
		name++;
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		for (int w = 0; w < 4; w++) {
			if (regs[i].names[w] != NULL && strcmp(regs[i].names[w], name) == 0) {
				if (width != NULL)
					*width = 8 >> w;
				return regs[i].off;
			}
		}
	}
	/* gdb's spelling of the low bytes of r8-r15 */
	if (name[0] == 'r' && strlen(name) >= 3 && name[strlen(name) - 1] == 'l') {
		char alt[8];

		snprintf(alt, sizeof(alt), "%.*sb", (int)strlen(name) - 1, name);
		return ks_reg_offset(alt, width);
	}
	return -1;
}

/* the system call ABI: rdi, rsi, rdx, r10, r8, r9 (the kernel's, not the C one's rcx) */
int ks_syscall_arg_offset(int i)
{
	static const char *const args[] = { "rdi", "rsi", "rdx", "r10", "r8", "r9" };

	return i >= 0 && i < 6 ? ks_reg_offset(args[i], NULL) : -1;
}

int ks_syscall_nr_offset(void)
{
	return 120; /* orig_ax, between di and ip */
}
