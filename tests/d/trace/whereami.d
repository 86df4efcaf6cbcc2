/* The whereami program's provider (run.whereami.d). */
provider wh {
	probe site(long ret, int depth);
	probe dir(const char *path);
};
