/*
 * test_json.c -- the JSON writer of -x oformat=json: string escaping
 * (control characters, quotes, invalid UTF-8 as \u00XX), integers by their
 * D type's size and sign, and the oformat option's values.
 */
#include <math.h>
#include <stdlib.h>

#include "../check.h"
#include "dt_run.h"

/* What f wrote, as a string (the caller frees it). */
#define CAPTURE(out, stmt)                                \
	do {                                              \
		size_t len_;                              \
		FILE *fp = open_memstream(&(out), &len_); \
		stmt;                                     \
		fclose(fp);                               \
	} while (0)

static void check_bytes(const char *in, size_t n, const char *want)
{
	char *got = NULL;

	CAPTURE(got, dt_json_bytes(fp, in, n));
	CHECK_STR(got, want);
	free(got);
}

static void test_strings(void)
{
	check_bytes("plain", 5, "\"plain\"");
	check_bytes("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	check_bytes("t\tn\nr\r", 6, "\"t\\tn\\nr\\r\"");
	check_bytes("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
	check_bytes("nul\0x", 5, "\"nul\\u0000x\"");
	/* valid UTF-8 passes through: é, €, U+1F600 */
	check_bytes("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9,
		    "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	/* invalid: a lone continuation, a truncated sequence, an overlong form, a surrogate */
	check_bytes("\x80", 1, "\"\\u0080\"");
	check_bytes("\xe2\x82", 2, "\"\\u00e2\\u0082\"");
	check_bytes("\xc0\xaf", 2, "\"\\u00c0\\u00af\"");
	check_bytes("\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"");
	check_bytes("\xf4\x90\x80\x80", 4, "\"\\u00f4\\u0090\\u0080\\u0080\"");
}

static void check_int(uint64_t v, uint32_t size, bool sign, const char *want)
{
	dt_rec_t rec = { .r_off = 0, .r_size = size, .r_kind = DT_RK_INT, .r_signed = sign };
	uint8_t data[8];
	char *got = NULL;

	memcpy(data, &v, 8);
	CAPTURE(got, dt_json_datum(NULL, fp, &rec, data));
	CHECK_STR(got, want);
	free(got);
}

static void test_datums(void)
{
	check_int((uint64_t)-1, 8, true, "-1");
	check_int((uint64_t)-1, 8, false, "18446744073709551615");
	check_int(0xfffffffe, 4, true, "-2");
	check_int(0xfffffffe, 4, false, "4294967294");
	check_int(0xff80, 2, true, "-128");
	check_int(200, 1, false, "200");
	check_int(200, 1, true, "-56");
	check_int((uint64_t)-5, 4, true, "-5"); /* sign-extended already */

	uint8_t buf[8] = { 'h', 'i', '\0', 'x', 1, 2, 3, 4 };
	dt_rec_t str = { .r_off = 0, .r_size = 8, .r_kind = DT_RK_STR };
	dt_rec_t mem = { .r_off = 4, .r_size = 4, .r_kind = DT_RK_MEM };
	char *got = NULL;

	CAPTURE(got, dt_json_datum(NULL, fp, &str, buf));
	CHECK_STR(got, "\"hi\"");
	free(got);
	got = NULL;
	CAPTURE(got, dt_json_datum(NULL, fp, &mem, buf));
	CHECK_STR(got, "[1,2,3,4]");
	free(got);

	/* floating-point records: numbers, null where JSON has no number */
	{
		static const struct {
			double d;
			uint32_t size;
			const char *want;
		} fl[] = {
			{ -1.5, 8, "-1.5" },
			{ 0.1, 8, "0.10000000000000001" },
			{ 1e300, 8, "1.0000000000000001e+300" },
			{ -1.5, 4, "-1.5" },
			{ INFINITY, 8, "null" },
			{ NAN, 4, "null" },
		};

		for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
			dt_rec_t f = { .r_off = 0,
				       .r_size = fl[i].size,
				       .r_kind = DT_RK_INT,
				       .r_float = true };
			uint8_t fb[8] = { 0 };
			float x = (float)fl[i].d;

			if (fl[i].size == 4)
				memcpy(fb, &x, 4);
			else
				memcpy(fb, &fl[i].d, 8);
			got = NULL;
			CAPTURE(got, dt_json_datum(NULL, fp, &f, fb));
			CHECK_STR(got, fl[i].want);
			free(got);
		}
	}
}

static void test_option(void)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, &err);

	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;
	CHECK_INT(dtrace_oformat(dtp), 0);
	CHECK_INT(dtrace_setopt(dtp, "oformat", "json"), 0);
	CHECK_INT(dtrace_oformat(dtp), 1);
	CHECK_INT(dtrace_setopt(dtp, "oformat", "text"), 0);
	CHECK_INT(dtrace_oformat(dtp), 0);
	CHECK_INT(dtrace_setopt(dtp, "oformat", "xml"), -1);
	CHECK_STR(dtrace_errmsg(dtp, dtrace_errno(dtp)), "Invalid value for specified option");
	CHECK_INT(dtrace_setopt(dtp, "oformat", NULL), -1);
	dtrace_close(dtp);
}

int main(void)
{
	test_strings();
	test_datums();
	test_option();
	return CHECK_DONE();
}
