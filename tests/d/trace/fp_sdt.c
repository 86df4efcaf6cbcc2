/*
 * fp_sdt: fires fp:::val(i, d, f) through <sys/sdt.h> for known doubles
 * and floats (gcc writes them "8f@" and "4f@" in the note), then
 * fp:::val again for infinities and a NaN (run.float_args.d), then
 * fp:::pt(&p) with a struct of a double 2.75, a float -0.5 and an int 7
 * (run.float_members.d).  With -p it prints fp:::val's conversions with
 * printf(3), the expected output.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sdt.h>

static const double dv[] = { 0.0, -1.5, 1e300, 0.1, 4.9406564584124654e-324, -0.0, 123456.789 };
static const float fv[] = { 0.0f, -1.5f, 3.4028235e38f, 0.1f, 1.4e-45f, -0.0f, 2.5f };

static struct pt {
	double x;
	float y;
	int n;
} pt = { 2.75, -0.5f, 7 };

static void show(int i, double d, float f)
{
	printf("%d %f %e %g | %f %e %g | %E %G %10.3f %-12.2e|\n", i, d, d, d, (double)f,
	       (double)f, (double)f, d, (double)f, d, (double)f);
}

int main(int argc, char **argv)
{
	int print = argc > 1 && strcmp(argv[1], "-p") == 0;
	int n = (int)(sizeof(dv) / sizeof(dv[0]));

	for (int i = 0; i < n + 2; i++) {
		volatile double vd = i < n ? dv[i] : i == n ? -INFINITY : __builtin_nan("");
		volatile float vf = i < n ? fv[i] : i == n ? INFINITY : __builtin_nanf("");
		double d = vd;
		float f = vf;

		if (print)
			show(i, d, f);
		else
			DTRACE_PROBE3(fp, val, i, d, f);
	}
	if (!print)
		DTRACE_PROBE1(fp, pt, &pt);
	return 0;
}
