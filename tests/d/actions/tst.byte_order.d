/* the byte order subroutines of 16, 32 and 64 bits */
BEGIN
{
	trace(htons(0x1234));
	trace(htonl(0x12345678));
	trace(htonll(0x123456789abcdef0LL));
	trace(ntohs((uint16_t)arg0));
	trace(ntohl((uint32_t)arg0));
	trace(ntohll(arg0));
}
