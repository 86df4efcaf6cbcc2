provider p {
	probe a(int);
};
#pragma error this provider is not finished
