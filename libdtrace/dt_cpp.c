/*
 * dt_cpp.c -- running the C preprocessor for -C.
 *
 * The source goes to cpp's standard input behind a line marker naming the
 * file, so cpp's own messages and the line markers it writes back carry the
 * real file name, and the lexer keeps exact locations.  Quoted includes are
 * searched next to the file, as they would be if cpp read it directly.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dt_impl.h"

static char *dirname_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * Write all of in to fdin (non-blocking) while reading fdout into a growing
 * buffer, so that a preprocessor that streams cannot deadlock us.  fdin is
 * closed on return, whatever happens.
 */
static int pump(int fdin, const char *in, size_t inlen, int fdout, char **outp, size_t *outlenp)
{
	size_t cap = 16384, len = 0, off = 0;
	char *out = malloc(cap);

	if (out == NULL)
		return ENOMEM;
	for (;;) {
		struct pollfd pfd[2] = { { fdout, POLLIN, 0 }, { fdin, POLLOUT, 0 } };
		nfds_t n = fdin >= 0 ? 2 : 1;

		if (poll(pfd, n, -1) < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			if (fdin >= 0)
				close(fdin);
			free(out);
			return e;
		}
		if (n == 2 && (pfd[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t w = write(fdin, in + off, inlen - off);

			if (w < 0 && errno != EINTR && errno != EAGAIN) {
				close(fdin); /* cpp stopped reading: it will say why */
				fdin = -1;
			} else if (w > 0 && (off += (size_t)w) == inlen) {
				close(fdin);
				fdin = -1;
			}
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t r;

			if (len > DT_SRC_MAX) { /* an endless #include (a FIFO, a device) */
				free(out);
				if (fdin >= 0)
					close(fdin);
				return EFBIG;
			}
			if (cap - len < 4096) {
				char *no = realloc(out, cap * 2);

				if (no == NULL) {
					free(out);
					if (fdin >= 0)
						close(fdin);
					return ENOMEM;
				}
				out = no;
				cap *= 2;
			}
			r = read(fdout, out + len, cap - len - 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			len += (size_t)r;
		}
	}
	if (fdin >= 0)
		close(fdin);
	out[len] = '\0';
	*outp = out;
	*outlenp = len;
	return 0;
}

/* Pipe ends away from 0, 1 and 2: the child's dup2 onto them must not be a no-op. */
static int above_stdio(int fd[2])
{
	for (int i = 0; i < 2; i++) {
		if (fd[i] < 3) {
			int n = fcntl(fd[i], F_DUPFD_CLOEXEC, 3);

			if (n < 0)
				return -1;
			close(fd[i]);
			fd[i] = n;
		}
	}
	return 0;
}

/* '# 1 "name"' with '"' and '\\' escaped as cpp expects; returns its length. */
static size_t line_marker(char *buf, size_t len, const char *name)
{
	size_t n = (size_t)snprintf(buf, len, "# 1 \"");

	for (; *name != '\0' && n + 4 < len; name++) {
		if (*name == '"' || *name == '\\')
			buf[n++] = '\\';
		buf[n++] = *name;
	}
	buf[n++] = '"';
	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

char *dt_cpp_run(dtrace_hdl_t *dtp, const char *src, size_t len, const char *fname, size_t *outlen)
{
	const char *name = fname != NULL ? fname : "<stdin>";
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ep[2] = { -1, -1 };
	const char **argv = NULL;
	char *dir = NULL, *marker = NULL, *input = NULL, *result = NULL;
	size_t mlen, argc = 0;
	int status, err = 0, execerr = 0, waspending;
	sigset_t pipeset, oldmask, pending;
	pid_t pid;

	argv = calloc((size_t)dtp->dt_cppargc + 8, sizeof(char *));
	dir = dirname_of(name);
	mlen = 2 * strlen(name) + 32;
	marker = malloc(mlen);
	if (argv == NULL || dir == NULL || marker == NULL)
		goto nomem;
	argv[argc++] = dtp->dt_cpppath;
	for (int i = 0; i < dtp->dt_cppargc; i++)
		argv[argc++] = dtp->dt_cppargv[i];
	argv[argc++] = "-iquote";
	argv[argc++] = dir;
	argv[argc++] = "-D__SUNW_D=1";
	argv[argc++] = "-D__SUNW_D_64";
	argv[argc++] = "-";
	argv[argc] = NULL;
	mlen = line_marker(marker, mlen, name);
	if ((input = malloc(mlen + len)) == NULL)
		goto nomem;
	memcpy(input, marker, mlen);
	memcpy(input + mlen, src, len);
	/* a first "#!" line (an interpreter line) is blanked for cpp, which
	   rejects it, keeping the line count; the lexer skips such lines too */
	if (len >= 2 && src[0] == '#' && src[1] == '!')
		for (size_t i = mlen; i < mlen + len && input[i] != '\n'; i++)
			input[i] = ' ';

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0 ||
	    above_stdio(in) != 0 || above_stdio(out) != 0 || above_stdio(ep) != 0 ||
	    fcntl(in[1], F_SETFL, O_NONBLOCK) != 0) {
		err = errno;
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		err = errno;
		goto fail;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execvp(argv[0], (char *const *)argv);
		err = errno;
		if (write(ep[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(ep[1]);
	in[0] = out[1] = ep[1] = -1;
	/*
	 * A preprocessor that exits early makes our write raise SIGPIPE: block
	 * it in this thread and consume one we caused, leaving the process's
	 * handler alone.
	 */
	sigemptyset(&pipeset);
	sigaddset(&pipeset, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipeset, &oldmask);
	sigpending(&pending);
	waspending = sigismember(&pending, SIGPIPE);
	err = pump(in[1], input, mlen + len, out[0], &result, outlen);
	in[1] = -1;    /* closed by pump */
	close(out[0]); /* so that a cpp still writing cannot block waitpid */
	out[0] = -1;
	sigpending(&pending);
	if (!waspending && sigismember(&pending, SIGPIPE)) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&pipeset, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &oldmask, NULL);
	if (read(ep[0], &execerr, sizeof(execerr)) != sizeof(execerr))
		execerr = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (execerr != 0) {
		dt_set_errmsg(dtp, EDT_CPP, "failed to run %s: %s", argv[0], strerror(execerr));
		free(result);
		result = NULL;
	} else if (err != 0) {
		dt_set_errmsg(dtp, EDT_CPP, "failed to read from %s: %s", argv[0], strerror(err));
		free(result);
		result = NULL;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		dt_set_errmsg(dtp, EDT_CPP, "preprocessor %s failed on %s (exit status %d)",
			      argv[0], name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		free(result);
		result = NULL;
	}
	goto done;
nomem:
	err = ENOMEM;
fail:
	dt_set_errmsg(dtp, err == ENOMEM ? EDT_NOMEM : EDT_CPP, "cannot run %s: %s",
		      dtp->dt_cpppath, strerror(err));
done:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	free(input);
	free(marker);
	free(dir);
	free(argv);
	return result;
}
