/*
 * libFuzzer target: the D front-end (lexer, parser, checker, pragmas) on any
 * bytes, and, when they compile, dtrace -h's header generation; the first
 * line, as a probe description (dtrace -n/-P/-m/-f).  None may crash,
 * hang, leak or read out of bounds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"
#include "dtrace_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_desc(dtrace_hdl_t *dtp, const uint8_t *data, size_t size)
{
	const uint8_t *nl = size > 0 ? memchr(data, '\n', size) : NULL;
	size_t n = nl != NULL ? (size_t)(nl - data) : size;
	char *s = malloc(n + 1);
	dtrace_probedesc_t pd;

	if (s == NULL)
		return;
	memcpy(s, data, n);
	s[n] = '\0'; /* a NUL inside ends the string, as argv would */
	for (int spec = DTRACE_PROBESPEC_NONE; spec <= DTRACE_PROBESPEC_NAME; spec++)
		(void)dtrace_str2desc(dtp, spec, s, &pd);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;
	FILE *in, *out;

	if (dtp == NULL)
		return 0;
	fuzz_desc(dtp, data, size);
	/* fmemopen keeps NUL bytes in the input, as a file would */
	in = size > 0 ? fmemopen((void *)data, size, "r") : NULL;
	pgp = in != NULL ? dtrace_program_fcompile(dtp, in, "fuzz.d", 0, 0, NULL)
			 : dtrace_program_strcompile(dtp, "", "fuzz.d", 0, 0, NULL);
	if (in != NULL)
		fclose(in);
	if (pgp != NULL && (out = fopen("/dev/null", "w")) != NULL) {
		dtrace_program_header(dtp, out, "fuzz.h");
		fclose(out);
	}
	dtrace_close(dtp);
	return 0;
}
