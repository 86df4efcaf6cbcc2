/* #pragma D attributes with a stability that does not exist */
provider myp {
	probe p();
};
#pragma D attributes Solid/Evolving/Common provider myp provider
