/*
 * %ls and %ws of wchar_t [] members in the process's memory (wide_sdt's
 * wd:::str): "hi" in an array of 4, "abc" filling an array of 3 (the copy
 * ends at the array's end, as illumos's pfprint_wstr ends it), an empty
 * one, one with 0xe9 (not convertible in the C locale: nothing), the int
 * after them; width, '-' and a precision in bytes.
 */
/* @setup: ./build_wide.sh */
/* @args: -q -c ./wide_sdt */
struct wide {
	wchar_t hi[4];
	wchar_t full[3];
	wchar_t empty[2];
	wchar_t latin[3];
	int after;
	long double ld;
	long double neg;
};

provider wd {
	probe str(struct wide *);
};

wd$target:::str
{
	printf("[%ls] [%ls] [%ls] [%ls] [%d]\n", args[0]->hi, args[0]->full, args[0]->empty,
	    args[0]->latin, args[0]->after);
	printf("[%6ws] [%-6ws] [%.2ls]\n", args[0]->hi, args[0]->full, args[0]->full);
	this->w = args[0];
	printf("[%ls]\n", this->w->full);
}
