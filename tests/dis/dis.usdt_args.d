/* arg0 and args[1] on a USDT description: args[] typed by the provider declared here */
provider app {
	probe request(uint64_t id, const char *path, int flags);
};

app*:::request
/args[2] != 0/
{
	trace(arg0);
	trace(copyinstr((uintptr_t)args[1]));
}
