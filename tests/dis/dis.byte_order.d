/* htons, htonl, htonll and the ntoh's: one be16/be32/be64 each, which also converts the argument to the width */
BEGIN
{
	trace(htons(arg0));
	trace(htonl(arg0));
	trace(htonll(arg0));
	trace(ntohs(arg1));
	trace(ntohl(arg1));
	trace(ntohll(arg1));
}
