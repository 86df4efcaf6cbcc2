provider p {
	probe a(int);
};
#pragma D attributes Evolving/Shaky/Common provider p provider
