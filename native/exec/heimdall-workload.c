/*
 * heimdall-workload: run one program whole, once, as a fresh process, optionally under a seccomp
 * filter, and report what it cost (issue 31, DESIGN.md "Workloads").
 *
 * Usage: heimdall-workload [-f PROGRAM.bpf [-l]] [-L RULESET] [-w] [-C DIR] [-p PID] -- CMD [ARGS...]
 *
 *   -f PROGRAM.bpf  raw struct sock_filter records (8 bytes each, as `./lab bpf compile` writes), installed
 *                   in the child under no_new_privs right before it execs CMD
 *   -l              install it with SECCOMP_FILTER_FLAG_NEW_LISTENER and hand the listener over (below)
 *   -L RULESET      a Landlock ruleset described in bytes (hl_landlock.h, as heimdall.lab.landlock.Landlock
 *                   encodes it): the child builds and enforces it on itself under no_new_privs, before any
 *                   filter, before the go (not timed); refused (exit 125, the step and errno said) when the
 *                   kernel will not have it
 *   -w              hold the child before its exec: print "pid PID\n" on stdout and wait for one line on
 *                   stdin (after the listener's, with -l), so that the owner can attach to the child
 *                   (the kernel follower, armed for its next exec) before the clock starts
 *   -C DIR          the child's working folder
 *   -p PID          die with PID (PR_SET_PDEATHSIG, SIGKILL; PID must be our parent), and so does the child
 *
 * The child is forked, its stdin is /dev/null, its stdout and stderr are pipes read here: stdout is
 * counted and hashed (FNV-1a 64), the first bytes of stderr kept. It waits for a go byte on a socket
 * before it installs the filter, so that neither the fork nor the program file's read is timed, and
 * none of our own calls runs under the filter but execve (a program's own profile, generated from its
 * recorded runs, need allow nothing of ours). With -l the filter goes in first (the listener must
 * exist before the go), the listener is sent here (SCM_RIGHTS) and this process prints
 * "listener FD\n" on its stdout and waits for one line on its stdin: the supervisor's owner takes its
 * own copy (pidfd_getfd) meanwhile. Then the clock starts, the go byte is sent, and the clock stops
 * when the child has exited (waitid WNOWAIT: the zombie's /proc/PID/status is read for its
 * Speculation_Store_Bypass and seccomp state before wait4 reaps it with its rusage).
 *
 * Output: one JSON object on the last line of stdout:
 *   {"exit":N|null,"signal":N|null,"exec_errno":N|null,"wall_ns":N,"utime_us":N,"stime_us":N,
 *    "nvcsw":N,"nivcsw":N,"minflt":N,"majflt":N,"out_bytes":N,"out_hash":"16 hex","ssb":S,"seccomp":N,
 *    "killed_by_nr":N|null,"stderr":S}
 * killed_by_nr: after a death by SIGSYS, the call the kernel's audit record names (see killing_call).
 * Exit status: 0 when the child ran (whatever its own status), 125 for a usage error or our own
 * failure (the reason on stderr).
 */
#include <errno.h>
#include "hl_landlock.h"
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_INSNS 4096
#define MAX_RULESET (HL_LANDLOCK_HEAD + HL_LANDLOCK_MAX_RULES * (16 + HL_LANDLOCK_PATH_MAX))
#define ERR_KEEP 480

static void fail(const char *what)
{
	fprintf(stderr, "heimdall-workload: %s: %s\n", what, strerror(errno));
	exit(125);
}

static void usage(void)
{
	fprintf(stderr, "usage: heimdall-workload [-f PROGRAM.bpf [-l]] [-L RULESET] [-w] [-C DIR] [-p PID] -- CMD "
			"[ARGS...]\n");
	exit(125);
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static struct sock_filter *read_program(const char *path, size_t *count)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		fail(path);
	struct stat st;
	if (fstat(fd, &st) != 0)
		fail(path);
	if (!S_ISREG(st.st_mode) || st.st_size == 0 || st.st_size % sizeof(struct sock_filter) != 0 ||
	    (size_t)st.st_size / sizeof(struct sock_filter) > MAX_INSNS) {
		fprintf(stderr, "heimdall-workload: %s: not a whole number (1..%d) of 8-byte sock_filter records\n",
			path, MAX_INSNS);
		exit(125);
	}
	struct sock_filter *insns = malloc(st.st_size);
	if (!insns)
		fail("malloc");
	size_t done = 0;
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)insns + done, st.st_size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n < 0 ? errno : EIO;
			fail(path);
		}
		done += n;
	}
	close(fd);
	*count = (size_t)st.st_size / sizeof(struct sock_filter);
	return insns;
}

/* A file of ours, whole (at most max bytes, a regular file opened without following a link). */
static char *read_file(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		fail(path);
	struct stat st;
	if (fstat(fd, &st) != 0)
		fail(path);
	if (!S_ISREG(st.st_mode) || st.st_size == 0 || (size_t)st.st_size > max) {
		fprintf(stderr, "heimdall-workload: %s: not a regular file of 1..%zu bytes\n", path, max);
		exit(125);
	}
	char *b = malloc(st.st_size);
	if (!b)
		fail("malloc");
	size_t done = 0;
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, b + done, st.st_size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			errno = n < 0 ? errno : EIO;
			fail(path);
		}
		done += n;
	}
	close(fd);
	*len = done;
	return b;
}

/* What the child says of its Landlock ruleset, before anything else on the socket. */
struct ruleset_said {
	int err; /* 0 enforced, else the errno */
	int abi;
	unsigned int step;
};

static int send_fd(int sock, int fd)
{
	char byte = 'L';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	char ctl[CMSG_SPACE(sizeof(int))];
	memset(ctl, 0, sizeof ctl);
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	char ctl[CMSG_SPACE(sizeof(int))];
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
	ssize_t n;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* The child: never returns. Reports a failure before exec as its errno in one int on the socket. */
static void child(int sock, int out, int err, const char *dir, struct sock_filter *insns, size_t count, int listener,
		  const char *ruleset, size_t ruleset_len, char **cmd)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	struct rlimit nocore = { 0, 0 };
	setrlimit(RLIMIT_CORE, &nocore); /* a kill by SIGSYS dumps no core: not timed, not left behind */
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		goto fail;
	/* dup2 leaves 0, 1 and 2 inheritable; the original stays close-on-exec: the program sees 0, 1, 2 only */
	if (null == 0 && fcntl(0, F_SETFD, 0) != 0)
		goto fail;
	if (dir && chdir(dir) != 0)
		goto fail;
	if (ruleset) {
		struct ruleset_said said = { 0, 0, 0 };
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			said.err = errno;
		else
			said.err = -hl_landlock_install(ruleset, ruleset_len, &said.abi, &said.step);
		if (write(sock, &said, sizeof said) != (ssize_t)sizeof said || said.err != 0)
			_exit(125);
	}
	char go;
	if (insns && listener) {
		struct sock_fprog prog = { .len = (unsigned short)count, .filter = insns };
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			goto fail;
		long l = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (l < 0)
			goto fail;
		if (send_fd(sock, (int)l) != 0)
			goto fail;
		close((int)l);
		if (read(sock, &go, 1) != 1)
			_exit(125);
	} else {
		if (read(sock, &go, 1) != 1)
			_exit(125);
		if (insns) {
			struct sock_fprog prog = { .len = (unsigned short)count, .filter = insns };
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
				goto fail;
			if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
				goto fail;
		}
	}
	/* sock is close-on-exec: a successful exec closes it, which the parent reads as success */
	execvp(cmd[0], cmd);
fail:;
	int e = errno;
	(void)!write(sock, &e, sizeof e);
	_exit(127);
}

static void json_string(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* The value of "Key:\t..." in /proc/PID/status, trimmed; empty when absent. */
static void status_field(pid_t pid, const char *key, char *out, size_t len)
{
	char path[64], buf[4096];
	out[0] = 0;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	size_t kl = strlen(key);
	for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			char *v = line + kl + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			size_t i = 0;
			while (v[i] && v[i] != '\n' && i + 1 < len) {
				out[i] = v[i];
				i++;
			}
			out[i] = 0;
			return;
		}
	}
}

/*
 * The call a seccomp kill ended pid with, from the kernel's audit record of it (type=1326, "pid=PID ...
 * syscall=NR"), read from /dev/kmsg; -1 when there is none (audit off, rate-limited, kmsg unreadable).
 */
static long killing_call(pid_t pid)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char rec[8192], want[32];
	snprintf(want, sizeof want, " pid=%d ", (int)pid);
	long nr = -1;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof rec - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* a record overwritten while we read: go on with the next */
		if (n <= 0)
			break;
		rec[n] = 0;
		char *sc;
		if (strstr(rec, "type=1326") && strstr(rec, want) && (sc = strstr(rec, " syscall=")))
			nr = strtol(sc + 9, NULL, 10);
	}
	close(fd);
	return nr;
}

int main(int argc, char **argv)
{
	const char *bpf = NULL, *dir = NULL, *ruleset_file = NULL;
	int listener = 0, hold = 0;
	long parent = 0;
	int opt;
	while ((opt = getopt(argc, argv, "+f:lL:wC:p:")) != -1) {
		switch (opt) {
		case 'f':
			bpf = optarg;
			break;
		case 'l':
			listener = 1;
			break;
		case 'L':
			ruleset_file = optarg;
			break;
		case 'w':
			hold = 1;
			break;
		case 'C':
			dir = optarg;
			break;
		case 'p':
			parent = strtol(optarg, NULL, 10);
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || (listener && !bpf))
		usage();
	if (parent > 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			fail("prctl(PR_SET_PDEATHSIG)");
		if (getppid() != (pid_t)parent)
			return 125;
	}
	size_t count = 0;
	struct sock_filter *insns = bpf ? read_program(bpf, &count) : NULL;
	size_t ruleset_len = 0;
	char *ruleset = ruleset_file ? read_file(ruleset_file, MAX_RULESET, &ruleset_len) : NULL;
	if (ruleset && hl_landlock_check(ruleset, ruleset_len) != 0) {
		fprintf(stderr, "heimdall-workload: %s: not a Landlock ruleset description (hl_landlock.h)\n",
			ruleset_file);
		return 125;
	}

	int sv[2], out[2], err[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		fail("socketpair");
	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
		fail("pipe2");
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		close(sv[0]);
		close(out[0]);
		close(err[0]);
		child(sv[1], out[1], err[1], dir, insns, count, listener, ruleset, ruleset_len, argv + optind);
	}
	close(sv[1]);
	close(out[1]);
	close(err[1]);

	if (ruleset) {
		struct ruleset_said said;
		ssize_t n;
		do
			n = read(sv[0], &said, sizeof said);
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof said || said.err != 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fprintf(stderr,
				"heimdall-workload: the child's Landlock ruleset was refused at step %u (ABI %d): %s\n",
				n == (ssize_t)sizeof said ? said.step : 0, n == (ssize_t)sizeof said ? said.abi : 0,
				n == (ssize_t)sizeof said ? strerror(said.err) : "no answer from the child");
			return 125;
		}
	}

	if (listener) {
		int l = recv_fd(sv[0]);
		if (l < 0) {
			int e = 0;
			if (read(sv[0], &e, sizeof e) == (ssize_t)sizeof e) {
				errno = e;
				fail("the child could not install its filter or hand over its listener");
			}
			fail("receiving the listener");
		}
		printf("listener %d\n", l);
		fflush(stdout);
		char line[16];
		if (!fgets(line, sizeof line, stdin)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fprintf(stderr, "heimdall-workload: no go on stdin after the listener\n");
			return 125;
		}
		close(l);
	}
	if (hold) {
		printf("pid %d\n", (int)pid);
		fflush(stdout);
		char line[16];
		if (!fgets(line, sizeof line, stdin)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fprintf(stderr, "heimdall-workload: no go on stdin after the pid\n");
			return 125;
		}
	}

	uint64_t start = now_ns();
	char go = 'g';
	if (write(sv[0], &go, 1) != 1)
		fail("sending go");
	/* exec's outcome: EOF (the socket closed by a successful exec) or the child's errno */
	int exec_errno = 0;
	{
		int e;
		ssize_t n;
		do
			n = read(sv[0], &e, sizeof e);
		while (n < 0 && errno == EINTR);
		if (n == (ssize_t)sizeof e)
			exec_errno = e;
	}
	uint64_t hash = 1469598103934665603ull, bytes = 0;
	char keep[ERR_KEEP];
	size_t kept = 0;
	struct pollfd p[2] = { { .fd = out[0], .events = POLLIN }, { .fd = err[0], .events = POLLIN } };
	int open_pipes = 2;
	char buf[65536];
	while (open_pipes > 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fail("poll");
		}
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t n = read(p[i].fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open_pipes--;
				continue;
			}
			if (i == 0) {
				for (ssize_t k = 0; k < n; k++) {
					hash ^= (unsigned char)buf[k];
					hash *= 1099511628211ull;
				}
				bytes += (uint64_t)n;
			} else if (kept < ERR_KEEP) {
				size_t take = (size_t)n < ERR_KEEP - kept ? (size_t)n : ERR_KEEP - kept;
				memcpy(keep + kept, buf, take);
				kept += take;
			}
		}
	}
	siginfo_t si;
	memset(&si, 0, sizeof si);
	while (waitid(P_PID, pid, &si, WEXITED | WNOWAIT) != 0)
		if (errno != EINTR)
			fail("waitid");
	uint64_t wall = now_ns() - start;
	char ssb[96], sec[16];
	status_field(pid, "Speculation_Store_Bypass", ssb, sizeof ssb);
	status_field(pid, "Seccomp", sec, sizeof sec);
	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			fail("wait4");

	printf("{\"exit\":");
	if (WIFEXITED(status) && !exec_errno)
		printf("%d", WEXITSTATUS(status));
	else
		printf("null");
	printf(",\"signal\":");
	if (WIFSIGNALED(status))
		printf("%d", WTERMSIG(status));
	else
		printf("null");
	printf(",\"exec_errno\":");
	if (exec_errno)
		printf("%d", exec_errno);
	else
		printf("null");
	printf(",\"wall_ns\":%llu,\"utime_us\":%lld,\"stime_us\":%lld,\"nvcsw\":%ld,\"nivcsw\":%ld,\"minflt\":%ld,"
	       "\"majflt\":%ld,\"out_bytes\":%llu,\"out_hash\":\"%016llx\",\"ssb\":",
	       (unsigned long long)wall, (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
	       (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec, ru.ru_nvcsw, ru.ru_nivcsw, ru.ru_minflt,
	       ru.ru_majflt, (unsigned long long)bytes, (unsigned long long)hash);
	json_string(stdout, ssb, strlen(ssb));
	printf(",\"seccomp\":%s,\"killed_by_nr\":", sec[0] ? sec : "null");
	long nr = WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS ? killing_call(pid) : -1;
	if (nr >= 0)
		printf("%ld", nr);
	else
		printf("null");
	printf(",\"stderr\":");
	json_string(stdout, keep, kept);
	printf("}\n");
	return fflush(stdout) == 0 ? 0 : 125;
}
