/* #pragma D attributes names a provider the program never declares */
provider p {
	probe a(int);
};
#pragma D attributes Evolving/Evolving/Common provider ghost provider
