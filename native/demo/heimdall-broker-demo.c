/*
 * heimdall-broker-demo: a native broker serving one workload, for `./lab graph record`.
 *
 * A small but real broker process built on libheimdall's native supervisor (hl_sup_start: a pthread
 * answering seccomp user notifications by opening the path itself beneath in/ with openat2
 * RESOLVE_BENEATH and injecting the descriptor with SECCOMP_IOCTL_NOTIF_ADDFD). Recording it under
 * ptrace gives the executable syscall projection of a broker's threads: the main thread (setup, the
 * command loop with the workload, teardown), the supervisor thread (poll, receive, read the path,
 * check the id, openat2, fstat, fcntl, addfd, close), and a SIGCHLD handler (write to a self-pipe).
 *
 * The workload is notify-child (found beside this executable): it installs a filter that notifies
 * openat, hands its listener over (we take a copy with pidfd_getfd, then it closes its own), and
 * opens files on command. The demo asks for OPENS opens of a file inside in/ and one escape attempt
 * ("../outside"), which the supervisor must refuse with EACCES. Checked: every brokered open returns
 * the file's content, the escape is refused, the supervisor's counters agree.
 *
 * Usage: heimdall-broker-demo [OPENS]   (default 8)
 * Exit status: 0 all checks passed, 1 a check failed, 2 bad usage, 3 setup failed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "hl_broker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONTENT "heimdall-broker-demo: brokered content\n"

static int sigchld_pipe[2] = { -1, -1 };

static void on_sigchld(int sig)
{
	(void)sig;
	int saved = errno;
	char b = 'c';
	(void)!write(sigchld_pipe[1], &b, 1);
	errno = saved;
}

/* The job folder (mkdtemp) and what is in it, removed on every way out. */
static char job[] = "/tmp/heimdall-broker-demo-XXXXXX";
static char in[64], file[96];

static void remove_job(void)
{
	if (file[0])
		unlink(file);
	if (in[0])
		rmdir(in);
	if (strstr(job, "XXXXXX") == NULL)
		rmdir(job);
}

static void die(int status, const char *what)
{
	fprintf(stderr, "heimdall-broker-demo: %s: %s\n", what, strerror(errno));
	remove_job();
	exit(status);
}

/* One line from the workload into buf (without the newline); 0 at EOF. */
static int read_line(FILE *in, char *buf, size_t cap)
{
	if (!fgets(buf, (int)cap, in))
		return 0;
	buf[strcspn(buf, "\n")] = 0;
	return 1;
}

static long json_long(const char *line, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(line, pat);
	return p ? strtol(p + strlen(pat), NULL, 10) : LONG_MIN;
}

static int expect_content(const char *line)
{
	static char hex[2 * sizeof CONTENT + 1];
	if (!hex[0])
		for (size_t i = 0; i < sizeof CONTENT - 1; i++)
			sprintf(hex + 2 * i, "%02x", (unsigned char)CONTENT[i]);
	return strstr(line, hex) != NULL;
}

int main(int argc, char **argv)
{
	long opens = 8;
	if (argc > 2 || (argc == 2 && (opens = strtol(argv[1], NULL, 10)) < 1)) {
		fprintf(stderr, "usage: heimdall-broker-demo [OPENS >= 1]\n");
		return 2;
	}
	if (hl_notif_supported() != 1) {
		fprintf(stderr, "heimdall-broker-demo: seccomp user notification is not available here\n");
		return 3;
	}

	/* The job: a fresh directory with in/ holding the file the workload opens. */
	if (!mkdtemp(job))
		die(3, "mkdtemp");
	snprintf(in, sizeof in, "%s/in", job);
	if (mkdir(in, 0700) != 0) {
		in[0] = 0;
		die(3, "mkdir in/");
	}
	snprintf(file, sizeof file, "%s/data.txt", in);
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, CONTENT, sizeof CONTENT - 1) != (ssize_t)(sizeof CONTENT - 1))
		die(3, file);
	close(fd);

	if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		die(3, "pipe2");
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL) != 0)
		die(3, "sigaction");

	/* The workload: notify-child beside this executable, its stdin and stdout on pipes. */
	char self[PATH_MAX], workload[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		die(3, "readlink /proc/self/exe");
	self[n] = 0;
	*strrchr(self, '/') = 0;
	snprintf(workload, sizeof workload, "%s/notify-child", self);
	int to_child[2], from_child[2];
	if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0)
		die(3, "pipe2");
	pid_t child = fork();
	if (child < 0)
		die(3, "fork");
	if (child == 0) {
		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		char *args[] = { workload, NULL };
		execv(workload, args);
		_exit(127);
	}
	close(to_child[0]);
	close(from_child[1]);
	FILE *cmd = fdopen(to_child[1], "w");
	FILE *rsp = fdopen(from_child[0], "r");
	if (!cmd || !rsp)
		die(3, "fdopen");
	setvbuf(cmd, NULL, _IOLBF, 0);

	char line[8192];
	if (!read_line(rsp, line, sizeof line) || json_long(line, "listener") < 0) {
		fprintf(stderr, "heimdall-broker-demo: workload did not start: %s\n", line);
		remove_job();
		return 3;
	}
	int listener = hl_pidfd_getfd((int)child, (int)json_long(line, "listener"));
	if (listener < 0) {
		errno = -listener;
		die(3, "pidfd_getfd");
	}
	fprintf(cmd, "close-listener\n");
	if (!read_line(rsp, line, sizeof line))
		die(3, "close-listener");

	int in_dirfd = hl_broker_open_dir(in);
	if (in_dirfd < 0) {
		errno = -in_dirfd;
		die(3, "open in/");
	}
	long sup = hl_sup_start(listener, -1, HL_ANSWER_BROKER, 0, in_dirfd, 0);
	if (sup < 0) {
		errno = (int)-sup;
		die(3, "hl_sup_start");
	}
	close(in_dirfd);

	int failures = 0;
	for (long i = 0; i < opens; i++) {
		fprintf(cmd, "open data.txt\n");
		if (!read_line(rsp, line, sizeof line) || json_long(line, "fd") < 0 || !expect_content(line)) {
			fprintf(stderr, "heimdall-broker-demo: open %ld: %s\n", i, line);
			failures++;
		}
	}
	fprintf(cmd, "open ../outside\n");
	if (!read_line(rsp, line, sizeof line) || json_long(line, "errno") != EACCES) {
		fprintf(stderr, "heimdall-broker-demo: escape not refused: %s\n", line);
		failures++;
	}
	fprintf(cmd, "exit\n");
	fclose(cmd);

	/* Wait for the SIGCHLD handler's byte, then reap. */
	struct pollfd p = { .fd = sigchld_pipe[0], .events = POLLIN };
	int status = 0;
	while (waitpid(child, &status, WNOHANG) == 0) {
		if (poll(&p, 1, 5000) == 0) {
			fprintf(stderr, "heimdall-broker-demo: workload did not exit\n");
			kill(child, SIGKILL);
		}
		char b;
		while (read(sigchld_pipe[0], &b, 1) == 1) {
		}
	}
	fclose(rsp);
	hl_sup_stop(sup);
	long counters[HL_NCOUNTERS];
	hl_sup_stats(sup, counters, HL_NCOUNTERS);
	hl_sup_free(sup);
	if (counters[HL_C_BROKERED] != opens || counters[HL_C_REFUSED] != 1) {
		fprintf(stderr,
			"heimdall-broker-demo: supervisor counted %ld brokered, %ld refused (expected %ld, 1)\n",
			counters[HL_C_BROKERED], counters[HL_C_REFUSED], opens);
		failures++;
	}
	remove_job();
	printf("{\"opens\":%ld,\"brokered\":%ld,\"refused\":%ld,\"workload_status\":%d,\"failures\":%d}\n", opens,
	       counters[HL_C_BROKERED], counters[HL_C_REFUSED], WIFEXITED(status) ? WEXITSTATUS(status) : -1, failures);
	return failures ? 1 : 0;
}
