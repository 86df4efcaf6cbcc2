/*
 * libFuzzer target: the BPF disassembler of dtrace -S, on the input's bytes
 * as instructions (a whole number of them).  Every instruction must print
 * one line with text, whatever its fields: no crash, no read past the end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dt_dis.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *note(size_t i, void *arg)
{
	(void)arg;
	return i % 3 == 0 ? "note" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / sizeof(struct bpf_insn), len = 0;
	struct bpf_insn *insns = malloc(n > 0 ? n * sizeof(*insns) : 1);
	char *out = NULL;
	FILE *fp;

	if (insns == NULL)
		return 0;
	/* a copy of the exact size, for ASan to see a read past it */
	memcpy(insns, data, n * sizeof(*insns));
	if ((fp = open_memstream(&out, &len)) == NULL) {
		free(insns);
		return 0;
	}
	dt_dis(fp, "", insns, n, note, NULL);
	fclose(fp);
	/* as many lines as instructions, less the second halves of 64-bit loads */
	size_t lines = 0;

	for (const char *p = out, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		const char *text = strstr(p, ": ");

		if (text == NULL || text > nl || text + 2 == nl || text[2] == ' ')
			__builtin_trap();
		lines++;
	}
	if (lines > n || lines < (n + 1) / 2 || (len > 0 && out[len - 1] != '\n'))
		__builtin_trap();
	free(out);
	free(insns);
	return 0;
}
