/*
 * fuse-freeze — a TEST FIXTURE: a name the supervisor cannot read in any bounded time.
 *
 * The name that an openat passes lies in a page of a file on a FUSE mount whose server answers INIT,
 * LOOKUP, GETATTR and OPEN but never READ: reading that page, through /proc/PID/mem or otherwise,
 * waits for the server. This is what a child can do without userfaultfd (an unprivileged FUSE mount).
 *
 * Usage: fuse-freeze [--server-process] MOUNTDIR. In a mount namespace of its own it mounts the server
 * on MOUNTDIR (root only), opens and maps MOUNTDIR/f, then installs a filter notifying openat
 * (everything else allowed) with a new listener and speaks notify-child's protocol on stdin/stdout
 * (close-listener, open PATH, fork-open PATH, reap, exit) plus:
 *
 *   freeze PATH  forks a worker (another process of the filter) that opens PATH 20 ms later, timing its
 *                own call ("ns" in its open line); then a second thread calls openat on a name in the
 *                mapped page. Prints {"op":"freezing","worker":PID}, and {"op":"frozen-open",...} if
 *                the frozen call ever returns. Nothing after it may map memory or fork: a read of
 *                this process's memory that waits on the page holds its mm's lock
 *
 * The FUSE server runs as a thread of this process (so a SIGKILL of the caller ends it too, and the
 * blocked read with it), or with --server-process in a child forked before the filter (so killing
 * the caller frees nothing); that child's pid is in the hello line ("server"): it serves until killed,
 * 120 s at most. Everything before the filter uses plain calls; after it,
 * only openat is notified.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fuse.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILE_NODE 2
#define FILE_SIZE 4096

static void emit(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	(void)!write(1, buf, n);
}

static void attr_of(uint64_t node, struct fuse_attr *a)
{
	memset(a, 0, sizeof *a);
	a->ino = node;
	if (node == FILE_NODE) {
		a->mode = S_IFREG | 0444;
		a->size = FILE_SIZE;
		a->blocks = FILE_SIZE / 512;
		a->nlink = 1;
	} else {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	}
	a->blksize = 4096;
}

static void reply(int fd, uint64_t unique, int error, const void *data, size_t len)
{
	char out[512];
	struct fuse_out_header *h = (struct fuse_out_header *)out;
	h->len = (uint32_t)(sizeof *h + len);
	h->error = error;
	h->unique = unique;
	memcpy(out + sizeof *h, data, len);
	(void)!write(fd, out, h->len);
}

/* Serves until the connection ends; READ is never answered. */
static void serve(int fd)
{
	static char buf[FUSE_MIN_READ_BUFFER + 128 * 1024];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			return;
		struct fuse_in_header *in = (struct fuse_in_header *)buf;
		void *arg = buf + sizeof *in;
		switch (in->opcode) {
		case FUSE_INIT: {
			struct fuse_init_in *i = arg;
			struct fuse_init_out o = { .major = FUSE_KERNEL_VERSION,
						   .minor = FUSE_KERNEL_MINOR_VERSION,
						   .max_readahead = i->max_readahead,
						   .max_write = 4096 };
			reply(fd, in->unique, 0, &o, sizeof o);
			break;
		}
		case FUSE_LOOKUP: {
			if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, "f") != 0) {
				reply(fd, in->unique, -ENOENT, NULL, 0);
				break;
			}
			struct fuse_entry_out e = {
				.nodeid = FILE_NODE, .generation = 1, .entry_valid = 3600, .attr_valid = 3600
			};
			attr_of(FILE_NODE, &e.attr);
			reply(fd, in->unique, 0, &e, sizeof e);
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out a = { .attr_valid = 3600 };
			attr_of(in->nodeid, &a.attr);
			reply(fd, in->unique, 0, &a, sizeof a);
			break;
		}
		case FUSE_OPEN: {
			struct fuse_open_out o = { .fh = 1 };
			reply(fd, in->unique, 0, &o, sizeof o);
			break;
		}
		case FUSE_READ: /* never: whoever reads the page waits */
		case FUSE_INTERRUPT: /* no reply, by the protocol (and the READ stays unanswered) */
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
			break;
		case FUSE_FLUSH:
		case FUSE_RELEASE:
			reply(fd, in->unique, 0, NULL, 0);
			break;
		default:
			reply(fd, in->unique, -ENOSYS, NULL, 0);
			break;
		}
	}
}

static void *server_thread(void *arg)
{
	serve((int)(intptr_t)arg);
	return NULL;
}

static int install_notify(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof f[0], .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

static const char *frozen_name;

static void *freezer(void *arg)
{
	(void)arg;
	int fd = openat(AT_FDCWD, frozen_name, O_RDONLY | O_CLOEXEC);
	emit("{\"op\":\"frozen-open\",\"pid\":%d,\"fd\":%d,\"errno\":%d}", (int)getpid(), fd, fd < 0 ? errno : 0);
	return NULL;
}

static void do_open(const char *path)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	int e = fd < 0 ? errno : 0;
	char data[256];
	ssize_t n = -1;
	if (fd >= 0) {
		n = read(fd, data, sizeof data);
		close(fd);
	}
	char hex[2 * sizeof data + 1];
	hex[0] = 0;
	for (ssize_t i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", (unsigned char)data[i]);
	/* The fixture's paths are plain names: no JSON escaping needed, and refused otherwise. */
	emit("{\"op\":\"open\",\"pid\":%d,\"path\":\"%s\",\"fd\":%d,\"errno\":%d,\"bytes\":%zd,\"content_hex\":\"%s\","
	     "\"ns\":%lld}",
	     (int)getpid(), strpbrk(path, "\"\\") ? "?" : path, fd, e, n, hex, ns);
}

#define FAIL(what)                                                                      \
	do {                                                                            \
		emit("{\"op\":\"hello\",\"error\":\"%s: %s\"}", what, strerror(errno)); \
		return 1;                                                               \
	} while (0)

int main(int argc, char **argv)
{
	int server_process = argc > 2 && !strcmp(argv[1], "--server-process");
	if (argc != 2 + server_process) {
		fprintf(stderr, "usage: fuse-freeze [--server-process] MOUNTDIR\n");
		return 2;
	}
	const char *dir = argv[argc - 1];
	if (unshare(CLONE_NEWNS) != 0)
		FAIL("unshare(CLONE_NEWNS)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		FAIL("mount --make-rprivate /");
	int fuse = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse < 0)
		FAIL("open /dev/fuse");
	char opts[128];
	snprintf(opts, sizeof opts, "fd=%d,rootmode=40000,user_id=0,group_id=0", fuse);
	if (mount("hl-fuse-freeze", dir, "fuse", MS_NOSUID | MS_NODEV, opts) != 0)
		FAIL("mount fuse");
	pid_t server = 0;
	if (server_process) {
		server = fork();
		if (server == 0) {
			/* Serve /dev/fuse until killed (the test does), or for 120 s at most (SIGALRM). Not tied to
			 * our stdin: a JVM closes a child's stdin once that child exits, and the point is a server
			 * that outlives the caller. */
			close(0);
			close(1);
			alarm(120);
			serve(fuse);
			_exit(0);
		}
		close(fuse);
	} else {
		pthread_t t;
		if (pthread_create(&t, NULL, server_thread, (void *)(intptr_t)fuse) != 0)
			FAIL("pthread_create");
	}
	char name[4096];
	snprintf(name, sizeof name, "%s/f", dir);
	int f = open(name, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		FAIL("open the FUSE file");
	char *page = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, f, 0);
	if (page == MAP_FAILED)
		FAIL("mmap the FUSE file");
	/* Closed now, while the server answers FLUSH: a process killed with a file of its own FUSE mount
	 * open flushes it at exit and waits for the server it is killing, forever. */
	close(f);
	frozen_name = page + 16;
	int listener = install_notify();
	if (listener < 0)
		FAIL("notify filter");
	emit("{\"op\":\"hello\",\"pid\":%d,\"listener\":%d,\"server\":%d,\"page\":%lu}", (int)getpid(), listener,
	     (int)server, (unsigned long)page);

	char line[8192];
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = 0;
		char *cmd = strtok(line, " ");
		char *path = cmd ? strtok(NULL, " ") : NULL;
		if (cmd == NULL)
			continue;
		if (!strcmp(cmd, "close-listener")) {
			close(listener);
			emit("{\"op\":\"ok\"}");
		} else if (!strcmp(cmd, "open")) {
			do_open(path ? path : "");
		} else if (!strcmp(cmd, "fork-open")) {
			pid_t w = fork();
			if (w == 0) {
				do_open(path ? path : "");
				_exit(0);
			}
			emit("{\"op\":\"forked\",\"pid\":%d}", (int)w);
		} else if (!strcmp(cmd, "reap")) {
			int st = 0;
			pid_t w = waitpid(-1, &st, 0);
			emit("{\"op\":\"reaped\",\"pid\":%d,\"signal\":%d,\"status\":%d}", (int)w,
			     WIFSIGNALED(st) ? WTERMSIG(st) : 0, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		} else if (!strcmp(cmd, "freeze")) {
			/* The worker first: while a read of our memory waits on the page it holds our mm's lock,
			 * and fork (like mmap) needs that lock for writing. */
			pid_t w = fork();
			if (w == 0) {
				struct timespec pause = { .tv_nsec = 20 * 1000 * 1000 };
				nanosleep(&pause, NULL);
				do_open(path ? path : "");
				_exit(0);
			}
			pthread_t t;
			if (pthread_create(&t, NULL, freezer, NULL) != 0) {
				emit("{\"op\":\"freezing\",\"error\":\"%s\"}", strerror(errno));
				continue;
			}
			emit("{\"op\":\"freezing\",\"worker\":%d}", (int)w);
		} else if (!strcmp(cmd, "exit")) {
			break;
		} else {
			emit("{\"op\":\"error\",\"error\":\"unknown command\"}");
		}
	}
	return 0;
}
