/* #pragma D attributes may name a provider that the program declares further down */
#pragma D attributes Evolving/Evolving/Common provider later provider

provider later {
	probe p();
};
