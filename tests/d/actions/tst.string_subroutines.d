/* the string subroutines with their optional arguments */
BEGIN
{
	this->s = "/usr/lib/../bin/dtrace";
	trace(strlen(this->s));
	trace(strjoin(this->s, ".d"));
	trace(substr(this->s, 5));
	trace(substr(this->s, 5, 3));
	trace(substr(this->s, -6));
	trace(index(this->s, "/"));
	trace(index(this->s, "/", 2));
	trace(rindex(this->s, "/"));
	trace(rindex(this->s, "/", 10));
	trace(strchr(this->s, 'b'));
	trace(strrchr(this->s, '/'));
	trace(strstr(this->s, "lib"));
	trace(strtok(this->s, "/"));
	trace(basename(this->s));
	trace(dirname(this->s));
	trace(cleanpath(this->s));
	trace(lltostr(-1234));
	trace(lltostr(255, 16));
	trace(toupper(execname));
	trace(tolower("MiXeD"));
	trace(strtoll("0x1f", 16));
	trace(strtoll("42"));
	trace(json("{\"a\": [1, {\"b\": \"x\"}]}", "a[1].b"));
}
