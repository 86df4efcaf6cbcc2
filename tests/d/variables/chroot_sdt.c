/*
 * chroot_sdt: fires rt:::before, chroots into the directory "jail" (made
 * here) and changes into "/sub" there, then fires rt:::after: root and cwd
 * seen from a chrooted process (run.root.d).
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sdt.h>
#include <unistd.h>

int main(void)
{
	mkdir("jail", 0755);
	mkdir("jail/sub", 0755);
	DTRACE_PROBE(rt, before);
	if (chroot("jail") != 0 || chdir("/sub") != 0) {
		perror("chroot");
		return 1;
	}
	DTRACE_PROBE(rt, after);
	return 0;
}
