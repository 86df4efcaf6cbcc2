/* htons, htonl, htonll and the ntoh's: network order, swapped on x86_64; the argument converted to the prototype's uintN_t first, as in C (htons(0x12345) is htons(0x2345)); the results unsigned. */
/* @args: -q */
BEGIN
{
	printf("htons %x %x %x %x %x\n", htons(0x1234), htons(0xff01), htons(0x80), htons(0x12345),
	    htons(-2));
	printf("ntohs %x %x %u\n", ntohs(0x3412), ntohs(0x01ff), ntohs(0x80));
	printf("htonl %x %x %x %x %x\n", htonl(0x12345678), htonl(0xdeadbeef), htonl(0x80),
	    htonl(0x123456789), htonl(-2));
	printf("ntohl %x %u\n", ntohl(0x78563412), ntohl(0x80));
	printf("htonll %x %x %x %x\n", htonll(0x0102030405060708), htonll(0xf0debc9a78563412),
	    htonll(0x80), htonll(-2));
	printf("ntohll %x\n", ntohll(0x0807060504030201));
	printf("widen %x\n", htonll(htonl(0x80)));
	this->s = (uint16_t)0xabcd;
	this->i = -2;
	printf("vars %x %x %x\n", htons(this->s), htons(this->i), htonl(this->i));
	exit(0);
}
