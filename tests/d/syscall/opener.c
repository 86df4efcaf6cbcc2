/*
 * The syscall goldens' target: ./opener FILE N opens FILE N times, reads 3
 * bytes from it each time and closes it, then opens FILE.missing (which
 * does not exist) N times.  Every call is made once per iteration, so the
 * goldens count exactly N of each.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char missing[4096], buf[3];
	int n;

	if (argc != 3 || (n = atoi(argv[2])) <= 0)
		return 2;
	snprintf(missing, sizeof(missing), "%s.missing", argv[1]);
	for (int i = 0; i < n; i++) {
		int fd = openat(AT_FDCWD, argv[1], O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) != sizeof(buf) || close(fd) != 0)
			return 1;
	}
	for (int i = 0; i < n; i++)
		if (openat(AT_FDCWD, missing, O_RDONLY) >= 0)
			return 1;
	return 0;
}
