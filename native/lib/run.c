/*
 * Spawning, listening to and reaping heimdall-runner processes.
 *
 * Every descriptor this file opens in the parent is O_CLOEXEC from birth and kept at 10 or above,
 * and the runner's file actions close everything from 5 up, so runs spawned concurrently from
 * several threads never inherit each other's regions or sockets.
 *
 * All spawns happen on one native thread that lives as long as the process: PR_SET_PDEATHSIG fires
 * when the *thread* that created the child exits, so spawning from a short-lived Java thread would
 * kill a runner that another thread still awaits. With the spawner, the runner dies with the process
 * and only then.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "heimdall.h"
#include "heimdall_shm.h"
#include "hl_landlock.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

struct hl_run {
	pid_t pid;
	int pidfd;
	int sock;
	void *map;
	size_t size;
	struct hl_shm_header *h;
	struct hl_shm_result *res;
	uint64_t *samples;
	int reaped;
	/* HL_CALL_PINGPONG: our ends of the two pipes (-1 otherwise) and the partner thread */
	int ping_r;
	int pong_w;
	pthread_t partner;
	int partner_started;
};

/* ---- the spawner thread ---- */

struct spawn_req {
	const char *path;
	int fd3, fd4;
	int fd5, fd6; /* HL_CALL_PINGPONG's pipe ends for the runner, else -1 */
	pid_t pid;
	int err;
	int done;
};

static pthread_mutex_t sp_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sp_cv = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t sp_callers = PTHREAD_MUTEX_INITIALIZER;
static struct spawn_req *sp_pending;
static pthread_once_t sp_once = PTHREAD_ONCE_INIT;
static int sp_start_err;

static void do_spawn(struct spawn_req *r)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	char *argv[] = { "heimdall-runner", NULL };
	char *envp[] = { NULL };

	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawn_file_actions_adddup2(&fa, r->fd3, HL_SHM_FD);
	posix_spawn_file_actions_adddup2(&fa, r->fd4, HL_SOCK_FD);
	if (r->fd5 >= 0) {
		posix_spawn_file_actions_adddup2(&fa, r->fd5, HL_PING_FD);
		posix_spawn_file_actions_adddup2(&fa, r->fd6, HL_PONG_FD);
		posix_spawn_file_actions_addclosefrom_np(&fa, HL_PONG_FD + 1);
	} else {
		posix_spawn_file_actions_addclosefrom_np(&fa, HL_SOCK_FD + 1);
	}
	r->err = posix_spawn(&r->pid, r->path, &fa, &at, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
}

static void *spawner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&sp_mu);
	for (;;) {
		while (sp_pending == NULL)
			pthread_cond_wait(&sp_cv, &sp_mu);
		struct spawn_req *r = sp_pending;
		sp_pending = NULL;
		pthread_mutex_unlock(&sp_mu);
		do_spawn(r);
		pthread_mutex_lock(&sp_mu);
		r->done = 1;
		pthread_cond_broadcast(&sp_cv);
	}
	return NULL;
}

static void start_spawner(void)
{
	pthread_t t;
	pthread_attr_t a;
	sigset_t all, old;
	/* The JVM's signal handlers must never run on a thread it does not know. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	sp_start_err = pthread_create(&t, &a, spawner, NULL);
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static int spawn_on_spawner(struct spawn_req *r)
{
	pthread_once(&sp_once, start_spawner);
	if (sp_start_err)
		return -sp_start_err;
	pthread_mutex_lock(&sp_callers);
	pthread_mutex_lock(&sp_mu);
	sp_pending = r;
	pthread_cond_broadcast(&sp_cv);
	while (!r->done)
		pthread_cond_wait(&sp_cv, &sp_mu);
	pthread_mutex_unlock(&sp_mu);
	pthread_mutex_unlock(&sp_callers);
	return r->err ? -r->err : 0;
}

/* ---- runs ---- */

static void close_pipe(int p[2]);

static int high_cloexec(int fd)
{
	if (fd < 0)
		return -errno;
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	int err = errno;
	close(fd);
	return moved < 0 ? -err : moved;
}

/* A pipe with both ends O_CLOEXEC and at 10 or above; 0 or -errno (nothing left open on failure). */
static int make_pipe(int p[2])
{
	int raw[2];
	if (pipe2(raw, O_CLOEXEC) != 0)
		return -errno;
	p[0] = high_cloexec(raw[0]);
	p[1] = high_cloexec(raw[1]);
	if (p[0] < 0 || p[1] < 0) {
		int err = p[0] < 0 ? p[0] : p[1];
		close_pipe(p);
		return err;
	}
	return 0;
}

static void close_pipe(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0) {
			close(p[i]);
			p[i] = -1;
		}
}

int64_t hl_run_spawn(const char *runner_path, const void *spec, int32_t spec_len)
{
	struct hl_shm_header h;
	if (spec_len < (int32_t)sizeof(h))
		return -EINVAL;
	memcpy(&h, spec, sizeof(h));
	if (hl_shm_layout(&h) != 0)
		return -EINVAL;
	uint64_t insns_bytes = (uint64_t)spec_len - HL_SHM_HEADER_SIZE;
	uint64_t want = h.landlock_len; /* the programs, then the Landlock description */
	for (uint32_t i = 0; i < h.nprogs; i++)
		want += 8ull * h.prog_len[i];
	if (insns_bytes != want)
		return -EINVAL;
	if (h.landlock_len != 0 &&
	    hl_landlock_check((const char *)spec + HL_SHM_HEADER_SIZE + (want - h.landlock_len), h.landlock_len) != 0)
		return -EINVAL;
	h.parent_pid = getpid();

	int err;
	int memfd = high_cloexec(memfd_create("heimdall-run", MFD_CLOEXEC));
	if (memfd < 0)
		return memfd;
	if (ftruncate(memfd, (off_t)h.size) != 0) {
		err = -errno;
		close(memfd);
		return err;
	}
	void *map = mmap(NULL, h.size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (map == MAP_FAILED) {
		err = -errno;
		close(memfd);
		return err;
	}
	memcpy(map, &h, sizeof(h));
	memcpy((char *)map + HL_SHM_HEADER_SIZE, (const char *)spec + HL_SHM_HEADER_SIZE, insns_bytes);
	struct hl_shm_result *res = (struct hl_shm_result *)((char *)map + h.result_off);
	res->cpu_granted = -1;

	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		err = -errno;
		goto fail_map;
	}
	sv[0] = high_cloexec(sv[0]);
	sv[1] = high_cloexec(sv[1]);
	if (sv[0] < 0 || sv[1] < 0) {
		err = sv[0] < 0 ? sv[0] : sv[1];
		if (sv[0] >= 0)
			close(sv[0]);
		if (sv[1] >= 0)
			close(sv[1]);
		goto fail_map;
	}

	/* ping[1] and pong[0] go to the runner; we keep ping[0] and pong[1] for the partner thread. */
	int ping[2] = { -1, -1 }, pong[2] = { -1, -1 };
	if (h.call == HL_CALL_PINGPONG || h.call == HL_CALL_PINGPONG_OPENAT) {
		err = make_pipe(ping);
		if (err == 0)
			err = make_pipe(pong);
		if (err) {
			close_pipe(ping);
			close(sv[0]);
			close(sv[1]);
			goto fail_map;
		}
	}

	struct spawn_req req = { .path = runner_path, .fd3 = memfd, .fd4 = sv[1], .fd5 = ping[1], .fd6 = pong[0] };
	err = spawn_on_spawner(&req);
	close(sv[1]);
	close(memfd);
	memfd = -1;
	/* Only the runner may hold these: the partner's read then ends (EOF) when the runner does. */
	if (ping[1] >= 0)
		close(ping[1]);
	if (pong[0] >= 0)
		close(pong[0]);
	if (err) {
		close(sv[0]);
		if (ping[0] >= 0)
			close(ping[0]);
		if (pong[1] >= 0)
			close(pong[1]);
		munmap(map, h.size);
		return err;
	}

	struct hl_run *run = calloc(1, sizeof(*run));
	int pidfd = high_cloexec((int)syscall(SYS_pidfd_open, req.pid, 0));
	if (run == NULL || pidfd < 0) {
		err = run == NULL ? -ENOMEM : pidfd;
		if (pidfd >= 0)
			close(pidfd);
		kill(req.pid, SIGKILL);
		waitpid(req.pid, NULL, 0);
		close(sv[0]);
		if (ping[0] >= 0)
			close(ping[0]);
		if (pong[1] >= 0)
			close(pong[1]);
		munmap(map, h.size);
		free(run);
		return err;
	}
	run->ping_r = ping[0];
	run->pong_w = pong[1];
	run->pid = req.pid;
	run->pidfd = pidfd;
	run->sock = sv[0];
	run->map = map;
	run->size = h.size;
	run->h = map;
	run->res = res;
	run->samples = (uint64_t *)((char *)map + h.samples_off);
	return (int64_t)(intptr_t)run;

fail_map:
	if (memfd >= 0)
		close(memfd);
	munmap(map, h.size);
	return err;
}

static int64_t mono_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int recv_fd(int sock)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	ssize_t n;
	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EPIPE;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int fd;
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
			return high_cloexec(fd);
		}
	}
	return -EPROTO;
}

int32_t hl_run_listener(int64_t handle, int32_t timeout_ms)
{
	struct hl_run *run = (struct hl_run *)(intptr_t)handle;
	int64_t deadline = mono_ms() + timeout_ms;
	if (!(run->h->flags & HL_F_NEW_LISTENER))
		return -EINVAL;
	if (!(run->h->flags & HL_F_LISTENER_PIDFD)) {
		struct pollfd p = { .fd = run->sock, .events = POLLIN };
		for (;;) {
			int left = (int)(deadline - mono_ms());
			int n = poll(&p, 1, left < 0 ? 0 : left);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n == 0)
				return -ETIMEDOUT;
			return recv_fd(run->sock);
		}
	}
	/* pidfd_getfd: wait for the runner to publish its descriptor, or to die, or the deadline. */
	struct pollfd p = { .fd = run->pidfd, .events = POLLIN };
	for (;;) {
		if (__atomic_load_n(&run->res->phase, __ATOMIC_ACQUIRE) == HL_PHASE_LISTENER_READY) {
			int fd = (int)syscall(SYS_pidfd_getfd, run->pidfd, run->res->listener_fd, 0);
			if (fd < 0)
				return -errno;
			__atomic_store_n(&run->res->listener_taken, 1, __ATOMIC_RELEASE);
			return high_cloexec(fd);
		}
		int left = (int)(deadline - mono_ms());
		if (left < 0)
			return -ETIMEDOUT;
		int n = poll(&p, 1, left < 1 ? left : 1);
		if (n > 0)
			return -EPIPE; /* readable pidfd: the runner has exited */
	}
}

int32_t hl_run_wait(int64_t handle, int64_t *samples, int32_t samples_len, int64_t *results, int32_t results_len)
{
	struct hl_run *run = (struct hl_run *)(intptr_t)handle;
	if (results_len < HL_R_LEN)
		return -EINVAL;
	if (run->reaped)
		return -ECHILD;
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	int r;
	do
		r = waitid(P_PIDFD, run->pidfd, &si, WEXITED);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	run->reaped = 1;

	struct hl_shm_result res;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(&res, run->res, sizeof(res));
	memset(results, 0, sizeof(int64_t) * results_len);
	results[HL_R_HOW] = si.si_code == CLD_EXITED ? 1 : si.si_code == CLD_DUMPED ? 3 : 2;
	results[HL_R_CODE] = si.si_status;
	results[HL_R_CPU] = res.cpu_granted;
	results[HL_R_PHASE] = res.phase;
	results[HL_R_PROG] = res.prog_index;
	results[HL_R_SETUP_ERRNO] = res.setup_errno;
	results[HL_R_LAST_RET] = res.last_ret;
	results[HL_R_LAST_ERRNO] = res.last_errno;
	results[HL_R_BATCH_NS] = (int64_t)res.batch_ns;
	results[HL_R_DONE] = (int64_t)res.done;
	if (results_len > HL_R_LANDLOCK_STEP) {
		results[HL_R_LANDLOCK_ABI] = res.landlock_abi;
		results[HL_R_LANDLOCK_STEP] = res.landlock_step;
	}
	uint64_t n = res.done;
	if (n > (uint64_t)samples_len)
		n = (uint64_t)samples_len;
	if (run->h->mode == HL_MODE_BATCH)
		n = 0;
	if (n)
		memcpy(samples, run->samples, n * sizeof(uint64_t));
	return 0;
}

int32_t hl_run_kill(int64_t handle)
{
	struct hl_run *run = (struct hl_run *)(intptr_t)handle;
	if (run->reaped)
		return -ESRCH;
	if (syscall(SYS_pidfd_send_signal, run->pidfd, SIGKILL, NULL, 0) != 0)
		return -errno;
	return 0;
}

int32_t hl_run_phase(int64_t handle)
{
	return (int32_t)__atomic_load_n(&((struct hl_run *)(intptr_t)handle)->res->phase, __ATOMIC_ACQUIRE);
}

int32_t hl_run_alive(int64_t handle)
{
	struct hl_run *run = (struct hl_run *)(intptr_t)handle;
	struct pollfd p = { .fd = run->pidfd, .events = POLLIN };
	if (run->reaped)
		return 0;
	int n = poll(&p, 1, 0);
	return n < 0 ? -errno : n == 0;
}

int32_t hl_run_pid(int64_t handle)
{
	return ((struct hl_run *)(intptr_t)handle)->pid;
}

void hl_run_free(int64_t handle)
{
	struct hl_run *run = (struct hl_run *)(intptr_t)handle;
	if (run == NULL)
		return;
	if (!run->reaped) {
		syscall(SYS_pidfd_send_signal, run->pidfd, SIGKILL, NULL, 0);
		siginfo_t si;
		while (waitid(P_PIDFD, run->pidfd, &si, WEXITED) < 0 && errno == EINTR)
			;
	}
	/* The runner is reaped, so its pipe ends are closed: a partner still reading sees EOF and ends. */
	if (run->partner_started)
		pthread_join(run->partner, NULL);
	if (run->ping_r >= 0)
		close(run->ping_r);
	if (run->pong_w >= 0)
		close(run->pong_w);
	close(run->pidfd);
	close(run->sock);
	munmap(run->map, run->size);
	free(run);
}

/* ---- the ping-pong partner (HL_CALL_PINGPONG) ---- */

/*
 * Reads the runner's byte and writes one back, until the runner's end closes. Blocking reads and
 * writes only: the least a thread can do to answer another across a wake-up, the reference the
 * supervisors' round trip is compared with.
 */
static void *partner(void *arg)
{
	struct hl_run *run = arg;
	char byte;
	pthread_setname_np(pthread_self(), "hl-pong"); /* named, so a leak shows in /proc/self/task */
	for (;;) {
		ssize_t n = read(run->ping_r, &byte, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1)
			break;
		ssize_t w;
		do
			w = write(run->pong_w, &byte, 1);
		while (w < 0 && errno == EINTR);
		if (w != 1)
			break;
	}
	return NULL;
}

/* A cpu_set_t of cpu (>= 0) or, with cpu == -1, of the bits of set; 0, or -EINVAL for an empty one. */
static int cpus_of(int32_t cpu, int64_t set, cpu_set_t *out)
{
	CPU_ZERO(out);
	if (cpu >= 0) {
		if (cpu >= CPU_SETSIZE)
			return -EINVAL;
		CPU_SET(cpu, out);
		return 0;
	}
	if (cpu != -1 || set == 0)
		return -EINVAL;
	for (int c = 0; c < 64; c++)
		if ((uint64_t)set & (1ull << c))
			CPU_SET(c, out);
	return 0;
}

int32_t hl_pong_start(int64_t handle, int32_t cpu, int64_t cpu_set)
{
	struct hl_run *run = (struct hl_run *)(intptr_t)handle;
	if (run->ping_r < 0 || run->partner_started)
		return -EINVAL;
	pthread_attr_t a;
	pthread_attr_init(&a);
	if (cpu != -1 || cpu_set != 0) {
		cpu_set_t set;
		int e = cpus_of(cpu, cpu_set, &set);
		if (e) {
			pthread_attr_destroy(&a);
			return e;
		}
		pthread_attr_setaffinity_np(&a, sizeof(set), &set);
	}
	sigset_t all, old;
	/* The JVM's signal handlers must never run on a thread it does not know. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int e = pthread_create(&run->partner, &a, partner, run);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
	if (e)
		return -e;
	run->partner_started = 1;
	return 0;
}

/* ---- small helpers the Java side needs without a libc binding of its own ---- */

int32_t hl_close(int32_t fd)
{
	return close(fd) == 0 ? 0 : -errno;
}

int32_t hl_fd_flags(int32_t fd)
{
	int r = fcntl(fd, F_GETFD);
	return r < 0 ? -errno : r;
}

int32_t hl_pin_self(int32_t cpu)
{
	cpu_set_t set;
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	return sched_getcpu();
}

int32_t hl_pin_self_set(int64_t cpu_set)
{
	cpu_set_t set;
	int e = cpus_of(-1, cpu_set, &set);
	if (e)
		return e;
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	return sched_getcpu();
}

int32_t hl_current_cpu(void)
{
	int c = sched_getcpu();
	return c < 0 ? -errno : c;
}

int32_t hl_allowed_cpus(int64_t *mask, int32_t words)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	memset(mask, 0, sizeof(int64_t) * words);
	for (int c = 0; c < CPU_SETSIZE && c / 64 < words; c++)
		if (CPU_ISSET(c, &set))
			mask[c / 64] |= (int64_t)1 << (c % 64);
	return CPU_COUNT(&set);
}
