/*
 * dt_options.c -- consumer and compiler options (-x name=value and
 * #pragma D option), validated by kind and kept on the handle.
 *
 * Sizes take k, m, g, t suffixes; rates and times take ns, us, ms, s, m, h,
 * d or hz (a rate in hertz) as dtrace(1) does; switches take no value.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"

typedef enum {
	OPT_SIZE,
	OPT_TIME,
	OPT_BOOL,
	OPT_UINT,
	OPT_STRING,
	OPT_SORT,
	OPT_OFORMAT,
	OPT_ENCODING
} optkind_t;

static const struct {
	const char *name;
	optkind_t kind;
} options[] = {
	{ "agghist", OPT_BOOL },       { "aggpack", OPT_BOOL },	      { "encoding", OPT_ENCODING },
	{ "aggpercpu", OPT_BOOL },     { "aggrate", OPT_TIME },	      { "aggsize", OPT_SIZE },
	{ "aggsortkey", OPT_BOOL },    { "aggsortkeypos", OPT_UINT }, { "aggsortpos", OPT_UINT },
	{ "aggsortrev", OPT_BOOL },    { "aggzoom", OPT_BOOL },	      { "bufpolicy", OPT_STRING },
	{ "bufresize", OPT_STRING },   { "bufsize", OPT_SIZE },	      { "cleanrate", OPT_TIME },
	{ "cpu", OPT_UINT },	       { "debug", OPT_BOOL },	      { "nolibs", OPT_BOOL },
	{ "defaultargs", OPT_BOOL },   { "destructive", OPT_BOOL },   { "dynvarsize", OPT_SIZE },
	{ "empty", OPT_BOOL },	       { "flowindent", OPT_BOOL },    { "jstackframes", OPT_UINT },
	{ "jstackstrsize", OPT_SIZE }, { "nspec", OPT_UINT },	      { "oformat", OPT_OFORMAT },
	{ "quiet", OPT_BOOL },	       { "rawbytes", OPT_BOOL },      { "scratchsize", OPT_SIZE },
	{ "specsize", OPT_SIZE },      { "stackframes", OPT_UINT },   { "stackindent", OPT_UINT },
	{ "statusrate", OPT_TIME },    { "strsize", OPT_SIZE },	      { "switchrate", OPT_TIME },
	{ "ustackframes", OPT_UINT },  { "zdefs", OPT_BOOL },	      { "unwindsize", OPT_SIZE },
};

static int parse_size(const char *v, uint64_t *out)
{
	char *end;
	uint64_t n, mul = 1;

	errno = 0;
	if (!isdigit((unsigned char)*v))
		return -1;
	n = strtoull(v, &end, 0);
	if (errno != 0)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case 't': mul <<= 10; /* FALLTHROUGH */
	case 'g': mul <<= 10; /* FALLTHROUGH */
	case 'm': mul <<= 10; /* FALLTHROUGH */
	case 'k':
		mul <<= 10;
		end++;
		break;
	case '\0': break;
	default: return -1;
	}
	/* as illumos dt_opt_size: at most INT64_MAX */
	if (*end != '\0' || (n != 0 && mul > (uint64_t)INT64_MAX / n))
		return -1;
	*out = n * mul;
	return 0;
}

/*
 * The nanoseconds in one unit of a time ("ms", "sec", "day", ...), or 0 for
 * a rate ("hz", or no unit: a bare number is hertz); -1 for an unknown unit.
 */
static int time_unit(const char *unit, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "ns", 1 },
		      { "nsec", 1 },
		      { "us", 1000 },
		      { "usec", 1000 },
		      { "ms", 1000000 },
		      { "msec", 1000000 },
		      { "s", 1000000000 },
		      { "sec", 1000000000 },
		      { "m", 60000000000ULL },
		      { "min", 60000000000ULL },
		      { "h", 3600000000000ULL },
		      { "hour", 3600000000000ULL },
		      { "d", 86400000000000ULL },
		      { "day", 86400000000000ULL },
		      { "hz", 0 },
		      { "", 0 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		/* "Hz" as well as "hz"; the times are lower case */
		if (units[i].ns == 0 ? strcasecmp(unit, units[i].unit) == 0
				     : strcmp(unit, units[i].unit) == 0) {
			*ns = units[i].ns;
			return 0;
		}
	}
	return -1;
}

/*
 * A time or rate as a period in nanoseconds: "10ms", "1s", "997hz", a bare
 * number is hz (a rate above 1 GHz is 1 ns).  Options (switchrate=10ms) and
 * timer probes (tick-1s, profile-997) read theirs with it.
 */
int dt_time_parse(const char *v, uint64_t *out)
{
	char *end;
	uint64_t n, ns;

	errno = 0;
	if (!isdigit((unsigned char)*v))
		return -1;
	n = strtoull(v, &end, 10);
	if (errno != 0 || time_unit(end, &ns) != 0)
		return -1;
	if (ns == 0) {
		if (n == 0)
			return -1;
		*out = n > 1000000000ULL ? 1 : 1000000000ULL / n;
		return 0;
	}
	if (n > UINT64_MAX / ns)
		return -1;
	*out = n * ns;
	return 0;
}

/* A switch's value: 1 (or the number) to set it, 0 to unset it; -1 if neither. */
static int bool_value(const char *v, uint64_t *out)
{
	static const char *const couples[][2] = {
		{ "yes", "no" },     { "enable", "disable" }, { "enabled", "disabled" },
		{ "true", "false" }, { "on", "off" },	      { "set", "unset" }
	};
	char *end;

	*out = 0;
	if (*v == '\0')
		return 0;
	for (size_t i = 0; i < sizeof(couples) / sizeof(couples[0]); i++) {
		if (strcasecmp(couples[i][0], v) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(couples[i][1], v) == 0)
			return 0;
	}
	errno = 0;
	if (!isdigit((unsigned char)*v) || (*out = strtoull(v, &end, 0), errno != 0 || *end))
		return -1;
	*out = *out != 0 ? *out : 1; /* a number sets it, 0 too (illumos: not UNSET) */
	return 0;
}

int dt_option_set(dtrace_hdl_t *dtp, const char *name, const char *val)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		uint64_t v = 1;
		char *end;

		if (strcmp(options[i].name, name) != 0)
			continue;
		switch (options[i].kind) {
		case OPT_BOOL:
			/*
			 * As illumos' dt_opt_runtime: no value or a number sets it,
			 * yes/no, on/off... set or unset it, "" unsets it
			 * (setopt("quiet", "no") while tracing).
			 */
			if (val != NULL && bool_value(val, &v) != 0)
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			if (val != NULL && v == 0) {
				dtp->dt_optset[i] = false;
				return 0;
			}
			break;
		case OPT_SIZE:
			if (val == NULL || parse_size(val, &v) != 0)
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			break;
		case OPT_TIME:
			if (val == NULL || dt_time_parse(val, &v) != 0)
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			break;
		case OPT_UINT:
			errno = 0;
			if (val == NULL || !isdigit((unsigned char)*val) ||
			    (v = strtoull(val, &end, 0), errno != 0 || *end != '\0'))
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			break;
		case OPT_OFORMAT:
			if (val != NULL && strcmp(val, "json") == 0)
				v = DT_OFORMAT_JSON;
			else if (val != NULL && strcmp(val, "folded") == 0)
				v = DT_OFORMAT_FOLDED;
			else if (val != NULL &&
				 (strcmp(val, "text") == 0 || strcmp(val, "none") == 0))
				v = DT_OFORMAT_TEXT;
			else
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			break;
		case OPT_ENCODING: /* illumos dt_opt_encoding: 1 ascii, 2 utf8 */
			if (val != NULL && strcmp(val, "ascii") == 0)
				v = 1;
			else if (val != NULL && strcmp(val, "utf8") == 0)
				v = 2;
			else
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			break;
		case OPT_STRING:
		case OPT_SORT:
			if (val == NULL || *val == '\0')
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			break;
		}
		dtp->dt_options[i] = v;
		dtp->dt_optset[i] = true;
		return 0;
	}
	return dt_set_errno(dtp, EDT_BADOPTNAME);
}

bool dt_option_isset(const dtrace_hdl_t *dtp, const char *name)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strcmp(options[i].name, name) == 0)
			return dtp->dt_optset[i];
	return false;
}

int dtrace_getopt(dtrace_hdl_t *dtp, const char *opt, int64_t *val)
{
	if (dtp == NULL || opt == NULL || val == NULL)
		return dtp == NULL ? -1 : dt_set_errno(dtp, EDT_BADOPTNAME);
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (strcmp(options[i].name, opt) == 0) {
			*val = dtp->dt_optset[i] ? (int64_t)dtp->dt_options[i] : DTRACEOPT_UNSET;
			return 0;
		}
	return dt_set_errno(dtp, EDT_BADOPTNAME);
}

/*
 * strsize is used clamped to 8..DT_STRSIZE_MAX, as illumos'
 * dtrace_state_go clamps it silently to dtrace_strsize_min (8) and
 * dtrace_strsize_max (65536, which our BPF strings cannot reach);
 * dtrace_getopt still gives what was set, as there.
 */
#define DT_STRSIZE_MAX 4096

uint64_t dt_option_get(const dtrace_hdl_t *dtp, const char *name, uint64_t dflt)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		uint64_t v;

		if (strcmp(options[i].name, name) != 0)
			continue;
		v = dtp->dt_optset[i] ? dtp->dt_options[i] : dflt;
		if (strcmp(name, "strsize") == 0)
			v = v < 8 ? 8 : v > DT_STRSIZE_MAX ? DT_STRSIZE_MAX : v;
		return v;
	}
	return dflt;
}
