/*
 * qserver: an example key-value query server with a stable provider
 * (qserver_probes.d).  One thread per connection on a Unix socket; each
 * line a query, each answered "OK rows" or "ERR why":
 *   GET key        1 row if the key is there, else 0
 *   PUT key value  1 row
 *   SCAN prefix    a row per key that starts with prefix
 *   SLEEP ms       0 rows, after ms milliseconds (a slow query)
 *   SHUTDOWN       the server exits once this connection closes
 *
 *   qserver SOCKET            serve
 *   qserver -c SOCKET < FILE  a client: send FILE's lines, print the answers
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "qserver_probes.h"

#define NKEYS 4096

static struct {
	char *key, *value;
} store[NKEYS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint_fast64_t next_qid = 1;
static atomic_bool shutting_down;

static unsigned slot(const char *key)
{
	unsigned h = 5381;

	for (; *key; key++)
		h = h * 33 + (unsigned char)*key;
	return h % NKEYS;
}

/* Run one query: its status (0 ok), *rows and the answer in out. */
static int run(char *q, uint64_t *rows, char *out, size_t len)
{
	char *save = NULL, *cmd = strtok_r(q, " ", &save), *a = strtok_r(NULL, " ", &save),
	     *b = strtok_r(NULL, "", &save);

	*rows = 0;
	if (cmd == NULL) {
		snprintf(out, len, "ERR empty query\n");
		return 1;
	}
	if (strcmp(cmd, "SLEEP") == 0 && a != NULL) {
		struct timespec ts = { atoi(a) / 1000, (long)(atoi(a) % 1000) * 1000000 };

		nanosleep(&ts, NULL);
	} else if (strcmp(cmd, "SHUTDOWN") == 0) {
		shutting_down = true;
	} else if ((strcmp(cmd, "GET") == 0 || strcmp(cmd, "PUT") == 0) && a != NULL) {
		unsigned i = slot(a);

		pthread_mutex_lock(&lock);
		while (store[i].key != NULL && strcmp(store[i].key, a) != 0)
			i = (i + 1) % NKEYS;
		if (cmd[0] == 'G') {
			*rows = store[i].key != NULL;
		} else if (b != NULL) {
			if (store[i].key == NULL)
				store[i].key = strdup(a);
			free(store[i].value);
			store[i].value = strdup(b);
			*rows = 1;
		}
		pthread_mutex_unlock(&lock);
		if (cmd[0] == 'P' && b == NULL) {
			snprintf(out, len, "ERR PUT needs a value\n");
			return 1;
		}
	} else if (strcmp(cmd, "SCAN") == 0) {
		pthread_mutex_lock(&lock);
		for (unsigned i = 0; i < NKEYS; i++)
			*rows += store[i].key != NULL && strncmp(store[i].key, a != NULL ? a : "",
								 a != NULL ? strlen(a) : 0) == 0;
		pthread_mutex_unlock(&lock);
	} else {
		snprintf(out, len, "ERR unknown query %s\n", cmd);
		return 1;
	}
	snprintf(out, len, "OK %llu\n", (unsigned long long)*rows);
	return 0;
}

static void *serve(void *arg)
{
	int fd = (int)(intptr_t)arg;
	FILE *in = fdopen(fd, "r");
	char line[1024], copy[1024], out[256];
	uint64_t n = 0;

	QSERVER_CONN_OPEN(fd);
	while (in != NULL && fgets(line, sizeof(line), in) != NULL) {
		uint64_t qid = next_qid++, rows;
		int status;

		line[strcspn(line, "\r\n")] = '\0';
		memcpy(copy, line, sizeof(line));
		QSERVER_QUERY_START(fd, qid, line);
		status = run(copy, &rows, out, sizeof(out));
		QSERVER_QUERY_DONE(fd, qid, line, status, rows);
		n++;
		if (write(fd, out, strlen(out)) < 0)
			break;
	}
	QSERVER_CONN_CLOSE(fd, n);
	if (in != NULL)
		fclose(in);
	if (shutting_down)
		exit(0);
	return NULL;
}

static int client(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	char line[1024];
	FILE *in;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	for (int i = 0; connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0; i++) {
		if (i == 100) {
			perror(path);
			return 1;
		}
		usleep(50000); /* the server may be starting */
	}
	in = fdopen(fd, "r+");
	while (fgets(line, sizeof(line), stdin) != NULL) {
		fputs(line, in);
		fflush(in);
		if (fgets(line, sizeof(line), in) == NULL)
			return 1;
		fputs(line, stdout);
	}
	fclose(in);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd;

	if (argc == 3 && strcmp(argv[1], "-c") == 0)
		return client(argv[2]);
	if (argc != 2) {
		fprintf(stderr, "usage: qserver SOCKET | qserver -c SOCKET < queries\n");
		return 2;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	unlink(argv[1]);
	if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(lfd, 16) != 0) {
		perror(argv[1]);
		return 1;
	}
	for (;;) {
		int fd = accept(lfd, NULL, NULL);
		pthread_t t;

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("accept");
			return 1;
		}
		if (pthread_create(&t, NULL, serve, (void *)(intptr_t)fd) != 0)
			close(fd);
		else
			pthread_detach(t);
	}
}
