/*
 * qserver: the provider of the example query server.  `dtrace -h` turns
 * it into qserver_probes.h (QSERVER_QUERY_START(...) and friends); `dtrace
 * -G` into the object linked with the server.
 */
provider qserver {
	/* a client connected: the connection's number */
	probe conn__open(int conn);
	/* it went away after this many queries */
	probe conn__close(int conn, uint64_t queries);
	/* a query arrived: connection, query id (from 1, the server's), text */
	probe query__start(int conn, uint64_t qid, const char *query);
	/* it finished: status 0 ok, 1 an error; rows it returned */
	probe query__done(int conn, uint64_t qid, const char *query, int status, uint64_t rows);
};

#pragma D attributes Evolving/Evolving/Common provider qserver provider
#pragma D attributes Evolving/Evolving/Common provider qserver args
