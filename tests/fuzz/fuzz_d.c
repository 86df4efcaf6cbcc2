/*
 * libFuzzer target: the D front-end (lexer, parser, checker, pragmas) on any
 * bytes, and, when they compile, dtrace -h's header generation.  Neither
 * may crash, hang, leak or read out of bounds.
 */
#include <stdint.h>
#include <stdio.h>

#include "dtrace.h"
#include "dtrace_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;
	FILE *in, *out;

	if (dtp == NULL)
		return 0;
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
