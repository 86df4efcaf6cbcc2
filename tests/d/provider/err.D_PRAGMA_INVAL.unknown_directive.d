provider p {
	probe a(int);
};
#pragma D frobnicate yes
