/*
 * fp_usdt: declares provider "fpu" with libusdt at run time, probe
 * main:val(int32, double), waits until a tracer enables it, then fires it
 * for known doubles (run.float_usdt.d).  libusdt passes a double's bits.
 */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "usdt.h"

int main(void)
{
	static const usdt_argtype_t t[] = { USDT_ARG_INT32, USDT_ARG_DOUBLE };
	static const double dv[] = { 0.0, -1.5, 1e300, 4.9406564584124654e-324, -0.0 };
	usdt_provider_t *p = usdt_provider_create("fpu", "fpmod", NULL, NULL);
	usdt_probe_t *val = p != NULL ? usdt_probe_create(p, "main", "val", 2, t) : NULL;
	int n = (int)(sizeof(dv) / sizeof(dv[0]));

	if (val == NULL || usdt_provider_enable(p) != 0) {
		fprintf(stderr, "fp_usdt: cannot make the provider\n");
		return 1;
	}
	for (int i = 0; i < 60000 && !usdt_probe_is_enabled(val); i++)
		usleep(1000);
	for (int i = 0; i < n + 2; i++) {
		double d = i < n ? dv[i] : i == n ? INFINITY : -__builtin_nan("");
		usdt_arg_t a[2] = { { .i = i }, { .d = d } };

		usdt_probe_fire(val, 2, a);
	}
	usdt_provider_destroy(p);
	return 0;
}
