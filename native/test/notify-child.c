/*
 * notify-child — a TEST FIXTURE, not the measured child.
 *
 * A notified child for the broker's tests and `./lab broker bench`, until the measured child
 * (heimdall-runner, which hands its listener over SCM_RIGHTS) is merged. It installs a filter that
 * answers openat with SECCOMP_RET_USER_NOTIF (everything else ALLOW) with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER, prints its pid and the listener's fd number, and then obeys
 * commands on stdin, one per line, printing one JSON object per line on stdout:
 *
 *   close-listener          close the fixture's own copy of the listener (after the parent took a
 *                           copy with pidfd_getfd), so the parent's copy is the only one
 *   open PATH [FLAGS]       openat(AT_FDCWD, PATH, FLAGS or O_RDONLY|O_CLOEXEC); read up to 256 bytes
 *   fork-open PATH          fork a worker sharing the filter that does `open PATH` and exits
 *   reap                    wait for one worker
 *   bench N WARMUP PATH     WARMUP untimed then N timed openat+close, each openat timed alone with
 *                           clock_gettime(CLOCK_MONOTONIC); prints every sample
 *   race N A B MARKER       the flipping-name attack: a second thread rewrites one name buffer between
 *                           A and B without pause while this thread makes N openat calls on that
 *                           buffer; counts the opens whose content starts with MARKER (a file the
 *                           supervisor must not serve), the other opens, and the errors by errno
 *   call KIND PATH [FLAGS [RESOLVE [SIZE [TAIL]]]]
 *                           one open by name of KIND, read up to 256 bytes, the same reply as open:
 *                           open (open(2)), openat, creat (mode 0600), openat2 (struct open_how of SIZE
 *                           bytes, default 24, with byte TAIL at its end when SIZE > 24 and TAIL given),
 *                           x32-open, x32-openat (the x32 numbers), i386-open (int $0x80, nr 5, the
 *                           name in 32-bit memory)
 *   fork-call KIND PATH ... the same in a forked worker sharing the filter (it may be killed: reap)
 *   fork-sys NR [A0..A5]    a worker makes the raw call NR (numeric arguments) and exits 0, printing
 *                           {"op":"sys","pid":..,"ret":..,"errno":..}; killed by a filter, it prints nothing
 *   uffd-open               the frozen name: fork a worker A that registers a page with userfaultfd
 *                           (missing pages, never served), forks B holding that userfaultfd (so A's
 *                           death frees nothing), prints {"op":"uffd","pid":A,"holder":B}, then calls
 *                           openat on a name in that page and prints {"op":"uffd-open",...}. B lives
 *                           until this process exits
 *   fork-as UID GID GROUPS KIND PATH [FLAGS]
 *                           `call KIND PATH FLAGS` in a forked worker that first takes on UID, GID and
 *                           the supplementary GROUPS (comma-separated, or - for none); needs root
 *   escape DIR HOSTDIR HOSTSOCK HOSTBIN
 *                           the jail attack (issue 29): asks the broker for DIR with O_DIRECTORY, fchdir's
 *                           to what it got, climbs with chdir(".."), then tries the host's etc/shadow, a
 *                           folder and a symlink in HOSTDIR, a connect to the Unix socket HOSTSOCK and an
 *                           exec of HOSTBIN (all by relative paths from where it climbed to), and the *at
 *                           calls on the descriptor (openat "..", fstatat "..", fstatat up to etc/shadow,
 *                           mkdirat), and, in a worker root of its own user and mount namespace, a bind
 *                           mount from the descriptor and a read-write remount of it ("userns" the
 *                           unshare's errno, "ns_bind", "ns_remount"); prints each step's errno (0: it
 *                           worked, -1: not tried), "above" 1 when fstatat(fd,
 *                           "..") named another directory than fd's, and "host" the steps that reached
 *                           the host. DIR "=inherited": a host directory kept open from before the
 *                           jail instead (the control: what a brokered directory used to be)
 *   exit
 *
 * Options: --cpu N (pin), --no-filter (the baseline: same calls, no filter), --extra before|after (a
 * second, allow-all program installed before or after the notifying one: a stacked floor), --program
 * FILE (install FILE's raw struct sock_filter instructions as the notifying program instead of the
 * built-in one, e.g. the project's compiled broker floor), --jail (root: its own mount namespace,
 * pivot_root onto an empty tmpfs, the old root detached, before the filter), --user UID:GID[:G1,G2..]
 * (root: take on these ids and groups before the filter).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <grp.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void emit(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	/* one write per line: workers and the main process share stdout */
	(void)!write(1, buf, n);
}

static void json_string(char *out, size_t cap, const char *s)
{
	size_t o = 0;
	out[o++] = '"';
	for (; *s && o + 8 < cap; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = c;
		} else if (c < 0x20) {
			o += snprintf(out + o, cap - o, "\\u%04x", c);
		} else {
			out[o++] = c;
		}
	}
	out[o++] = '"';
	out[o] = 0;
}

static int install(struct sock_filter *insns, unsigned short len, unsigned flags)
{
	struct sock_fprog prog = { .len = len, .filter = insns };
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/* The notifying program read from a file of raw struct sock_filter instructions (loaded first: a jail
 * leaves the file behind). */
static struct sock_filter file_insns[4096];
static size_t file_len;

static int load_notify_file(const char *file)
{
	FILE *f = fopen(file, "rb");
	if (f == NULL) {
		return -1;
	}
	file_len = fread(file_insns, sizeof file_insns[0], sizeof file_insns / sizeof file_insns[0], f);
	int bad = ferror(f) || file_len == 0 || !feof(f);
	fclose(f);
	if (bad) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int install_notify_file(void)
{
	return install(file_insns, (unsigned short)file_len, SECCOMP_FILTER_FLAG_NEW_LISTENER);
}

/* The jail of issue 29: a mount namespace of its own whose root is an empty tmpfs, the old root
 * detached (mounted over /tmp in this namespace only, so nothing is left in the host's /tmp). */
static int inherited_dir = -1; /* the host directory the child was started in, kept open across the jail */

static int enter_jail(void)
{
	inherited_dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (inherited_dir < 0 || unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
		return -1;
	}
	if (mount("jail", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755") != 0 || chdir("/tmp") != 0) {
		return -1;
	}
	if (syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0) {
		return -1;
	}
	return chdir("/");
}

/* Takes on "UID:GID[:G1,G2..]" (or UID, GID and GROUPS apart: groups comma-separated or "-"). */
static int become(const char *uid, const char *gid, const char *groups)
{
	gid_t list[64];
	int n = 0;
	if (groups != NULL && strcmp(groups, "-") != 0) {
		for (const char *g = groups; *g && n < 64;) {
			list[n++] = (gid_t)strtoul(g, (char **)&g, 10);
			if (*g == ',') {
				g++;
			}
		}
	}
	gid_t g = (gid_t)strtoul(gid, NULL, 10);
	uid_t u = (uid_t)strtoul(uid, NULL, 10);
	if (setgroups((size_t)n, list) != 0 || setresgid(g, g, g) != 0 || setresuid(u, u, u) != 0) {
		return -1;
	}
	return 0;
}

static int become_spec(char *spec)
{
	char *uid = strtok(spec, ":");
	char *gid = strtok(NULL, ":");
	char *groups = strtok(NULL, ":");
	if (uid == NULL || gid == NULL) {
		errno = EINVAL;
		return -1;
	}
	return become(uid, gid, groups);
}

/* errno of a call's result (0 when it worked). */
static int err_of(long r)
{
	return r < 0 ? errno : 0;
}

/* HOSTPATH without its leading slashes: the same place, from wherever the climb ended. */
static const char *relative(const char *p)
{
	while (*p == '/') {
		p++;
	}
	return *p ? p : ".";
}

/* exec of path in a forked worker: 0 when the exec happened (the host binary was reached), else its
 * errno. A close-on-exec pipe tells the two apart. */
static int try_exec(const char *path)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		return errno;
	}
	pid_t w = fork();
	if (w == 0) {
		char *argv[] = { (char *)path, NULL };
		char *envp[] = { NULL };
		execve(path, argv, envp);
		int e = errno;
		(void)!write(p[1], &e, sizeof e);
		_exit(127);
	}
	close(p[1]);
	int e = 0;
	ssize_t got = read(p[0], &e, sizeof e);
	close(p[0]);
	waitpid(w, NULL, 0);
	return got == sizeof e ? e : 0;
}

/* The descriptor's mount, attacked with privilege: a worker becomes root of a user and mount namespace of
 * its own (unprivileged user namespaces permitting) and tries to bind-mount from the descriptor and to
 * remount what it got read-write. out: the unshare's errno, then the bind's and the remount's (-1 not
 * tried). */
static void try_mount(int fd, int out[3])
{
	out[0] = out[1] = out[2] = -1;
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		out[0] = errno;
		return;
	}
	pid_t w = fork();
	if (w == 0) {
		int r[3] = { -1, -1, -1 };
		r[0] = err_of(unshare(CLONE_NEWUSER | CLONE_NEWNS));
		if (r[0] == 0) {
			if (fchdir(fd) != 0) {
				r[0] = errno;
			} else {
				/* From the descriptor's mount onto the worker's root; then that mount itself, read-write. */
				r[1] = err_of(mount(".", "/", NULL, MS_BIND, NULL));
				r[2] = err_of(mount(NULL, ".", NULL, MS_REMOUNT | MS_BIND, NULL));
			}
		}
		(void)!write(p[1], r, sizeof r);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], out, 3 * sizeof out[0]) != (ssize_t)(3 * sizeof out[0])) {
		out[0] = out[1] = out[2] = -1;
	}
	close(p[0]);
	waitpid(w, NULL, 0);
}

static void escape(const char *dir, const char *hostdir, const char *hostsock, const char *hostbin)
{
	/* "=inherited": the control, a host directory descriptor the child kept (what the broker handed out
	 * before issue 29). */
	int fd = strcmp(dir, "=inherited") == 0 ?
			 dup(inherited_dir) :
			 (int)syscall(SYS_openat, AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	int open_errno = fd < 0 ? errno : 0;
	int fchdir_errno = -1, at_open = -1, at_shadow = -1, at_mkdir = -1, above = 0;
	int ns[3] = { -1, -1, -1 };
	if (fd >= 0) {
		try_mount(fd, ns);
		fchdir_errno = err_of(fchdir(fd));
		int up = (int)syscall(SYS_openat, fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
		at_open = up < 0 ? errno : 0;
		if (up >= 0) {
			close(up);
		}
		struct stat self, parent, st;
		if (fstat(fd, &self) == 0 && fstatat(fd, "..", &parent, 0) == 0) {
			above = self.st_dev != parent.st_dev || self.st_ino != parent.st_ino;
		}
		at_shadow = err_of(fstatat(fd, "../../../../../../../../../../etc/shadow", &st, 0));
		at_mkdir = err_of(mkdirat(fd, "made-by-child", 0700));
	}
	for (int i = 0; i < 16; i++) {
		(void)!chdir("..");
	}
	struct stat st;
	int shadow = err_of(stat("etc/shadow", &st));
	char made[4096], planted[4096];
	snprintf(made, sizeof made, "%s/made-by-child", relative(hostdir));
	snprintf(planted, sizeof planted, "%s/planted", relative(hostdir));
	int mk = err_of(mkdir(made, 0700));
	int sl = err_of(symlink("/etc/shadow", planted));
	int conn;
	int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0) {
		conn = errno;
	} else {
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		snprintf(a.sun_path, sizeof a.sun_path, "%s", relative(hostsock));
		conn = err_of(connect(sock, (struct sockaddr *)&a, sizeof a));
		close(sock);
	}
	int ex = try_exec(relative(hostbin));
	int host = (shadow == 0) + (mk == 0) + (sl == 0) + (conn == 0) + (ex == 0) + (at_open == 0) + above +
		   (at_shadow == 0) + (at_mkdir == 0) + (ns[1] == 0) + (ns[2] == 0);
	emit("{\"op\":\"escape\",\"open\":%d,\"fd\":%d,\"fchdir\":%d,\"shadow\":%d,\"mkdir\":%d,\"symlink\":%d,"
	     "\"connect\":%d,\"exec\":%d,\"at_open\":%d,\"above\":%d,\"at_shadow\":%d,\"at_mkdir\":%d,"
	     "\"userns\":%d,\"ns_bind\":%d,\"ns_remount\":%d,\"host\":%d}",
	     open_errno, fd, fchdir_errno, shadow, mk, sl, conn, ex, at_open, above, at_shadow, at_mkdir, ns[0], ns[1],
	     ns[2], host);
	if (fd >= 0) {
		close(fd);
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
	return install(f, sizeof f / sizeof f[0], SECCOMP_FILTER_FLAG_NEW_LISTENER);
}

/* A floor-like second program: allows everything, but looks at openat's flags on the way. */
static int install_extra(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x80000000u, 0, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	return install(f, sizeof f / sizeof f[0], 0);
}

/* Reads up to 256 bytes of fd (closing it) and prints the open's reply. */
static void report_open(const char *path, int fd)
{
	int e = fd < 0 ? errno : 0;
	unsigned char data[256];
	ssize_t n = -1;
	if (fd >= 0) {
		n = read(fd, data, sizeof data);
		close(fd);
	}
	char hex[2 * sizeof data + 1];
	hex[0] = 0;
	for (ssize_t i = 0; i < n; i++) {
		sprintf(hex + 2 * i, "%02x", data[i]);
	}
	char jpath[1024];
	json_string(jpath, sizeof jpath, path);
	emit("{\"op\":\"open\",\"pid\":%d,\"path\":%s,\"fd\":%d,\"errno\":%d,\"bytes\":%zd,\"content_hex\":\"%s\"}",
	     getpid(), jpath, fd, e, n, hex);
}

static void do_open(const char *path, int flags)
{
	report_open(path, openat(AT_FDCWD, path, flags));
}

/* The i386 entry from a 64-bit process: int $0x80 takes 32-bit arguments, so the name lives in memory
 * below 4 GiB. */
static long i386_call(long nr, const char *path, long flags)
{
	static char *low;
	if (low == NULL) {
		low = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		if (low == MAP_FAILED) {
			low = NULL;
			return -ENOMEM;
		}
	}
	snprintf(low, 8192, "%s", path);
	long ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"((long)(uintptr_t)low), "c"(flags), "d"(0L) : "memory");
	return ret;
}

/* One open by name of the given kind (see "call" above); the descriptor, or -1 with errno set. */
static int open_kind(const char *kind, const char *path, long flags, long resolve, long size, long tail)
{
	long r;
	if (!strcmp(kind, "open")) {
		r = syscall(SYS_open, path, flags, 0);
	} else if (!strcmp(kind, "openat")) {
		r = syscall(SYS_openat, AT_FDCWD, path, flags, 0);
	} else if (!strcmp(kind, "creat")) {
		r = syscall(SYS_creat, path, 0600);
	} else if (!strcmp(kind, "openat2")) {
		static unsigned char how_buf[8192];
		if (size < 0 || size > (long)sizeof how_buf) {
			errno = EINVAL;
			return -1;
		}
		memset(how_buf, 0, sizeof how_buf);
		struct open_how how = { .flags = (uint64_t)flags, .mode = 0, .resolve = (uint64_t)resolve };
		memcpy(how_buf, &how, sizeof how);
		if (size > (long)sizeof how && tail >= 0) {
			how_buf[size - 1] = (unsigned char)tail;
		}
		r = syscall(SYS_openat2, AT_FDCWD, path, how_buf, (size_t)size);
	} else if (!strcmp(kind, "x32-open")) {
		r = syscall(SYS_open | 0x40000000, path, flags, 0);
	} else if (!strcmp(kind, "x32-openat")) {
		r = syscall(SYS_openat | 0x40000000, AT_FDCWD, path, flags, 0);
	} else if (!strcmp(kind, "i386-open")) {
		r = i386_call(5, path, flags);
		if (r < 0 && r > -4096) {
			errno = (int)-r;
			r = -1;
		}
	} else {
		errno = EINVAL;
		return -1;
	}
	return (int)r;
}

static void do_call(char *rest)
{
	char *kind = strtok(rest, " ");
	char *path = strtok(NULL, " ");
	char *f = strtok(NULL, " ");
	char *res = strtok(NULL, " ");
	char *sz = strtok(NULL, " ");
	char *tl = strtok(NULL, " ");
	if (kind == NULL || path == NULL) {
		emit("{\"op\":\"error\",\"error\":\"usage: call KIND PATH [FLAGS [RESOLVE [SIZE [TAIL]]]]\"}");
		return;
	}
	long flags = f ? strtol(f, NULL, 0) : O_RDONLY | O_CLOEXEC;
	int fd = open_kind(kind, path, flags, res ? strtol(res, NULL, 0) : 0, sz ? strtol(sz, NULL, 0) : 24,
			   tl ? strtol(tl, NULL, 0) : -1);
	report_open(path, fd);
}

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static void bench(long n, long warmup, const char *path)
{
	int64_t *s = malloc(sizeof *s * (n > 1000 ? n : 1000));
	char *out = malloc(64 + 21 * (size_t)n + 256);
	if (s == NULL || out == NULL) {
		emit("{\"op\":\"bench\",\"error\":\"out of memory\"}");
		exit(1);
	}
	long errors = 0;
	int first_errno = 0;
	for (long i = 0; i < warmup; i++) {
		int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
	for (long i = 0; i < n; i++) {
		int64_t t0 = now_ns();
		int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		int64_t t1 = now_ns();
		if (fd >= 0) {
			close(fd);
		} else if (errors++ == 0) {
			first_errno = errno;
		}
		s[i] = t1 - t0;
	}
	size_t o = (size_t)sprintf(out,
				   "{\"op\":\"bench\",\"cpu\":%d,\"errors\":%ld,\"first_errno\":%d,\"samples_ns\":[",
				   sched_getcpu(), errors, first_errno);
	for (long i = 0; i < n; i++) {
		o += (size_t)sprintf(out + o, i ? ",%lld" : "%lld", (long long)s[i]);
	}
	/* The timer's own cost: back-to-back reads. */
	for (int i = 0; i < 1000; i++) {
		int64_t t0 = now_ns();
		s[i] = now_ns() - t0;
	}
	qsort(s, 1000, sizeof *s, cmp64);
	o += (size_t)sprintf(out + o, "],\"timer_ns\":%lld}\n", (long long)s[500]);
	for (size_t w = 0; w < o;) {
		ssize_t k = write(1, out + w, o - w);
		if (k <= 0)
			break;
		w += (size_t)k;
	}
	free(out);
	free(s);
}

/* The flipping-name attack. The buffer is what openat's path argument points to; the flipper writes
 * whole NUL-terminated names into it with no pause, so the supervisor may read A, B or a torn mix. */
static char race_buf[4096] __attribute__((aligned(64)));
static const char *race_names[2];
static int race_stop;

static void *race_flipper(void *arg)
{
	(void)arg;
	size_t la = strlen(race_names[0]) + 1, lb = strlen(race_names[1]) + 1;
	while (!__atomic_load_n(&race_stop, __ATOMIC_RELAXED)) {
		memcpy(race_buf, race_names[0], la);
		__asm__ volatile("" ::: "memory"); /* keep both stores: the first is not dead to the other thread */
		memcpy(race_buf, race_names[1], lb);
		__asm__ volatile("" ::: "memory");
	}
	return NULL;
}

static void race(long n, const char *a, const char *b, const char *marker)
{
	if (strlen(a) >= sizeof race_buf || strlen(b) >= sizeof race_buf) {
		emit("{\"op\":\"race\",\"error\":\"name too long\"}");
		return;
	}
	race_names[0] = a;
	race_names[1] = b;
	memcpy(race_buf, a, strlen(a) + 1);
	__atomic_store_n(&race_stop, 0, __ATOMIC_RELAXED);
	pthread_t t;
	int e = pthread_create(&t, NULL, race_flipper, NULL);
	if (e != 0) {
		emit("{\"op\":\"race\",\"error\":\"pthread_create: %s\"}", strerror(e));
		return;
	}
	size_t ml = strlen(marker);
	long marked = 0, served = 0, eacces = 0, enoent = 0, other = 0;
	int first_other = 0;
	char data[256];
	for (long i = 0; i < n; i++) {
		int fd = openat(AT_FDCWD, race_buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int err = errno;
			if (err == EACCES) {
				eacces++;
			} else if (err == ENOENT) {
				enoent++;
			} else if (other++ == 0) {
				first_other = err;
			}
			continue;
		}
		ssize_t got = read(fd, data, sizeof data);
		close(fd);
		if (got >= (ssize_t)ml && memcmp(data, marker, ml) == 0) {
			marked++;
		} else {
			served++;
		}
	}
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	emit("{\"op\":\"race\",\"opens\":%ld,\"marked\":%ld,\"served\":%ld,\"eacces\":%ld,\"enoent\":%ld,\"other\":%ld,"
	     "\"first_other_errno\":%d}",
	     n, marked, served, eacces, enoent, other, first_other);
}

/* The holders of userfaultfds read this pipe's end until this process is gone (EOF). */
static int holder_pipe[2] = { -1, -1 };

/* Worker A of uffd-open (see the top). Never touches the registered page itself. */
static void uffd_worker(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (mem == MAP_FAILED || uffd < 0) {
		int e = errno;
		emit("{\"op\":\"uffd\",\"error\":\"%s: %s\",\"errno\":%d}", mem == MAP_FAILED ? "mmap" : "userfaultfd",
		     strerror(e), e);
		_exit(1);
	}
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .range = { .start = (unsigned long)mem, .len = (unsigned long)page },
				       .mode = UFFDIO_REGISTER_MODE_MISSING };
	if (ioctl(uffd, UFFDIO_API, &api) != 0 || ioctl(uffd, UFFDIO_REGISTER, &reg) != 0) {
		int e = errno;
		emit("{\"op\":\"uffd\",\"error\":\"userfaultfd ioctl: %s\",\"errno\":%d}", strerror(e), e);
		_exit(1);
	}
	pid_t holder = fork();
	if (holder == 0) {
		/* B: holds the userfaultfd (and so the fault's wait) until the fixture exits. */
		char c;
		while (read(holder_pipe[0], &c, 1) > 0) {
		}
		_exit(0);
	}
	emit("{\"op\":\"uffd\",\"pid\":%d,\"holder\":%d}", (int)getpid(), (int)holder);
	int fd = openat(AT_FDCWD, mem + 16, O_RDONLY | O_CLOEXEC);
	int e = fd < 0 ? errno : 0;
	emit("{\"op\":\"uffd-open\",\"pid\":%d,\"fd\":%d,\"errno\":%d}", (int)getpid(), fd, e);
	_exit(0);
}

int main(int argc, char **argv)
{
	int cpu = -1, filter = 1, jail = 0;
	const char *extra = NULL;
	const char *program = NULL;
	char *user = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			cpu = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--no-filter")) {
			filter = 0;
		} else if (!strcmp(argv[i], "--extra") && i + 1 < argc) {
			extra = argv[++i];
		} else if (!strcmp(argv[i], "--program") && i + 1 < argc) {
			program = argv[++i];
		} else if (!strcmp(argv[i], "--jail")) {
			jail = 1;
		} else if (!strcmp(argv[i], "--user") && i + 1 < argc) {
			user = argv[++i];
		} else {
			fprintf(stderr, "notify-child: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			emit("{\"op\":\"hello\",\"error\":\"sched_setaffinity(%d): %s\"}", cpu, strerror(errno));
			return 1;
		}
	}
	if (program != NULL && load_notify_file(program) != 0) {
		emit("{\"op\":\"hello\",\"error\":\"program %s: %s\"}", program, strerror(errno));
		return 1;
	}
	if (jail && enter_jail() != 0) {
		emit("{\"op\":\"hello\",\"error\":\"jail: %s\"}", strerror(errno));
		return 1;
	}
	if (user != NULL && become_spec(user) != 0) {
		emit("{\"op\":\"hello\",\"error\":\"user %s: %s\"}", user, strerror(errno));
		return 1;
	}
	int listener = -1;
	if (filter) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
			emit("{\"op\":\"hello\",\"error\":\"no_new_privs: %s\"}", strerror(errno));
			return 1;
		}
		if (extra && !strcmp(extra, "before") && install_extra() != 0) {
			emit("{\"op\":\"hello\",\"error\":\"extra filter: %s\"}", strerror(errno));
			return 1;
		}
		listener = program ? install_notify_file() : install_notify();
		if (listener < 0) {
			emit("{\"op\":\"hello\",\"error\":\"notify filter: %s\"}", strerror(errno));
			return 1;
		}
		if (extra && !strcmp(extra, "after") && install_extra() != 0) {
			emit("{\"op\":\"hello\",\"error\":\"extra filter: %s\"}", strerror(errno));
			return 1;
		}
	}
	emit("{\"op\":\"hello\",\"pid\":%d,\"listener\":%d,\"cpu\":%d}", getpid(), listener, sched_getcpu());

	char line[8192];
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = 0;
		char *cmd = strtok(line, " ");
		if (cmd == NULL)
			continue;
		if (!strcmp(cmd, "close-listener")) {
			if (listener >= 0)
				close(listener);
			listener = -1;
			emit("{\"op\":\"ok\"}");
		} else if (!strcmp(cmd, "open")) {
			char *path = strtok(NULL, " ");
			char *flags = strtok(NULL, " ");
			do_open(path ? path : "", flags ? (int)strtol(flags, NULL, 0) : O_RDONLY | O_CLOEXEC);
		} else if (!strcmp(cmd, "fork-open")) {
			char *path = strtok(NULL, " ");
			pid_t w = fork();
			if (w == 0) {
				do_open(path ? path : "", O_RDONLY | O_CLOEXEC);
				_exit(0);
			}
			emit("{\"op\":\"forked\",\"pid\":%d}", (int)w);
		} else if (!strcmp(cmd, "call")) {
			do_call(strtok(NULL, ""));
		} else if (!strcmp(cmd, "fork-call")) {
			char *rest = strtok(NULL, "");
			pid_t w = fork();
			if (w == 0) {
				do_call(rest);
				_exit(0);
			}
			emit("{\"op\":\"forked\",\"pid\":%d}", (int)w);
		} else if (!strcmp(cmd, "fork-as")) {
			char *uid = strtok(NULL, " ");
			char *gid = strtok(NULL, " ");
			char *groups = strtok(NULL, " ");
			char *rest = strtok(NULL, "");
			if (uid == NULL || gid == NULL || groups == NULL || rest == NULL) {
				emit("{\"op\":\"error\",\"error\":\"usage: fork-as UID GID GROUPS KIND PATH [FLAGS]\"}");
				continue;
			}
			pid_t w = fork();
			if (w == 0) {
				if (become(uid, gid, groups) != 0) {
					emit("{\"op\":\"open\",\"pid\":%d,\"path\":\"\",\"fd\":-1,\"errno\":%d,\"bytes\":-1,"
					     "\"content_hex\":\"\"}",
					     getpid(), errno);
					_exit(1);
				}
				do_call(rest);
				_exit(0);
			}
			emit("{\"op\":\"forked\",\"pid\":%d}", (int)w);
		} else if (!strcmp(cmd, "escape")) {
			char *dir = strtok(NULL, " ");
			char *hostdir = strtok(NULL, " ");
			char *hostsock = strtok(NULL, " ");
			char *hostbin = strtok(NULL, " ");
			if (dir == NULL || hostdir == NULL || hostsock == NULL || hostbin == NULL) {
				emit("{\"op\":\"escape\",\"error\":\"usage: escape DIR HOSTDIR HOSTSOCK HOSTBIN\"}");
			} else {
				escape(dir, hostdir, hostsock, hostbin);
			}
		} else if (!strcmp(cmd, "fork-sys")) {
			long a[7] = { 0 };
			char *t;
			for (int i = 0; i < 7 && (t = strtok(NULL, " ")) != NULL; i++) {
				a[i] = strtol(t, NULL, 0);
			}
			pid_t w = fork();
			if (w == 0) {
				long r = syscall(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
				emit("{\"op\":\"sys\",\"pid\":%d,\"ret\":%ld,\"errno\":%d}", getpid(), r,
				     r < 0 ? errno : 0);
				_exit(0);
			}
			emit("{\"op\":\"forked\",\"pid\":%d}", (int)w);
		} else if (!strcmp(cmd, "uffd-open")) {
			if (holder_pipe[0] < 0 && pipe2(holder_pipe, O_CLOEXEC) != 0) {
				emit("{\"op\":\"uffd\",\"error\":\"pipe: %s\",\"errno\":%d}", strerror(errno), errno);
				continue;
			}
			pid_t w = fork();
			if (w == 0) {
				close(holder_pipe[1]);
				uffd_worker();
			}
			emit("{\"op\":\"forked\",\"pid\":%d}", (int)w);
		} else if (!strcmp(cmd, "reap")) {
			int st = 0;
			pid_t w = waitpid(-1, &st, 0);
			emit("{\"op\":\"reaped\",\"pid\":%d,\"signal\":%d,\"status\":%d}", (int)w,
			     WIFSIGNALED(st) ? WTERMSIG(st) : 0, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		} else if (!strcmp(cmd, "bench")) {
			char *n = strtok(NULL, " ");
			char *w = strtok(NULL, " ");
			char *path = strtok(NULL, " ");
			bench(n ? atol(n) : 1000, w ? atol(w) : 0, path ? path : "");
		} else if (!strcmp(cmd, "race")) {
			char *n = strtok(NULL, " ");
			char *a = strtok(NULL, " ");
			char *b = strtok(NULL, " ");
			char *m = strtok(NULL, " ");
			if (n == NULL || a == NULL || b == NULL || m == NULL) {
				emit("{\"op\":\"race\",\"error\":\"usage: race N A B MARKER\"}");
			} else {
				race(atol(n), a, b, m);
			}
		} else if (!strcmp(cmd, "exit")) {
			break;
		} else {
			emit("{\"op\":\"error\",\"error\":\"unknown command\"}");
		}
	}
	return 0;
}
