#pragma D attributes Evolving/Evolving/Common provider later provider
provider later {
	probe a(int);
};
