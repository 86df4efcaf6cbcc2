/*
 * %ls %ws %lc %wc (illumos _dtrace_conversions: pfcheck_wstr and
 * pfprint_wstr, pfcheck_type "int" and pfprint_sint with "lc"): wide
 * strings in wchar_t [] variables (glibc's wchar_t, 4 bytes) ended by a
 * NUL, filling their array (ended there, as pfprint_wstr ends the copy),
 * empty, in an int [] (any 32-bit integers, as pfcheck_wstr), with width
 * and precision (bytes); wide characters, the NUL one (a NUL byte) and
 * ones the C locale cannot convert (0xe9, 0x263a: the conversion prints
 * nothing, see d-language.md).
 */
/* @args: -q */
wchar_t hi[4];
wchar_t full[3];
wchar_t empty[2];
wchar_t latin[3];
int ints[2];
uint32_t u[1];

BEGIN
{
	hi[0] = 'h';
	hi[1] = 'i';
	hi[3] = 'x';
	full[0] = 'a';
	full[1] = 'b';
	full[2] = 'c';
	latin[0] = 'x';
	latin[1] = 0xe9;
	latin[2] = 'y';
	ints[0] = 'o';
	ints[1] = 'k';
	u[0] = 'u';
	printf("[%ls] [%ws] [%ls] [%ls] [%ls] [%ls]\n", hi, hi, full, empty, ints, u);
	printf("[%5ls] [%-5ws] [%.2ls] [%.1ls] [%*ls] [%.*ls]\n", hi, full, full, hi, 4, hi,
	    1, full);
	printf("[%ls] [%ls]\n", latin, empty);
	printf("[%lc] [%wc] [%3lc] [%-3wc] [%lc] [%lc]\n", 'A', 66, (wchar_t)'C', (int32_t)68,
	    0x263a, 0xe9);
	printf("[%lc]\n", 0);
	exit(0);
}
