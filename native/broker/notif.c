/*
 * Seccomp user notification calls shared by both supervisors: the native one calls them from its
 * pthread, the Java one through JNA. Keeping one code path makes the Java/native comparison a
 * comparison of the supervisors, not of two brokers.
 */
#include "hl_broker.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Room for the kernel's structures even if a later kernel grows them; checked against
 * SECCOMP_GET_NOTIF_SIZES once. */
#define NOTIF_ROOM 512

/* The kernel's O_LARGEFILE (glibc defines it as 0 on x86_64, but a raw call may carry it). */
#define KERNEL_O_LARGEFILE 0100000
/* Flags a brokered open may carry: read-only access and harmless modifiers. */
#define READ_ONLY_FLAGS (O_ACCMODE | O_CLOEXEC | O_NONBLOCK | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | KERNEL_O_LARGEFILE)
/* Modifiers passed on to the O_PATH lookup (the reopen's O_CLOEXEC, O_NONBLOCK and O_NOCTTY are ours
 * always; the child's O_CLOEXEC goes to ADDFD, its O_NONBLOCK decides the mode handed over). */
#define PASSED_FLAGS (O_DIRECTORY | O_NOFOLLOW)

/* The kernel's openat2 checks (fs/open.c build_open_flags), spelled in its own octal values: glibc
 * leaves some of them undefined or 0 on x86_64. */
#define K_O_DSYNC 010000
#define K_FASYNC 020000
#define K_O_DIRECT 040000
#define K_O_NOATIME 01000000
#define K_O_SYNC_BIT 04000000
#define K_O_PATH 010000000
#define K_O_TMPFILE_BIT 020000000
#define K_VALID_OPEN_FLAGS                                                                                     \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | K_O_DSYNC | K_FASYNC |    \
	 K_O_DIRECT | KERNEL_O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | K_O_NOATIME | O_CLOEXEC | K_O_SYNC_BIT | \
	 K_O_PATH | K_O_TMPFILE_BIT)
#define K_VALID_RESOLVE_FLAGS                                                                                \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_IN_ROOT | \
	 RESOLVE_CACHED)
/* struct open_how's first size (flags, mode, resolve: what we know of it) and the largest the kernel
 * takes (a page). */
#define OPEN_HOW_VER0 24
#define OPEN_HOW_MAX 4096
/* Resolve bits of the child's that only narrow the lookup: passed on. RESOLVE_IN_ROOT would make "/"
 * mean in/, a meaning the broker does not serve (refused). */
#define PASSED_RESOLVE \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_CACHED)
/* Ours always: beneath in/, no magic links, and no mount crossed inside it (a child that can mount
 * could otherwise bind a folder from outside into in/). */
#define OUR_RESOLVE (RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV)

static pthread_once_t sizes_once = PTHREAD_ONCE_INIT;
static struct seccomp_notif_sizes sizes;
static int sizes_errno;

static void load_sizes(void)
{
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) {
		sizes_errno = errno;
	} else if (sizes.seccomp_notif > NOTIF_ROOM || sizes.seccomp_notif_resp > NOTIF_ROOM) {
		sizes_errno = EOVERFLOW;
	}
}

static int notif_sizes_ok(void)
{
	pthread_once(&sizes_once, load_sizes);
	return sizes_errno ? -sizes_errno : 0;
}

int hl_notif_supported(void)
{
	int r = notif_sizes_ok();
	if (r < 0) {
		return r;
	}
	uint32_t action = SECCOMP_RET_USER_NOTIF;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0) {
		return -errno;
	}
	return 1;
}

int hl_notif_set_flags(int listener, long flags)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, (unsigned long)flags) < 0 ? -errno : 0;
}

/* One SECCOMP_IOCTL_NOTIF_RECV into the slots at out_addr: it blocks in the kernel until a
 * notification is pending (or no task uses the filter any more). 0 or -errno. */
static int receive(int listener, long out_addr);
static int send_resp(int listener, long id, int err, long val, unsigned flags);

int hl_notif_recv(int listener, int stopfd, long out_addr)
{
	int r = notif_sizes_ok();
	if (r < 0) {
		return r;
	}
	struct pollfd p[2] = { { .fd = listener, .events = POLLIN }, { .fd = stopfd, .events = POLLIN } };
	nfds_t n = stopfd >= 0 ? 2 : 1;
	for (;;) {
		if (poll(p, n, -1) < 0) {
			if (errno == EINTR) {
				continue;
			}
			return -errno;
		}
		if (n == 2 && p[1].revents) {
			return HL_RECV_STOPPED;
		}
		if (p[0].revents & POLLNVAL) {
			return -EBADF;
		}
		if (p[0].revents & POLLIN) {
			break;
		}
		if (p[0].revents & (POLLHUP | POLLERR)) {
			return HL_RECV_HUNGUP;
		}
	}
	return receive(listener, out_addr);
}

int hl_notif_recv_wait(int listener, long out_addr)
{
	int r = notif_sizes_ok();
	if (r < 0) {
		return r;
	}
	r = receive(listener, out_addr);
	if (r != -ENOENT) {
		return r;
	}
	/* ENOENT: either the caller we were woken for is gone, or no task uses the filter any more (RECV
	 * then returns at once, every time): only the latter makes the listener say POLLHUP. */
	struct pollfd p = { .fd = listener, .events = POLLIN };
	if (poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR)) && !(p.revents & POLLIN)) {
		return HL_RECV_HUNGUP;
	}
	return -ENOENT;
}

int hl_notif_answer_recv_wait(int listener, long id, int err, long val, int flags, long out_addr)
{
	int64_t *out = (int64_t *)(intptr_t)out_addr;
	out[HL_N_SENT] = send_resp(listener, id, err, val, (unsigned)flags);
	return hl_notif_recv_wait(listener, out_addr);
}

static int receive(int listener, long out_addr)
{
	/* RECV insists on a zeroed buffer of the kernel's size. */
	union {
		struct seccomp_notif n;
		char room[NOTIF_ROOM];
	} buf;
	memset(&buf, 0, sizes.seccomp_notif);
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &buf) < 0) {
		return -errno;
	}
	int64_t *out = (int64_t *)(intptr_t)out_addr;
	out[HL_N_ID] = (int64_t)buf.n.id;
	out[HL_N_PID] = buf.n.pid;
	out[HL_N_NR] = buf.n.data.nr;
	out[HL_N_ARCH] = buf.n.data.arch;
	out[HL_N_IP] = (int64_t)buf.n.data.instruction_pointer;
	for (int i = 0; i < 6; i++) {
		out[HL_N_ARG0 + i] = (int64_t)buf.n.data.args[i];
	}
	return 0;
}

static int send_resp(int listener, long id, int err, long val, unsigned flags)
{
	union {
		struct seccomp_notif_resp r;
		char room[NOTIF_ROOM];
	} buf;
	memset(&buf, 0, sizes.seccomp_notif_resp ? sizes.seccomp_notif_resp : sizeof buf.r);
	buf.r.id = (uint64_t)id;
	buf.r.error = err ? -err : 0;
	buf.r.val = val;
	buf.r.flags = flags;
	/* EINTR (a signal while it waited for the filter's lock, e.g. the native supervisor's stop
	 * signal): nothing was answered, the call still waits; answer it. */
	int r;
	while ((r = ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &buf)) < 0 && errno == EINTR) {
	}
	return r < 0 ? -errno : 0;
}

int hl_notif_continue(int listener, long id)
{
	return send_resp(listener, id, 0, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
}

int hl_notif_error(int listener, long id, int err)
{
	return send_resp(listener, id, err, 0, 0);
}

int hl_notif_value(int listener, long id, long val)
{
	return send_resp(listener, id, 0, val, 0);
}

int hl_notif_id_valid(int listener, long id)
{
	uint64_t v = (uint64_t)id;
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &v) < 0 ? -errno : 0;
}

/*
 * Reading the caller's memory. Through /proc/PID/mem, never process_vm_readv: on a page the child
 * registered with userfaultfd and never serves, process_vm_readv waits for the page forever (no
 * signal ends that wait; only the death of every holder of the userfaultfd), while the GUP behind a
 * /proc/PID/mem read asks for no retry, so the same page answers EIO at once (checked on Linux 6.18).
 * A page that must be read from a FUSE server (or a hung disk) can still block this read: the
 * supervisors bound that with a deadline (supervisor.c, JavaSupervisor).
 *
 * One open per read, no descriptor cached per pid: a cached descriptor holds the mm it was opened on,
 * and that mm can outlive the pid's use of it while staying readable (a vfork/posix_spawn child that
 * opened files on its parent's mm and then exec'd; a thread that exited while its process lives on,
 * its tid reused), so a cached read could return another process's bytes with no error to tell. The
 * open costs about a microsecond, a few percent of a broker round trip.
 */
static ssize_t read_mem_now(int pid, long addr, void *buf, size_t len)
{
	/* pread's offset is signed: an address with the top bit set is no user address. */
	if (addr < 0) {
		return -EFAULT;
	}
	/* "/proc/PID/mem" without stdio: this is on every brokered call's path. */
	char name[32] = "/proc/";
	char digits[12];
	int nd = 0;
	for (unsigned v = (unsigned)pid; v != 0; v /= 10) {
		digits[nd++] = (char)('0' + v % 10);
	}
	int at = 6;
	while (nd > 0) {
		name[at++] = digits[--nd];
	}
	memcpy(name + at, "/mem", 5);
	int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		/* ENOENT: no such task (any more). */
		return errno == ENOENT ? -ESRCH : -errno;
	}
	ssize_t got = pread(fd, buf, len, (off_t)addr);
	int e = errno;
	close(fd);
	if (got < 0) {
		/* EIO: the first page is unreadable (unmapped, PROT_NONE, or userfaultfd-registered). */
		return e == EIO ? -EFAULT : -e;
	}
	if (got == 0 && len > 0) {
		/* The task's memory is gone (it exited or exec'd after the open). */
		return -ESRCH;
	}
	return got;
}

/* The watch over this thread's reads (hl_watch_attach): NULL for a thread no supervisor watches. */
static __thread struct hl_watch *current_watch;

static int64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

long long hl_monotonic_ns(void)
{
	return monotonic_ns();
}

int hl_watch_attach(long watch_addr)
{
	struct hl_watch *w = (struct hl_watch *)(intptr_t)watch_addr;
	if (w != NULL) {
		atomic_store(&w->started, 0);
		atomic_store(&w->pid, 0);
	}
	if (w != NULL) {
		atomic_store(&w->tid, (long long)syscall(SYS_gettid));
	}
	current_watch = w;
	return 0;
}

/* The thread's time on a CPU plus its time waiting for one (ns), or -1 when schedstat is missing. */
static long long busy_ns(long long tid)
{
	char name[64] = "/proc/self/task/";
	char digits[24];
	int nd = 0;
	for (unsigned long long v = (unsigned long long)tid; v != 0; v /= 10) {
		digits[nd++] = (char)('0' + v % 10);
	}
	int at = 16;
	while (nd > 0) {
		name[at++] = digits[--nd];
	}
	memcpy(name + at, "/schedstat", 11);
	int fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return -1;
	}
	char buf[128];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0) {
		return -1;
	}
	buf[n] = 0;
	char *end;
	unsigned long long cpu = strtoull(buf, &end, 10);
	unsigned long long wait = strtoull(end, &end, 10);
	return (long long)(cpu + wait);
}

long hl_watch_check(long watch_addr, long deadline_ns, long state_addr)
{
	struct hl_watch *w = (struct hl_watch *)(intptr_t)watch_addr;
	long long *state = (long long *)(intptr_t)state_addr; /* seen started, t0, busy at t0 */
	long long started = atomic_load(&w->started);
	if (started <= 0) {
		state[0] = 0;
		return 0;
	}
	long long now = monotonic_ns();
	long long busy = busy_ns(atomic_load(&w->tid));
	if (state[0] != started) {
		/* First sight of this read: time counts from here. */
		state[0] = started;
		state[1] = now;
		state[2] = busy;
		return 0;
	}
	long long blocked = now - state[1];
	if (busy >= 0 && state[2] >= 0) {
		blocked -= busy - state[2];
	}
	if (blocked < deadline_ns) {
		return 0;
	}
	/* Judged on this very read: nothing changes here (the watchdog hands it off, it goes on). */
	return (long)atomic_load(&w->pid);
}

int hl_watch_abandoned(long watch_addr)
{
	struct hl_watch *w = (struct hl_watch *)(intptr_t)watch_addr;
	return w != NULL && atomic_load(&w->started) == HL_WATCH_ABANDONED;
}

static int current_abandoned(void)
{
	return current_watch != NULL &&
	       atomic_load_explicit(&current_watch->started, memory_order_relaxed) == HL_WATCH_ABANDONED;
}

long hl_watch_abandon(long watch_addr, long deadline_ns)
{
	struct hl_watch *w = (struct hl_watch *)(intptr_t)watch_addr;
	long long started = atomic_load(&w->started);
	if (started < 0) {
		/* Abandoned already, or the thread has left its loop (its own mark, below zero too). */
		return -EALREADY;
	}
	if (started == 0 && deadline_ns > 0) {
		return 0;
	}
	if (started != 0 && deadline_ns > 0 && monotonic_ns() - started < deadline_ns) {
		return 0;
	}
	/* Whoever moves started first decides: the reader back to 0 (its read ended in time), or we. */
	if (!atomic_compare_exchange_strong(&w->started, &started, HL_WATCH_ABANDONED)) {
		return 0;
	}
	return started == 0 ? HL_WATCH_NOT_READING : atomic_load(&w->pid);
}

int hl_watch_leave(long watch_addr)
{
	struct hl_watch *w = (struct hl_watch *)(intptr_t)watch_addr;
	if (current_watch == w) {
		current_watch = NULL;
	}
	long long idle = 0;
	return atomic_compare_exchange_strong(&w->started, &idle, HL_WATCH_EXITED) ? 0 : 1;
}

int hl_retire_fd(int fd)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0) {
		return -errno;
	}
	int r = dup3(null, fd, O_CLOEXEC) < 0 ? -errno : 0;
	close(null);
	return r;
}

static ssize_t read_mem(int pid, long addr, void *buf, size_t len)
{
	if (pid <= 0) {
		return -ESRCH;
	}
	struct hl_watch *w = current_watch;
	long long started = 0;
	if (w != NULL) {
		if (atomic_load(&w->started) == HL_WATCH_ABANDONED) {
			return -ESRCH;
		}
		atomic_store_explicit(&w->pid, pid, memory_order_relaxed);
		long long idle = 0;
		started = monotonic_ns();
		/* A CAS, not a store: an abandonment that came first must stay. */
		if (!atomic_compare_exchange_strong(&w->started, &idle, started)) {
			return -ESRCH;
		}
	}
	ssize_t got = read_mem_now(pid, addr, buf, len);
	if (w != NULL && !atomic_compare_exchange_strong(&w->started, &started, 0)) {
		/* Given up (its call answered by the watchdog, or the listener closed by stop): what we read
		 * belongs to no call any more. */
		return -ESRCH;
	}
	return got;
}

int hl_read_child(int pid, long addr, void *buf, size_t len)
{
	ssize_t got = read_mem(pid, addr, buf, len);
	if (got < 0) {
		return (int)got;
	}
	/* A short read stops at the first unreadable page. */
	return (size_t)got == len ? 0 : -EFAULT;
}

int hl_read_path(int pid, long addr, long buf_addr, int cap)
{
	if (cap < 2) {
		return -EINVAL;
	}
	char *buf = (char *)(intptr_t)buf_addr;
	/* The whole capacity, NUL included: the kernel accepts a name of PATH_MAX - 1 bytes. One read: a
	 * path that ends just before an unreadable page comes back as a short read, whole. */
	size_t want = (size_t)cap;
	ssize_t got = read_mem(pid, addr, buf, want);
	if (got < 0) {
		return (int)got;
	}
	char *nul = memchr(buf, 0, (size_t)got);
	if (nul == NULL) {
		return (size_t)got == want ? -ENAMETOOLONG : -EFAULT;
	}
	return (int)(nul - buf);
}

int hl_notif_read_path(int listener, long id, int pid, long addr, long buf_addr, int cap)
{
	int len = hl_read_path(pid, addr, buf_addr, cap);
	if (current_abandoned()) {
		/* The watchdog gave up on this call and answered for it: touch nothing of it. */
		return -ESRCH;
	}
	/* The notification must still be pending after the read: otherwise pid may already name another
	 * process, and what we read is not the caller's path. */
	if (hl_notif_id_valid(listener, id) != 0) {
		return -ESRCH;
	}
	/* A live caller whose memory could not be read: ESRCH here would read as "gone". */
	return len == -ESRCH ? -EFAULT : len;
}

/* Answers an error, translating a failed answer into the result encoding. */
static int answer_error(int listener, long id, int err, int base)
{
	int r = hl_notif_error(listener, id, err);
	if (r == -ENOENT) {
		return HL_BROKER_GONE;
	}
	if (r < 0) {
		return HL_BROKER_FAILED + r;
	}
	return base - err;
}

/* The kind of a notified call (HL_CALL_*): the four calls that open by name, on x86_64 only. */
static int call_kind(const int64_t *n)
{
	if (n[HL_N_ARCH] != AUDIT_ARCH_X86_64) {
		return HL_CALL_OTHER;
	}
	switch (n[HL_N_NR]) {
	case SYS_open:
		return HL_CALL_OPEN;
	case SYS_openat:
		return HL_CALL_OPENAT;
	case SYS_openat2:
		return HL_CALL_OPENAT2;
	case SYS_creat:
		return HL_CALL_CREAT;
	default:
		return HL_CALL_OTHER;
	}
}

/* The argument holding the path of a call of this kind, or -1. */
static int path_arg(int kind)
{
	if (kind == HL_CALL_OPEN || kind == HL_CALL_CREAT) {
		return 0;
	}
	return kind == HL_CALL_OPENAT || kind == HL_CALL_OPENAT2 ? 1 : -1;
}

/* openat2's struct open_how: read once from the caller into our copy and checked as the kernel checks
 * it (sys_openat2, copy_struct_from_user, build_open_flags). 0, an errno for the call, or ESRCH when
 * the call is no longer pending. */
static int read_open_how(int listener, const int64_t *n, struct open_how *how)
{
	uint64_t size = (uint64_t)n[HL_N_ARG0 + 3];
	if (size < OPEN_HOW_VER0) {
		return EINVAL;
	}
	if (size > OPEN_HOW_MAX) {
		return E2BIG;
	}
	unsigned char buf[OPEN_HOW_MAX];
	int r = hl_read_child((int)n[HL_N_PID], (long)n[HL_N_ARG0 + 2], buf, (size_t)size);
	/* Given up, the call answered by the watchdog: touch nothing of it. Else pending still, or pid may
	 * name another process by now and the bytes mean nothing. */
	if (current_abandoned() || hl_notif_id_valid(listener, n[HL_N_ID]) != 0) {
		return ESRCH;
	}
	if (r < 0) {
		return EFAULT;
	}
	/* A later kernel's field we do not know, set: the kernel we mimic would say E2BIG. */
	for (uint64_t i = OPEN_HOW_VER0; i < size; i++) {
		if (buf[i] != 0) {
			return E2BIG;
		}
	}
	memcpy(how, buf, OPEN_HOW_VER0);
	if ((how->flags & ~(uint64_t)K_VALID_OPEN_FLAGS) != 0 ||
	    (how->resolve & ~(uint64_t)K_VALID_RESOLVE_FLAGS) != 0) {
		return EINVAL;
	}
	if ((how->resolve & RESOLVE_BENEATH) && (how->resolve & RESOLVE_IN_ROOT)) {
		return EINVAL;
	}
	if (how->flags & (O_CREAT | K_O_TMPFILE_BIT)) {
		if (how->mode & ~(uint64_t)07777) {
			return EINVAL;
		}
	} else if (how->mode != 0) {
		return EINVAL;
	}
	if ((how->flags & O_CREAT) && (how->flags & O_DIRECTORY)) {
		return EINVAL;
	}
	return 0;
}

int hl_broker_call(int listener, long notif_addr)
{
	int64_t *n = (int64_t *)(intptr_t)notif_addr;
	if (n[HL_N_CALL_FOR] == n[HL_N_ID]) {
		return (int)n[HL_N_CALL_KIND]; /* read already for this notification: the one copy */
	}
	int kind = call_kind(n);
	struct open_how how = { 0 };
	int err = 0;
	/* open, openat and creat take their flags and mode as ints: judge what the kernel would use, not a
	 * register's upper half. */
	switch (kind) {
	case HL_CALL_OPEN:
		how.flags = (unsigned int)n[HL_N_ARG0 + 1];
		how.mode = (unsigned int)n[HL_N_ARG0 + 2];
		break;
	case HL_CALL_OPENAT:
		how.flags = (unsigned int)n[HL_N_ARG0 + 2];
		how.mode = (unsigned int)n[HL_N_ARG0 + 3];
		break;
	case HL_CALL_CREAT:
		how.flags = O_CREAT | O_WRONLY | O_TRUNC; /* what creat(2) is */
		how.mode = (unsigned int)n[HL_N_ARG0 + 1];
		break;
	case HL_CALL_OPENAT2:
		err = read_open_how(listener, n, &how);
		if (err == ESRCH) {
			return -ESRCH;
		}
		if (err != 0) {
			how = (struct open_how){ 0 };
		}
		break;
	default:
		break;
	}
	n[HL_N_CALL_KIND] = kind;
	n[HL_N_CALL_FLAGS] = (int64_t)how.flags;
	n[HL_N_CALL_MODE] = (int64_t)how.mode;
	n[HL_N_CALL_RESOLVE] = (int64_t)how.resolve;
	n[HL_N_CALL_ERR] = err;
	n[HL_N_CALL_FOR] = n[HL_N_ID];
	return kind;
}

int hl_broker_open(int listener, long notif_addr, long path_addr, int path_len, int in_dirfd)
{
	int64_t *n = (int64_t *)(intptr_t)notif_addr;
	const char *path = (const char *)(intptr_t)path_addr;
	long id = n[HL_N_ID];
	n[HL_N_F_MODE] = 0;
	n[HL_N_PATH_LEN] = HL_PATH_UNREAD;
	int kind = hl_broker_call(listener, notif_addr);
	if (kind == -ESRCH) {
		return HL_BROKER_GONE;
	}
	int arg = path_arg(kind);
	if (arg < 0) {
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	uint64_t open_flags = (uint64_t)n[HL_N_CALL_FLAGS];
	uint64_t resolve = (uint64_t)n[HL_N_CALL_RESOLVE];
	if (n[HL_N_CALL_ERR] != 0) {
		/* openat2's own argument errors come first, before any name is looked at, as in the kernel. */
		return answer_error(listener, id, (int)n[HL_N_CALL_ERR], 0);
	}
	if (arg == 1 && (int)n[HL_N_ARG0] != AT_FDCWD) {
		/* A path relative to one of the child's descriptors has no meaning beneath in/. */
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	int64_t rules = n[HL_N_RULES];
	int as_supervisor = (rules & HL_RULE_AS_SUPERVISOR) != 0;
	int cr = 1; /* the caller's credentials: 1 not read yet, else hl_creds_prepare's result */
	if (path_len == HL_PATH_UNREAD) {
		/* The caller's credentials first, so that the path read's pending check covers them too. */
		cr = hl_creds_prepare(id, (int)n[HL_N_PID], as_supervisor);
		/* The one read of this call's path, into the supervisor's buffer. */
		path_len = hl_notif_read_path(listener, id, (int)n[HL_N_PID], n[HL_N_ARG0 + arg], path_addr, PATH_MAX);
		n[HL_N_PATH_LEN] = path_len;
	}
	if (path_len == -ESRCH) {
		return HL_BROKER_GONE;
	}
	if (path_len < 0) {
		return answer_error(listener, id, -path_len, 0);
	}
	if (path_len == 0) {
		return answer_error(listener, id, ENOENT, 0);
	}
	if (path_len >= PATH_MAX || path[path_len] != 0) {
		return answer_error(listener, id, EINVAL, HL_BROKER_FAILED);
	}
	if ((open_flags & ~(uint64_t)READ_ONLY_FLAGS) != 0 || (open_flags & O_ACCMODE) != O_RDONLY ||
	    (resolve & ~(uint64_t)PASSED_RESOLVE) != 0) {
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	if ((open_flags & O_DIRECTORY) && !(rules & HL_RULE_DIRECTORIES)) {
		/* A directory descriptor is a way out of any jail (fchdir, every *at call): not by default. */
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	/* Whose rights the lookup and the open use: the caller's (unless the policy lifted it), read before
	 * the path (the path read found the call pending after both) or now, and checked pending. */
	if (cr == 1) {
		cr = hl_creds_read(listener, id, (int)n[HL_N_PID], as_supervisor);
		if (cr == -ESRCH) {
			return HL_BROKER_GONE;
		}
	} else if (cr == 0) {
		hl_creds_confirm(id);
	}
	if (cr < 0) {
		/* Unreadable for a caller still pending (or more groups than the broker takes): refused. */
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	/* Decide before opening: an O_PATH lookup opens nothing (no driver's open, no FIFO's reader, no
	 * inotify IN_OPEN); its fstat says what the name is, and only an admitted regular file or asked-for
	 * directory is ever reopened for reading (hl_broker_send). */
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (open_flags & PASSED_FLAGS),
		.mode = 0,
		.resolve = OUR_RESOLVE | (resolve & PASSED_RESOLVE),
	};
	int sw = hl_creds_enter(id);
	if (sw < 0) {
		/* The caller's credentials cannot be taken on (a supervisor that may not switch): fail closed. */
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	int fd = (int)syscall(SYS_openat2, in_dirfd, path, &how, sizeof how);
	int e = errno;
	hl_creds_leave();
	if (fd < 0) {
		if (e == EXDEV) {
			/* The resolution left in/ ("..", an absolute path, a symlink out) or crossed a mount in it:
			 * nothing was opened. */
			return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
		}
		return answer_error(listener, id, e, 0);
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return answer_error(listener, id, e, 0);
	}
	if (S_ISLNK(st.st_mode)) {
		/* O_PATH | O_NOFOLLOW stops at a final symlink; the call asked O_NOFOLLOW: the kernel's ELOOP. */
		close(fd);
		return answer_error(listener, id, ELOOP, 0);
	}
	/* Regular files, and directories when the call asked for one (and the policy allows them, checked
	 * above): never a FIFO, socket or device. */
	if (!(S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && (open_flags & O_DIRECTORY)))) {
		close(fd);
		return answer_error(listener, id, EACCES, HL_BROKER_REFUSED);
	}
	n[HL_N_F_MODE] = st.st_mode;
	n[HL_N_F_NLINK] = (int64_t)st.st_nlink;
	n[HL_N_F_SIZE] = st.st_size;
	n[HL_N_F_DEV] = (int64_t)st.st_dev;
	n[HL_N_F_INO] = (int64_t)st.st_ino;
	return fd;
}

/* The default admission of a looked-up file, on its O_PATH descriptor's fstat (Policy.admit's default
 * too): a directory (one reaches this only when the policy allows directories), or a file with exactly
 * one link unless hard links are allowed. A file with several links may be a name in in/ for a file
 * outside it; refused, it was never opened. */
static int default_admits(const int64_t *n)
{
	return S_ISDIR((mode_t)n[HL_N_F_MODE]) || n[HL_N_F_NLINK] == 1 || (n[HL_N_RULES] & HL_RULE_HARD_LINKS);
}

/* A directory handed to a child must lead nowhere but beneath itself: a detached clone of its mount,
 * rooted at it (open_tree OPEN_TREE_CLONE, not recursive: no mount beneath it comes along), read-only,
 * nosuid, nodev, noexec and private. ".." at a mount's root with no parent mount stays where it is, so
 * no *at call relative to it, and no path after an fchdir to it, reaches above it, whatever the floor;
 * nothing can be made, changed or run through it. The clone dissolves with the last descriptor on it.
 * The tree descriptor, or -EACCES (a supervisor without CAP_SYS_ADMIN, a kernel without open_tree:
 * no directory is handed over). */
static int detached_view(int fd)
{
	int tree = (int)syscall(SYS_open_tree, fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (tree < 0) {
		return -EACCES;
	}
	struct mount_attr attr = {
		.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
		.propagation = MS_PRIVATE,
	};
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof attr) != 0) {
		close(tree);
		return -EACCES;
	}
	return tree;
}

/* The mount id of fd (statx STATX_MNT_ID), or -1. */
static long long mount_id(int fd)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) != 0 || !(sx.stx_mask & STATX_MNT_ID)) {
		return -1;
	}
	return (long long)sx.stx_mnt_id;
}

/* Reopens the admitted O_PATH descriptor for reading; the new descriptor, or -errno (-EACCES: what
 * opened is not the file admitted). Through /proc/self/fd: the kernel's way to turn an O_PATH
 * descriptor into an open file (openat2 takes no AT_EMPTY_PATH). The magic link is ours (our own
 * process's table), and the dev/ino check makes sure a /proc someone mounted over cannot hand us
 * another file. Non-blocking for the open (a lease or a FIFO must not hold us), O_NOCTTY always. */
static int reopen_admitted(const int64_t *n, int fd, int keep_nonblock)
{
	int dir = S_ISDIR((mode_t)n[HL_N_F_MODE]);
	if (dir && !(n[HL_N_RULES] & HL_RULE_DIRECTORIES)) {
		return -EACCES; /* never reached (hl_broker_open refuses first); kept so that no path hands one over */
	}
	int tree = dir ? detached_view(fd) : -1;
	if (dir && tree < 0) {
		return tree;
	}
	char self[64];
	snprintf(self, sizeof self, "/proc/self/fd/%d", dir ? tree : fd);
	int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (dir ? O_DIRECTORY : 0);
	/* The open's permission check (read access) with the caller's credentials, as the lookup's. */
	int file = -1;
	int sw = hl_creds_enter(n[HL_N_ID]);
	if (sw >= 0) {
		file = open(self, flags);
	}
	int e = sw < 0 ? EACCES : errno;
	hl_creds_leave();
	if (file < 0) {
		if (tree >= 0) {
			close(tree);
		}
		return -e;
	}
	struct stat st;
	if (fstat(file, &st) != 0) {
		e = errno;
		close(file);
		if (tree >= 0) {
			close(tree);
		}
		return -e;
	}
	/* A directory must be the clone (its mount), not the directory in in/'s own mount. */
	long long want_mnt = tree >= 0 ? mount_id(tree) : 0;
	int wrong_mount = tree >= 0 && (want_mnt < 0 || mount_id(file) != want_mnt);
	if (tree >= 0) {
		close(tree);
	}
	if (wrong_mount || (int64_t)st.st_dev != n[HL_N_F_DEV] || (int64_t)st.st_ino != n[HL_N_F_INO] ||
	    (st.st_mode & S_IFMT) != ((mode_t)n[HL_N_F_MODE] & S_IFMT)) {
		close(file);
		return -EACCES;
	}
	/* Hand over the blocking mode the call asked for (ours was only for the open). */
	if (!keep_nonblock && fcntl(file, F_SETFL, 0) != 0) {
		int e = errno;
		close(file);
		return -e;
	}
	return file;
}

int hl_broker_send(int listener, long notif_addr, int fd)
{
	const int64_t *n = (const int64_t *)(intptr_t)notif_addr;
	long id = n[HL_N_ID];
	long open_flags = n[HL_N_CALL_FOR] == id ? (long)n[HL_N_CALL_FLAGS] : 0;
	int file = reopen_admitted(n, fd, (open_flags & O_NONBLOCK) != 0);
	close(fd);
	if (file < 0) {
		return answer_error(listener, id, -file, file == -EACCES ? HL_BROKER_REFUSED : 0);
	}
	struct seccomp_notif_addfd addfd = {
		.id = (uint64_t)id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = (uint32_t)file,
		.newfd = 0,
		.newfd_flags = (uint32_t)(open_flags & O_CLOEXEC),
	};
	/* EINTR: interrupted before the caller took the descriptor, so the kernel withdrew the request
	 * and the call still waits (as for SEND above); ask again. */
	int remote;
	while ((remote = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd)) < 0 && errno == EINTR) {
	}
	int e = errno;
	close(file);
	if (remote >= 0) {
		return remote;
	}
	if (e == ENOENT) {
		return HL_BROKER_GONE;
	}
	/* e.g. EMFILE in the child: the call is still pending, so answer it with the reason. */
	return answer_error(listener, id, e, 0);
}

int hl_broker_refuse(int listener, long id, int fd, int err)
{
	if (fd >= 0) {
		close(fd);
	}
	return answer_error(listener, id, err, HL_BROKER_REFUSED);
}

int hl_broker_answer(int listener, long notif_addr, long path_addr, int in_dirfd)
{
	int64_t *n = (int64_t *)(intptr_t)notif_addr;
	/* A fresh notification in a reused buffer: its call is not read yet. */
	n[HL_N_CALL_FOR] = ~n[HL_N_ID];
	int path_len = HL_PATH_UNREAD;
	if (n[HL_N_RULES] & HL_RULE_CONTINUE_OTHERS) {
		int kind = hl_broker_call(listener, notif_addr);
		if (kind == -ESRCH) {
			return HL_BROKER_GONE;
		}
		int relative = (kind == HL_CALL_OPEN || (kind == HL_CALL_OPENAT && (int)n[HL_N_ARG0] == AT_FDCWD)) &&
			       ((uint64_t)n[HL_N_CALL_FLAGS] & (O_ACCMODE | O_CREAT | O_DIRECTORY)) == 0;
		if (relative) {
			/* The one read of the path: decided on here, and the open uses exactly these bytes. */
			path_len = hl_notif_read_path(listener, n[HL_N_ID], (int)n[HL_N_PID],
						      n[HL_N_ARG0 + path_arg(kind)], path_addr, PATH_MAX);
			if (path_len == -ESRCH) {
				return HL_BROKER_GONE;
			}
			relative = path_len > 0 && ((const char *)(intptr_t)path_addr)[0] != '/';
		}
		if (!relative) {
			int r = hl_notif_continue(listener, n[HL_N_ID]);
			return r == 0 ? HL_BROKER_CONTINUED : r == -ENOENT ? HL_BROKER_GONE : HL_BROKER_FAILED + r;
		}
	}
	/* One read into the supervisor's buffer (path_addr); the open uses exactly these bytes. */
	int fd = hl_broker_open(listener, notif_addr, path_addr, path_len, in_dirfd);
	if (fd < 0) {
		return fd;
	}
	if (!default_admits(n)) {
		return hl_broker_refuse(listener, n[HL_N_ID], fd, EACCES);
	}
	return hl_broker_send(listener, notif_addr, fd);
}

int hl_broker_open_dir(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int hl_eventfd(void)
{
	int fd = eventfd(0, EFD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int hl_eventfd_signal(int fd)
{
	uint64_t one = 1;
	return write(fd, &one, sizeof one) == sizeof one ? 0 : -errno;
}

int hl_dup_cloexec(int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return copy < 0 ? -errno : copy;
}

int hl_pidfd_getfd(int pid, int fd)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		return -errno;
	}
	int copy = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	int e = errno;
	close(pidfd);
	return copy < 0 ? -e : copy;
}
