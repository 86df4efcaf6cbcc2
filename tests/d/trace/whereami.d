/* The whereami program's provider (run.whereami.d). */
provider wh {
	probe site(long ret, int depth, long fn, long local, long tcb);
	probe dir(const char *path);
};
