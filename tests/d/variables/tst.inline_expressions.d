/* Inlines may name strings and non-constant expressions, re-evaluated at each use. */
inline string NAME = "worker";
inline int MYPID = pid;
inline int IS_INIT = pid == 1;
inline uint64_t NOW = timestamp;

BEGIN
/!IS_INIT/
{
	who = NAME;
	p = MYPID + 1;
	t = NOW - NOW;
	same = execname == NAME;
}
