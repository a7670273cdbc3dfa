/*
 * fork-pressure — a TEST FIXTURE: a correct program that forks (or mprotects) with a big heap while
 * another of its threads opens files through the broker (issue 29, "a stuck read never kills a correct
 * program").
 *
 * Its heap (--heap-mib, default 1024) is touched page by page before anything else, so that a fork
 * must copy its page tables and an mprotect must walk them: both hold the process's memory-map lock for
 * writing for tens of milliseconds, and a supervisor reading a brokered path through /proc/PID/mem
 * waits for that lock. Then it installs a filter notifying openat (everything else allowed) with a new
 * listener and speaks notify-child's start-up protocol on stdin/stdout (hello with the listener's
 * number, close-listener), plus:
 *
 *   run MODE MS PATH HEX  for MS milliseconds, one thread opens PATH every 200 µs (read-only; reads up to
 *                         256 bytes, which must be the bytes of HEX) while the main thread, every 20 ms,
 *                         forks a helper that exits at once and reaps it (MODE fork), mprotects the
 *                         whole heap, read-only and read-write in turn (MODE mprotect), or does the one
 *                         and the other in turn (MODE both). Prints
 *                         {"op":"ran", opens, wrong (content not HEX), errors, first_errno, open_max_ns,
 *                         ops (forks or mprotects), op_max_ns, op_mean_ns}.
 *   exit
 *
 * A supervisor that kills this program, or answers one of its opens wrongly, fails the test around it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OPEN_PERIOD_NS (200L * 1000)
#define OP_PERIOD_NS (20L * 1000 * 1000)
#define CONTENT_MAX 256

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

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_until(int64_t at)
{
	struct timespec t = { .tv_sec = at / 1000000000, .tv_nsec = at % 1000000000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {
	}
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

/* The opener thread's job and tallies (written by it, read by main after the join). */
static struct {
	char path[4096];
	unsigned char expected[CONTENT_MAX];
	size_t expected_len;
	atomic_int stop;
	long opens, wrong, errors;
	int first_errno;
	int64_t max_ns;
} job;

static void *opener(void *arg)
{
	(void)arg;
	int64_t next = now_ns();
	unsigned char data[CONTENT_MAX];
	while (!atomic_load(&job.stop)) {
		int64_t t0 = now_ns();
		int fd = openat(AT_FDCWD, job.path, O_RDONLY | O_CLOEXEC);
		int64_t ns = now_ns() - t0;
		if (ns > job.max_ns)
			job.max_ns = ns;
		job.opens++;
		if (fd < 0) {
			if (job.errors++ == 0)
				job.first_errno = errno;
		} else {
			ssize_t n = read(fd, data, sizeof data);
			close(fd);
			if (n != (ssize_t)job.expected_len || memcmp(data, job.expected, job.expected_len) != 0)
				job.wrong++;
		}
		/* A steady 200 µs cadence; after a long call, no burst to catch up. */
		next += OPEN_PERIOD_NS;
		int64_t t = now_ns();
		if (next < t)
			next = t;
		sleep_until(next);
	}
	return NULL;
}

static int unhex(const char *hex, unsigned char *out, size_t cap)
{
	size_t n = strlen(hex);
	if (n % 2 != 0 || n / 2 > cap)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (unsigned char)v;
	}
	return (int)(n / 2);
}

static void run(char *heap, size_t heap_len, const char *mode, long ms, const char *path, const char *hex)
{
	int forking = !strcmp(mode, "fork"), both = !strcmp(mode, "both");
	int len = hex ? unhex(hex, job.expected, sizeof job.expected) : -1;
	if ((!forking && !both && strcmp(mode, "mprotect") != 0) || ms <= 0 || path == NULL || len < 0 ||
	    strlen(path) >= sizeof job.path) {
		emit("{\"op\":\"ran\",\"error\":\"usage: run fork|mprotect|both MS PATH HEX\"}");
		return;
	}
	job.expected_len = (size_t)len;
	strcpy(job.path, path);
	atomic_store(&job.stop, 0);
	job.opens = job.wrong = job.errors = 0;
	job.first_errno = 0;
	job.max_ns = 0;
	pthread_t t;
	if (pthread_create(&t, NULL, opener, NULL) != 0) {
		emit("{\"op\":\"ran\",\"error\":\"pthread_create: %s\"}", strerror(errno));
		return;
	}
	long ops = 0, failed_ops = 0, protects = 0;
	int64_t op_max = 0, op_sum = 0;
	int64_t end = now_ns() + ms * 1000000L, next = now_ns();
	while (now_ns() < end) {
		int64_t t0 = now_ns();
		if (forking || (both && ops % 2 == 0)) {
			pid_t c = fork();
			if (c == 0)
				_exit(0);
			if (c < 0 || waitpid(c, NULL, 0) != c)
				failed_ops++;
		} else if (mprotect(heap, heap_len, protects++ % 2 == 0 ? PROT_READ : PROT_READ | PROT_WRITE) != 0) {
			failed_ops++;
		}
		int64_t ns = now_ns() - t0;
		ops++;
		op_sum += ns;
		if (ns > op_max)
			op_max = ns;
		next += OP_PERIOD_NS;
		int64_t n = now_ns();
		if (next < n)
			next = n;
		sleep_until(next);
	}
	if (protects % 2 != 0)
		mprotect(heap, heap_len, PROT_READ | PROT_WRITE);
	atomic_store(&job.stop, 1);
	pthread_join(t, NULL);
	emit("{\"op\":\"ran\",\"pid\":%d,\"mode\":\"%s\",\"opens\":%ld,\"wrong\":%ld,\"errors\":%ld,\"first_errno\":%d,"
	     "\"open_max_ns\":%lld,\"ops\":%ld,\"failed_ops\":%ld,\"op_max_ns\":%lld,\"op_mean_ns\":%lld}",
	     (int)getpid(), mode, job.opens, job.wrong, job.errors, job.first_errno, (long long)job.max_ns, ops,
	     failed_ops, (long long)op_max, (long long)(ops ? op_sum / ops : 0));
}

#define FAIL(what)                                                                      \
	do {                                                                            \
		emit("{\"op\":\"hello\",\"error\":\"%s: %s\"}", what, strerror(errno)); \
		return 1;                                                               \
	} while (0)

int main(int argc, char **argv)
{
	long mib = 1024;
	if (argc == 3 && !strcmp(argv[1], "--heap-mib")) {
		char *end;
		mib = strtol(argv[2], &end, 10);
		if (*end != 0 || mib < 1 || mib > 65536) {
			fprintf(stderr, "fork-pressure: --heap-mib must be 1..65536, not %s\n", argv[2]);
			return 2;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: fork-pressure [--heap-mib N]\n");
		return 2;
	}
	size_t heap_len = (size_t)mib << 20;
	char *heap = mmap(NULL, heap_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (heap == MAP_FAILED)
		FAIL("mmap the heap");
	/* Small pages, every one present and written: the page tables a fork copies and an mprotect walks.
	 * MADV_POPULATE_WRITE faults them in from the kernel, without a trap per page (much faster in a VM). */
	madvise(heap, heap_len, MADV_NOHUGEPAGE);
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
	if (madvise(heap, heap_len, MADV_POPULATE_WRITE) != 0) {
		for (size_t i = 0; i < heap_len; i += 4096)
			heap[i] = 1;
	}
	int listener = install_notify();
	if (listener < 0)
		FAIL("notify filter");
	emit("{\"op\":\"hello\",\"pid\":%d,\"listener\":%d,\"heap_mib\":%ld}", (int)getpid(), listener, mib);

	char line[8192];
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = 0;
		char *cmd = strtok(line, " ");
		if (cmd == NULL)
			continue;
		if (!strcmp(cmd, "close-listener")) {
			close(listener);
			emit("{\"op\":\"ok\"}");
		} else if (!strcmp(cmd, "run")) {
			char *mode = strtok(NULL, " ");
			char *ms = strtok(NULL, " ");
			char *path = strtok(NULL, " ");
			char *hex = strtok(NULL, " ");
			run(heap, heap_len, mode ? mode : "", ms ? atol(ms) : 0, path, hex);
		} else if (!strcmp(cmd, "exit")) {
			break;
		} else {
			emit("{\"op\":\"error\",\"error\":\"unknown command\"}");
		}
	}
	return 0;
}
