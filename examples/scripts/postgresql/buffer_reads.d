#!/usr/sbin/dtrace -qs
/*
 * Shared buffer reads by relation (its relfilenode) and fork (0 main,
 * 1 free space map, 2 visibility map), found in shared buffers or read
 * from the kernel, when dtrace ends:
 *   dtrace -qs buffer_reads.d
 * (SELECT relname FROM pg_class WHERE relfilenode = N names one.)
 */
postgresql:/usr/lib/postgresql/15/bin/postgres::buffer-read-done
{
	@[arg4, arg0, arg7 ? "hit" : "read"] = count();
}

END
{
	printf("%12s %5s %5s %10s\n", "RELFILENODE", "FORK", "", "BUFFERS");
	printa("%12d %5d %5s %@10d\n", @);
}
