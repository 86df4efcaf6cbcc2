/* #pragma D attributes may name a provider declared further down (DTrace defers it) */
#pragma D attributes Evolving/Evolving/Common provider later provider
provider later {
	probe a(int);
};
