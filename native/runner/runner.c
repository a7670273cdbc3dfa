/*
 * heimdall-runner: one measured run, spawned by libheimdall (never by hand).
 *
 * Orders and results travel through the shared region on fd 3 (see heimdall_shm.h); the listener,
 * when asked for, leaves through the socket on fd 4. The process runs no Java and, once its programs
 * are installed, makes no system call but the measured one, so what is timed is the call under the
 * floor and nothing of ours.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "heimdall_shm.h"
#include "hl_landlock.h"

/* What the measured call needs, prepared before the programs go in. */
struct job {
	void *page;
	const char *path;
	long nr;
	long open_flags; /* HL_CALL_OPENAT_FLAGS: args[0] */
	long args[6];
	pid_t pid; /* HL_CALL_GETPID_SELFTEST: what each call must return, read before the programs go in */
	struct sock_fprog attach; /* HL_CALL_ATTACH, HL_CALL_FORK_ATTACH: the program each call attaches */
};

static struct hl_shm_result *res;

static inline void set_phase(uint32_t p)
{
	__atomic_store_n(&res->phase, p, __ATOMIC_RELEASE);
}

/*
 * A bare system call: no libc wrapper, no errno, the same few instructions for every call kind, so
 * that the kinds differ only in what the kernel does. Returns -errno on failure, as the kernel does.
 */
static inline __attribute__((always_inline)) long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline __attribute__((always_inline)) uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static const char bench_name[] = "heimdall-bench";

#define CALL_getppid(j) sys6(SYS_getppid, 0, 0, 0, 0, 0, 0)
#define CALL_gettid(j) sys6(SYS_gettid, 0, 0, 0, 0, 0, 0)
#define CALL_getpid(j) sys6(SYS_getpid, 0, 0, 0, 0, 0, 0)
#define CALL_sched_yield(j) sys6(SYS_sched_yield, 0, 0, 0, 0, 0, 0)
#define CALL_prctl(j) sys6(SYS_prctl, PR_SET_NAME, (long)bench_name, 0, 0, 0, 0)
#define CALL_mprotect(j) sys6(SYS_mprotect, (long)(j)->page, 4096, PROT_READ, 0, 0, 0)
#define CALL_openat(j) sys6(SYS_openat, AT_FDCWD, (long)(j)->path, O_RDONLY | O_CLOEXEC, 0, 0, 0)
#define CALL_fstatat(j) sys6(SYS_newfstatat, AT_FDCWD, (long)(j)->path, (long)(j)->page, 0, 0, 0)
#define CALL_openat_flags(j) sys6(SYS_openat, AT_FDCWD, (long)(j)->path, (j)->open_flags, 0, 0, 0)
#define CALL_syscall(j) \
	sys6((j)->nr, (j)->args[0], (j)->args[1], (j)->args[2], (j)->args[3], (j)->args[4], (j)->args[5])
/*
 * The kernel selftest's call: glibc's syscall(), out of line (libc.so, through the PLT; the compiler
 * knows nothing of it, so neither the call nor its result can be optimised away), narrowed to pid_t as
 * the selftest stores it.
 */
#define CALL_getpid_selftest(j) ((long)(pid_t)syscall(SYS_getpid))

/* Untimed work after a call: only openat has any (its descriptor must not pile up). */
#define AFTER_none(r) ((void)0)
#define AFTER_close(r)                                       \
	do {                                                 \
		if ((r) >= 0)                                \
			sys6(SYS_close, (r), 0, 0, 0, 0, 0); \
	} while (0)
/* The selftest's assert(pid == ret): a compare and a branch that is never taken, in every iteration. */
#define AFTER_pid(r)                                    \
	do {                                            \
		if (__builtin_expect((r) != j->pid, 0)) \
			not_the_pid(i, (r));            \
	} while (0)

static __attribute__((noreturn)) void call_failed(uint64_t done, long err);

/* HL_CALL_GETPID_SELFTEST returned something other than the pid: end the run (HL_EXIT_CALL). */
static __attribute__((noreturn, noinline, cold)) void not_the_pid(uint64_t done, long r)
{
	call_failed(done, r == -1 && errno != 0 ? errno : ESRCH);
}

/*
 * One pair of loops per call kind and placement, chosen once through a table: the loop itself has no
 * branch on the mode or the kind. per_call_* stores one sample per call; batch_* only calls. Each
 * pair comes HL_PLACEMENTS times (heimdall_shm.h): the function starts a 64-byte line and its first
 * 16 * placement bytes are no-ops run once, so the loop body sits that much further into its line.
 */
#define LOOPS_AT(kind, after, placement)                                                  \
	__attribute__((noinline, aligned(64))) static long per_call_##kind##_##placement( \
		const struct job *j __attribute__((unused)), uint64_t *out, uint64_t n)   \
	{                                                                                 \
		__asm__ volatile(".fill 16 * " #placement ", 1, 0x90");                   \
		long r = 0;                                                               \
		for (uint64_t i = 0; i < n; i++) {                                        \
			uint64_t a = now_ns();                                            \
			r = CALL_##kind(j);                                               \
			uint64_t b = now_ns();                                            \
			after(r);                                                         \
			out[i] = b - a;                                                   \
		}                                                                         \
		return r;                                                                 \
	}                                                                                 \
	__attribute__((noinline, aligned(64))) static long batch_##kind##_##placement(    \
		const struct job *j __attribute__((unused)), uint64_t n)                  \
	{                                                                                 \
		__asm__ volatile(".fill 16 * " #placement ", 1, 0x90");                   \
		long r = 0;                                                               \
		for (uint64_t i = 0; i < n; i++) {                                        \
			r = CALL_##kind(j);                                               \
			after(r);                                                         \
		}                                                                         \
		return r;                                                                 \
	}

#define LOOPS(kind, after)       \
	LOOPS_AT(kind, after, 0) \
	LOOPS_AT(kind, after, 1) \
	LOOPS_AT(kind, after, 2) \
	LOOPS_AT(kind, after, 3)

LOOPS(getppid, AFTER_none)
LOOPS(gettid, AFTER_none)
LOOPS(getpid, AFTER_none)
LOOPS(sched_yield, AFTER_none)
LOOPS(prctl, AFTER_none)
LOOPS(mprotect, AFTER_none)
LOOPS(openat, AFTER_close)
LOOPS(syscall, AFTER_none)
LOOPS(getpid_selftest, AFTER_pid)
LOOPS(fstatat, AFTER_none)

/* HL_CALL_OPENAT_FLAGS: for deciding, not for timing (one copy of its loop). */
LOOPS_AT(openat_flags, AFTER_close, 0)

/*
 * A call that must succeed failed (attach, fork, or the forked child): record how far the loop got
 * and why, and end the run. Only raw system calls here: the floor may allow nothing else.
 */
static __attribute__((noreturn)) void call_failed(uint64_t done, long err)
{
	res->done = done;
	res->last_ret = -1;
	res->last_errno = (int32_t)err;
	res->setup_errno = (int32_t)err;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	sys6(SYS_exit_group, HL_EXIT_CALL, 0, 0, 0, 0, 0);
	__builtin_unreachable();
}

static inline __attribute__((always_inline)) long attach_once(const struct job *j)
{
	return sys6(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, (long)&j->attach, 0, 0, 0);
}

/*
 * fork (the raw call: no atfork handlers, nothing of libc's in the child), the child attaches or not
 * and leaves with exit_group, the parent waits. Returns 0, or the errno that made it fail (for a
 * child that could not attach, the errno it exited with).
 */
static inline __attribute__((always_inline)) long fork_once(const struct job *j, int attach)
{
	long pid = sys6(SYS_fork, 0, 0, 0, 0, 0, 0);
	if (pid == 0) {
		long r = attach ? attach_once(j) : 0;
		sys6(SYS_exit_group, r < 0 ? -r : 0, 0, 0, 0, 0, 0);
		__builtin_unreachable();
	}
	if (pid < 0)
		return -pid;
	int status = 0;
	long w;
	do
		w = sys6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0);
	while (w == -EINTR);
	if (w < 0)
		return -w;
	if (!WIFEXITED(status))
		return EINTR; /* killed: no errno fits better, the run's fate says the rest */
	return WEXITSTATUS(status);
}

/*
 * HL_CALL_PINGPONG: one byte out on the ping pipe, one back on the pong pipe, from the partner thread
 * in the spawning process. Returns 0, or the errno that ended it (EPIPE: the partner is gone).
 */
static inline __attribute__((always_inline)) long pingpong_once(void)
{
	char byte = 'p';
	long w = sys6(SYS_write, HL_PING_FD, (long)&byte, 1, 0, 0, 0);
	if (w != 1)
		return w < 0 ? -w : EPIPE;
	long r = sys6(SYS_read, HL_PONG_FD, (long)&byte, 1, 0, 0, 0);
	if (r != 1)
		return r < 0 ? -r : EPIPE;
	return 0;
}

static long per_call_pingpong(const struct job *j, uint64_t *out, uint64_t n)
{
	(void)j;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = now_ns();
		long e = pingpong_once();
		uint64_t b = now_ns();
		if (e != 0)
			call_failed(i, e);
		out[i] = b - a;
	}
	return 0;
}

static long batch_pingpong(const struct job *j, uint64_t n)
{
	(void)j;
	for (uint64_t i = 0; i < n; i++) {
		long e = pingpong_once();
		if (e != 0)
			call_failed(i, e);
	}
	return 0;
}

/* HL_CALL_PINGPONG_OPENAT: the round trip, then the openat, timed together; the close is not. The
 * last openat's result is returned, as the openat loops return theirs. */
static long per_call_pingpong_openat(const struct job *j, uint64_t *out, uint64_t n)
{
	long r = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = now_ns();
		long e = pingpong_once();
		if (e == 0)
			r = CALL_openat(j);
		uint64_t b = now_ns();
		if (e != 0)
			call_failed(i, e);
		AFTER_close(r);
		out[i] = b - a;
	}
	return r;
}

static long batch_pingpong_openat(const struct job *j, uint64_t n)
{
	long r = 0;
	for (uint64_t i = 0; i < n; i++) {
		long e = pingpong_once();
		if (e != 0)
			call_failed(i, e);
		r = CALL_openat(j);
		AFTER_close(r);
	}
	return r;
}

static long per_call_attach(const struct job *j, uint64_t *out, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = now_ns();
		long r = attach_once(j);
		uint64_t b = now_ns();
		if (r < 0)
			call_failed(i, -r);
		out[i] = b - a;
	}
	return 0;
}

static long batch_attach(const struct job *j, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		long r = attach_once(j);
		if (r < 0)
			call_failed(i, -r);
	}
	return 0;
}

#define FORK_LOOPS(kind, attach)                                                    \
	static long per_call_##kind(const struct job *j, uint64_t *out, uint64_t n) \
	{                                                                           \
		for (uint64_t i = 0; i < n; i++) {                                  \
			uint64_t a = now_ns();                                      \
			long e = fork_once(j, attach);                              \
			uint64_t b = now_ns();                                      \
			if (e != 0)                                                 \
				call_failed(i, e);                                  \
			out[i] = b - a;                                             \
		}                                                                   \
		return 0;                                                           \
	}                                                                           \
	static long batch_##kind(const struct job *j, uint64_t n)                   \
	{                                                                           \
		for (uint64_t i = 0; i < n; i++) {                                  \
			long e = fork_once(j, attach);                              \
			if (e != 0)                                                 \
				call_failed(i, e);                                  \
		}                                                                   \
		return 0;                                                           \
	}

FORK_LOOPS(fork, 0)
FORK_LOOPS(fork_attach, 1)

/* The timer's own cost: two back-to-back reads, nothing between them. */
static long per_call_timer(const struct job *j, uint64_t *out, uint64_t n)
{
	(void)j;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = now_ns();
		uint64_t b = now_ns();
		out[i] = b - a;
	}
	return 0;
}

typedef long (*per_call_fn)(const struct job *, uint64_t *, uint64_t);
typedef long (*batch_fn)(const struct job *, uint64_t);

#define PLACED(prefix, kind)                                                           \
	{                                                                              \
		prefix##kind##_0, prefix##kind##_1, prefix##kind##_2, prefix##kind##_3 \
	}
#define ONE_PLACEMENT(f) \
	{                \
		f        \
	}

_Static_assert(HL_PLACEMENTS == 4, "PLACED names four copies");

/* Indexed by call, then placement; the calls that are not placeable have placement 0 only. */
static const per_call_fn per_call[HL_CALL_MAX_ + 1][HL_PLACEMENTS] = {
	[HL_CALL_NONE] = ONE_PLACEMENT(per_call_timer),
	[HL_CALL_GETPPID] = PLACED(per_call_, getppid),
	[HL_CALL_GETTID] = PLACED(per_call_, gettid),
	[HL_CALL_GETPID] = PLACED(per_call_, getpid),
	[HL_CALL_SCHED_YIELD] = PLACED(per_call_, sched_yield),
	[HL_CALL_PRCTL_SET_NAME] = PLACED(per_call_, prctl),
	[HL_CALL_MPROTECT] = PLACED(per_call_, mprotect),
	[HL_CALL_OPENAT] = PLACED(per_call_, openat),
	[HL_CALL_SYSCALL] = PLACED(per_call_, syscall),
	[HL_CALL_ATTACH] = ONE_PLACEMENT(per_call_attach),
	[HL_CALL_FORK] = ONE_PLACEMENT(per_call_fork),
	[HL_CALL_FORK_ATTACH] = ONE_PLACEMENT(per_call_fork_attach),
	[HL_CALL_GETPID_SELFTEST] = PLACED(per_call_, getpid_selftest),
	[HL_CALL_PINGPONG] = ONE_PLACEMENT(per_call_pingpong),
	[HL_CALL_PINGPONG_OPENAT] = ONE_PLACEMENT(per_call_pingpong_openat),
	[HL_CALL_FSTATAT] = PLACED(per_call_, fstatat),
	[HL_CALL_OPENAT_FLAGS] = ONE_PLACEMENT(per_call_openat_flags_0),
};

static const batch_fn batch[HL_CALL_MAX_ + 1][HL_PLACEMENTS] = {
	[HL_CALL_GETPPID] = PLACED(batch_, getppid),
	[HL_CALL_GETTID] = PLACED(batch_, gettid),
	[HL_CALL_GETPID] = PLACED(batch_, getpid),
	[HL_CALL_SCHED_YIELD] = PLACED(batch_, sched_yield),
	[HL_CALL_PRCTL_SET_NAME] = PLACED(batch_, prctl),
	[HL_CALL_MPROTECT] = PLACED(batch_, mprotect),
	[HL_CALL_OPENAT] = PLACED(batch_, openat),
	[HL_CALL_SYSCALL] = PLACED(batch_, syscall),
	[HL_CALL_ATTACH] = ONE_PLACEMENT(batch_attach),
	[HL_CALL_FORK] = ONE_PLACEMENT(batch_fork),
	[HL_CALL_FORK_ATTACH] = ONE_PLACEMENT(batch_fork_attach),
	[HL_CALL_GETPID_SELFTEST] = PLACED(batch_, getpid_selftest),
	[HL_CALL_PINGPONG] = ONE_PLACEMENT(batch_pingpong),
	[HL_CALL_PINGPONG_OPENAT] = ONE_PLACEMENT(batch_pingpong_openat),
	[HL_CALL_FSTATAT] = PLACED(batch_, fstatat),
	[HL_CALL_OPENAT_FLAGS] = ONE_PLACEMENT(batch_openat_flags_0),
};

/* The clock around a batch loop: the vDSO's monotonic one, or the selftest's process CPU time. */
static inline uint64_t batch_now(uint32_t clock)
{
	struct timespec t;
	clock_gettime(clock == HL_CLOCK_PROCESS_CPUTIME ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static __attribute__((noreturn)) void give_up(int code, int err)
{
	if (res) {
		res->setup_errno = err;
		__atomic_thread_fence(__ATOMIC_RELEASE);
	}
	_exit(code);
}

/* SCM_RIGHTS: one byte of data carries the descriptor to the parent's end of the socketpair. */
static int send_fd(int sock, int fd)
{
	char byte = 'L';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	memset(&u, 0, sizeof(u));
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	ssize_t n;
	do
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

/*
 * HL_F_LISTENER_PIDFD: publish the descriptor's number and wait, without a system call (the
 * floor may allow none), until the parent has copied it with pidfd_getfd. Bounded by the vDSO clock.
 */
static int wait_taken(int fd)
{
	res->listener_fd = fd;
	set_phase(HL_PHASE_LISTENER_READY);
	uint64_t deadline = now_ns() + 30ull * 1000000000ull;
	while (!__atomic_load_n(&res->listener_taken, __ATOMIC_ACQUIRE)) {
		if (now_ns() > deadline)
			return -1;
		__builtin_ia32_pause();
	}
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	struct stat st;
	if (fstat(HL_SHM_FD, &st) != 0 || (uint64_t)st.st_size < HL_SHM_HEADER_SIZE)
		give_up(HL_EXIT_USAGE, errno);
	void *base = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, HL_SHM_FD, 0);
	if (base == MAP_FAILED)
		give_up(HL_EXIT_BAD_SHM, errno);

	/* Work from a private copy checked against the layout the library claims to have made. */
	static struct hl_shm_header h;
	memcpy(&h, base, sizeof(h));
	struct hl_shm_header want = h;
	if (hl_shm_layout(&want) != 0 || want.size != h.size || want.result_off != h.result_off ||
	    want.samples_off != h.samples_off || h.size != (uint64_t)st.st_size)
		give_up(HL_EXIT_BAD_SHM, 0);
	res = (struct hl_shm_result *)((char *)base + h.result_off);
	uint64_t *samples = (uint64_t *)((char *)base + h.samples_off);
	const struct sock_filter *progs = (const struct sock_filter *)((char *)base + h.progs_off);
	set_phase(HL_PHASE_SETUP);

	/* The parent may have died between the spawn and here; after this check PDEATHSIG covers it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0)
		give_up(HL_EXIT_PARENT_GONE, errno);
	if (getppid() != h.parent_pid)
		give_up(HL_EXIT_PARENT_GONE, 0);
	/*
	 * A floor that kills the runner must not leave a core file per run in the working directory
	 * (KILL_PROCESS dumps core where RLIMIT_CORE allows it); a test may kill thousands of runners.
	 */
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);

	set_phase(HL_PHASE_PIN);
	if (h.cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(h.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0)
			give_up(HL_EXIT_PIN, errno);
	} else if (h.cpu_set != 0) {
		/* A set: the scheduler may move us among its CPUs (and a synchronous wake-up may pull us). */
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int c = 0; c < 64; c++)
			if (h.cpu_set & (1ull << c))
				CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0)
			give_up(HL_EXIT_PIN, errno);
	}
	res->cpu_granted = sched_getcpu();

	set_phase(HL_PHASE_PREPARE);
	struct job job = { .path = h.path,
			   .nr = h.nr,
			   .open_flags = (long)h.args[0],
			   .pid = (pid_t)sys6(SYS_getpid, 0, 0, 0, 0, 0, 0) };
	for (int i = 0; i < 6; i++)
		job.args[i] = (long)h.args[i];
	job.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (job.page == MAP_FAILED)
		give_up(HL_EXIT_PREPARE, errno);
	memset(job.page, 0, 4096);
	/*
	 * openat names its file relative to the file's directory, made our working directory here: the
	 * measured call walks one component, and a supervisor that opens beneath the job's in/ sees the
	 * same relative name the kernel resolves for an unbrokered call. With path_dir_len the working
	 * directory is the one named and the call names the rest as given (a path of several components).
	 */
	if (hl_call_names_file(h.call) && h.path_dir_len != 0) {
		h.path[h.path_dir_len] = 0;
		if (chdir(h.path) != 0)
			give_up(HL_EXIT_PREPARE, errno);
		job.path = h.path + h.path_dir_len + 1;
	} else if (hl_call_names_file(h.call)) {
		char *slash = strrchr(h.path, '/');
		if (slash) {
			*slash = 0;
			if (chdir(slash == h.path ? "/" : h.path) != 0)
				give_up(HL_EXIT_PREPARE, errno);
			job.path = slash + 1;
		}
	}
	/* Fault every sample page in now: a fault inside the loop would be timed. */
	memset(samples, 0, 8 * h.count);
	per_call_fn timed = per_call[h.call][h.placement];
	batch_fn untimed = batch[h.call][h.placement];

	set_phase(HL_PHASE_NO_NEW_PRIVS);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		give_up(HL_EXIT_NO_NEW_PRIVS, errno);

	/*
	 * Landlock before any program: a floor need not allow its three calls, and the ruleset confines
	 * everything after it (the measured call, and a brokered call's CONTINUE, which the kernel then
	 * makes as ours). The paths are opened here, in the child, never by the JVM.
	 */
	if (h.landlock_len != 0) {
		set_phase(HL_PHASE_LANDLOCK);
		int abi = 0;
		uint32_t step = 0;
		const char *desc = (const char *)progs;
		for (uint32_t k = 0; k < h.nprogs; k++)
			desc += 8ull * h.prog_len[k];
		int r = hl_landlock_install(desc, h.landlock_len, &abi, &step);
		res->landlock_abi = abi;
		res->landlock_step = step;
		if (r != 0)
			give_up(HL_EXIT_LANDLOCK, -r);
	}

	/* The attaching calls keep their program for the loop: it is not part of the floor. */
	uint32_t floor_progs = h.nprogs;
	if (h.call == HL_CALL_ATTACH || h.call == HL_CALL_FORK_ATTACH) {
		const struct sock_filter *p = progs;
		for (uint32_t k = 0; k + 1 < h.nprogs; k++)
			p += h.prog_len[k];
		job.attach.len = (unsigned short)h.prog_len[h.nprogs - 1];
		job.attach.filter = (struct sock_filter *)p;
		floor_progs = h.nprogs - 1;
	}

	int listener = -1;
	for (uint32_t k = 0; k < floor_progs; k++) {
		res->prog_index = k;
		set_phase(HL_PHASE_INSTALL);
		struct sock_fprog fprog = { .len = (unsigned short)h.prog_len[k],
					    .filter = (struct sock_filter *)progs };
		unsigned long flags = 0;
		if (k == h.listener_prog && (h.flags & HL_F_NEW_LISTENER))
			flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
		long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &fprog);
		if (r < 0)
			give_up(HL_EXIT_INSTALL, errno);
		if (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER)
			listener = (int)r;
		progs += h.prog_len[k];
	}

	if (listener >= 0) {
		set_phase(HL_PHASE_LISTENER);
		if (h.flags & HL_F_LISTENER_PIDFD) {
			if (wait_taken(listener) != 0)
				give_up(HL_EXIT_LISTENER, ETIMEDOUT);
		} else if (send_fd(HL_SOCK_FD, listener) != 0) {
			give_up(HL_EXIT_LISTENER, errno);
		}
		/* Our copy must go: the parent closing its own must leave no listener at all. */
		sys6(SYS_close, listener, 0, 0, 0, 0, 0);
	}

	long last;
	set_phase(HL_PHASE_WARMUP);
	if (h.mode == HL_MODE_BATCH) {
		untimed(&job, h.warmup);
		set_phase(HL_PHASE_MEASURE);
		uint64_t a = batch_now(h.batch_clock);
		last = untimed(&job, h.count);
		uint64_t b = batch_now(h.batch_clock);
		res->batch_ns = b - a;
	} else {
		/* The warm-up runs the very loop that is measured, into the same (later overwritten) samples. */
		for (uint64_t done = 0; done < h.warmup;) {
			uint64_t n = h.warmup - done < h.count ? h.warmup - done : h.count;
			timed(&job, samples, n);
			done += n;
		}
		set_phase(HL_PHASE_MEASURE);
		last = timed(&job, samples, h.count);
	}
	if (last < 0 && last > -4096) {
		res->last_ret = -1;
		res->last_errno = (int32_t)-last;
	} else {
		res->last_ret = last;
		res->last_errno = 0;
	}
	res->done = h.count;
	set_phase(HL_PHASE_DONE);
	_exit(HL_EXIT_OK);
}
