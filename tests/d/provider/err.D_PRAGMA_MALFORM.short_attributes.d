provider p {
	probe a(int);
};
#pragma D attributes Evolving/Evolving/Common
