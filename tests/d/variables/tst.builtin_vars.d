/* The built-in variables can be read with their documented types. */
BEGIN
{
	a = timestamp + vtimestamp + walltimestamp;
	b = pid + ppid + tid + cpu;
	c = uid + gid + errno;
	d = execname == "x" || probename == "BEGIN" || probeprov == "dtrace";
	e = probemod == "" && probefunc == "" && cwd != "";
	f = arg0 + arg1 + arg9;
	g = caller + ucaller + curthread + id + epid;
	h = stackdepth + ustackdepth;
	ok = 1 / (sizeof (timestamp) == 8 && sizeof (pid) == 4);
}
