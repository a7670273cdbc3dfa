/*
 * The kernel's notify loop (issue 32): the least a supervisor of seccomp user notifications can do,
 * as the kernel's own benchmark of the mechanism (`perf bench sched seccomp-notify`, Linux 6.6)
 * describes it: receive a notification, answer it, again; no policy, no lookup, no counter. Written
 * here from that description. It answers CONTINUE (the call then runs in the caller), as floor-cost's
 * CONTINUE rows are answered, so a brokered round trip can be set against it in the same run and
 * placement.
 *
 * One thread per loop, started on the listener (a duplicate the loop owns and closes), pinned to a CPU
 * or free on a set, with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on the listener when asked. It blocks in
 * SECCOMP_IOCTL_NOTIF_RECV (as the native supervisor's fixed answers do); hl_kloop_stop interrupts
 * that wait with the native supervisor's stop signal (hl_sup_thread_prepare, hl_sup_thread_signal),
 * whose handler does nothing and has no SA_RESTART.
 *
 * Besides the two ioctls, each iteration compares its index with two numbers: when the loop is about
 * to receive the first timed call (index `warmup`) and when it has answered the last one (index
 * warmup + count - 1) it reads CLOCK_MONOTONIC. That is the kernel benchmark's figure: the whole
 * loop's time over its iterations, on the supervisor's clock, beside the child's own per-call times.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1UL
#endif

/* The native supervisor's stop signal (broker/supervisor.c): one handler for the process. */
int hl_sup_thread_prepare(void);
int hl_sup_thread_signal(int tid);

/* Slots of hl_kloop_stop's out array. */
enum {
	HL_KLOOP_ITERATIONS = 0, /* notifications answered */
	HL_KLOOP_TIMED_NS = 1, /* supervisor's clock from the first timed receive to the last timed answer, or -1 */
	HL_KLOOP_TIMED = 2, /* iterations that span covers (count), or 0 when the loop did not reach its end */
	HL_KLOOP_ERRNO = 3, /* the errno that ended the loop early (0: stopped) */
	HL_KLOOP_CPU = 4, /* the CPU it was pinned to, -1 on a set, or -errno of the pinning */
	HL_KLOOP_NOUT = 5
};

struct hl_kloop {
	int listener;
	int cpu;
	long cpu_set;
	long warmup;
	long count;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started;
	int tid;
	atomic_int stopping;
	atomic_int ended; /* the loop has left: no signal to send (its tid may be another thread's by now) */
	/* Written by the loop thread, read after it is joined. */
	long iterations;
	int64_t t0;
	int64_t t1;
	int err;
	long pinned;
};

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long pin(const struct hl_kloop *k)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (k->cpu >= 0) {
		CPU_SET(k->cpu, &set);
	} else if (k->cpu_set != 0) {
		for (int c = 0; c < 64; c++) {
			if ((unsigned long)k->cpu_set & (1ul << c)) {
				CPU_SET(c, &set);
			}
		}
	} else {
		return -1;
	}
	int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	return e ? -e : (k->cpu >= 0 ? k->cpu : -1);
}

static void *loop(void *arg)
{
	struct hl_kloop *k = arg;
	pthread_setname_np(pthread_self(), "hl-kloop");
	int tid = hl_sup_thread_prepare(); /* unblocks the stop signal on this thread only */
	long pinned = pin(k);
	pthread_mutex_lock(&k->lock);
	k->tid = tid;
	k->pinned = tid < 0 ? tid : pinned;
	k->started = 1;
	pthread_cond_signal(&k->cond);
	pthread_mutex_unlock(&k->lock);
	if (tid < 0 || pinned < -1) {
		atomic_store(&k->ended, 1);
		return NULL;
	}
	const long first = k->warmup;
	const long last = k->warmup + k->count - 1;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	long i = 0;
	while (!atomic_load_explicit(&k->stopping, memory_order_relaxed)) {
		memset(&req, 0, sizeof req); /* the kernel refuses a receive into a buffer that is not zeroed */
		if (i == first) {
			k->t0 = now_ns();
		}
		if (ioctl(k->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) {
			if (errno == EINTR || errno == ENOENT) {
				continue; /* the stop signal, or a caller gone before we took its call */
			}
			k->err = errno;
			break;
		}
		resp.id = req.id;
		resp.val = 0;
		resp.error = 0;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		int r;
		do {
			r = ioctl(k->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* EINTR answered nothing: again */
		} while (r != 0 && errno == EINTR);
		if (r != 0 && errno != ENOENT) { /* ENOENT: the caller died meanwhile */
			k->err = errno;
			break;
		}
		if (i == last) {
			k->t1 = now_ns();
		}
		i++;
	}
	k->iterations = i;
	atomic_store(&k->ended, 1);
	return NULL;
}

/*
 * Starts the loop on `listener`, which it then owns (hl_kloop_stop closes it; after a failed start it
 * stays the caller's). cpu >= 0 pins it, else cpu_set (bit c = CPU c) when non-zero; sync
 * sets SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP. warmup and count: the calls the child makes before timing
 * and the timed ones. Returns a handle (> 0) or -errno (EINVAL before Linux 6.6 for sync).
 */
long hl_kloop_start(int listener, int cpu, long cpu_set, int sync, long warmup, long count)
{
	if (listener < 0 || warmup < 0 || count <= 0 || cpu < -1) {
		return -EINVAL;
	}
	if (sync && ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) != 0) {
		return -errno;
	}
	struct hl_kloop *k = calloc(1, sizeof *k);
	if (!k) {
		return -ENOMEM;
	}
	k->listener = listener;
	k->cpu = cpu;
	k->cpu_set = cpu_set;
	k->warmup = warmup;
	k->count = count;
	k->t0 = -1;
	k->t1 = -1;
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->cond, NULL);
	/* Every signal blocked on the new thread (no handler of the JVM's runs there); the loop unblocks
	 * the stop signal alone. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&k->thread, NULL, loop, k);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		free(k);
		return -e;
	}
	pthread_mutex_lock(&k->lock);
	while (!k->started) {
		pthread_cond_wait(&k->cond, &k->lock);
	}
	pthread_mutex_unlock(&k->lock);
	if (k->pinned < -1) {
		long r = k->pinned;
		pthread_join(k->thread, NULL);
		free(k);
		return r;
	}
	return (long)(intptr_t)k;
}

/*
 * Stops the loop (signalling its wait until it ends), closes the listener, fills out[HL_KLOOP_NOUT]
 * and frees the loop. 0, or -EINVAL for a bad out length.
 */
int hl_kloop_stop(long handle, int64_t *out, int n)
{
	struct hl_kloop *k = (struct hl_kloop *)(intptr_t)handle;
	if (!k || n < HL_KLOOP_NOUT) {
		return -EINVAL;
	}
	atomic_store(&k->stopping, 1);
	for (;;) {
		/* A signal landing just before the loop enters its receive interrupts nothing: send again. */
		if (!atomic_load(&k->ended)) {
			hl_sup_thread_signal(k->tid);
		}
		struct timespec deadline;
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += 10 * 1000 * 1000;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		if (pthread_timedjoin_np(k->thread, NULL, &deadline) == 0) {
			break;
		}
	}
	close(k->listener);
	int complete = k->t0 >= 0 && k->t1 >= 0;
	out[HL_KLOOP_ITERATIONS] = k->iterations;
	out[HL_KLOOP_TIMED_NS] = complete ? k->t1 - k->t0 : -1;
	out[HL_KLOOP_TIMED] = complete ? k->count : 0;
	out[HL_KLOOP_ERRNO] = k->err;
	out[HL_KLOOP_CPU] = k->pinned;
	pthread_mutex_destroy(&k->lock);
	pthread_cond_destroy(&k->cond);
	free(k);
	return 0;
}
