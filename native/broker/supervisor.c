/*
 * The native supervisor: one pthread per listener, pinned to its own CPU (or to a set of CPUs), answering every
 * notification with one fixed answer: the least a supervisor can do per call.
 *
 * How it waits. With a fixed answer (CONTINUE, ERROR, VALUE) it blocks in SECCOMP_IOCTL_NOTIF_RECV
 * itself: the caller's wake-up goes straight to the waiting thread, and a round trip costs two
 * system calls of ours (RECV, SEND) instead of three (poll, RECV, SEND) plus poll's wait-queue set-up
 * on two descriptors. No descriptor can end that wait, so hl_sup_stop interrupts it with a signal
 * (hl_sup_stop_signal(), a no-op handler without SA_RESTART, unblocked in this thread only); every
 * step of a fixed answer is safe to interrupt: RECV and SEND give EINTR before taking or answering
 * anything, and are retried. The BROKER answer keeps poll() + RECV with the stop eventfd and no
 * signal: an ADDFD with SECCOMP_ADDFD_FLAG_SEND interrupted before the caller took the descriptor
 * leaves the call answered with 0 (the kernel marked it replied), and an interrupted ID_VALID would
 * read as a dead caller. HL_SUP_POLL_WAIT asks for poll() + RECV with every answer (the earlier
 * loop, kept to measure one against the other).
 *
 * A read that takes long. The BROKER answer reads the caller's memory (hl_read_path, through
 * /proc/PID/mem: a userfaultfd page answers EFAULT at once), and that read waits for the caller's
 * memory-map lock: the caller's own fork, mprotect or munmap holds it for writing for tens of
 * milliseconds with a big heap (a 1 GiB fork, 36-51 ms on an idle host, hundreds on a loaded one), a
 * page backed by FUSE or a hung disk for ever. Neither may kill the caller nor hold the other calls.
 * A watchdog thread (BROKER only; fixed answers read nothing) looks every HL_WATCH_PERIOD_MS at the
 * serving loop's hl_watch: a read whose thread has been blocked HL_READ_DEADLINE_NS (hl_watch_check: time
 * preempted or waiting for a CPU does not count) is HANDED OFF: that thread keeps its notification (the
 * call still waits, its caller untouched), answers it itself when the read ends, normally, and then
 * frees itself; a new loop thread takes over the listener at once, so every other call keeps being
 * served. A handed-off read that has lasted give_up_ns (hl_sup_set_give_up, default HL_GIVE_UP_NS: seconds,
 * far beyond any lock hold) is GIVEN UP: the watchdog answers its call with EIO (the thread, when its
 * read ends, finds its watch abandoned and touches nothing). Nobody is ever killed. At most HL_MAX_PARKED
 * handed-off threads at once (a resource bound: past it the other calls wait for one to end, as they
 * would for the lock); at most HL_MAX_STUCK given-up threads still blocked: one more and the supervisor fails
 * closed (the listener is closed, every call of the filter then fails with ENOSYS). A benign program's
 * reads end when its lock is released, long before the give-up, so it never counts there. A thread
 * whose page never arrives (a FUSE server that never answers) cannot be freed by anything we can do:
 * it stays blocked in the kernel, costing its stack, until the server dies.
 *
 * hl_sup_stop returns within HL_STOP_DEADLINE_NS in every case: a loop it cannot join by then is
 * abandoned the same way, and the listener's descriptor number is then pointed at /dev/null
 * (dup2) rather than closed, so that the listener itself closes (waiting calls fail with ENOSYS) while
 * no stuck thread can ever act on a reused descriptor number.
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
#include <time.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>

struct hl_sup;

/* One loop thread: the serving one, or one handed off in a read (which then frees itself). */
struct loop_thread {
	struct hl_sup *s;
	struct hl_watch watch;
	pthread_t thread;
	/* 0: the serving loop; else when the watchdog handed it off (CLOCK_MONOTONIC ns), under s->plock. */
	_Atomic long long parked;
	int given_up; /* its call answered by the watchdog's give-up (counted in s->stuck); under s->plock */
};

struct hl_sup {
	int listener;
	int stopfd;
	int resumefd;
	int in_dirfd;
	int cpu;
	long cpu_set;
	int answer;
	long value;
	int rules; /* the broker's opt-ins (HL_RULE_*), from the start flags */
	int blocking; /* waits in RECV, stopped by the stop signal (see the top of this file) */
	atomic_int stopping;
	struct loop_thread *live; /* the serving loop (NULL once failed closed); replaced by the watchdog */
	pthread_t watchdog;
	int has_watchdog;
	atomic_int refs; /* the owner's, and one per detached loop thread not ended yet */
	atomic_int abandoned; /* detached loop threads (handed off, or given up by stop) not ended yet */
	_Atomic long give_up_ns;
	/* The handed-off threads, and how many of them were given up; guarded by plock. */
	pthread_mutex_t plock;
	struct loop_thread *parked[HL_MAX_PARKED];
	int nparked;
	int stuck;
	long long check[3]; /* the watchdog's hl_watch_check state */
	int joined;
	atomic_int hold_next;
	_Atomic long counters[HL_NCOUNTERS];
	/* Counts by threads other than the serving loop (handed-off ones, the watchdog): atomic adds, so
	 * that the serving loop's own counts stay plain stores (hl_sup_stats adds the two). */
	_Atomic long late[HL_NCOUNTERS];
	/* start handshake: the thread reports whether it could pin itself */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started;
};

static void bump(struct hl_sup *s, int c)
{
	/* One writer (the loop); relaxed is enough for readers that only want a recent figure. */
	atomic_store_explicit(&s->counters[c], atomic_load_explicit(&s->counters[c], memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* A count by a thread other than the serving loop. */
static void bump_late(struct hl_sup *s, int c)
{
	atomic_fetch_add_explicit(&s->late[c], 1, memory_order_relaxed);
}

static void add(struct hl_sup *s, int c, int late)
{
	if (late) {
		bump_late(s, c);
	} else {
		bump(s, c);
	}
}

static void fail_as(struct hl_sup *s, int err, int late)
{
	add(s, HL_C_FAILURES, late);
	atomic_store(&s->counters[HL_C_LAST_ERRNO], err);
}

static void fail(struct hl_sup *s, int err)
{
	fail_as(s, err, 0);
}

/* Counts one hl_broker_answer result (late: by a handed-off thread). */
static void count_broker(struct hl_sup *s, int r, int late)
{
	if (r == HL_BROKER_CONTINUED) {
		add(s, HL_C_CONTINUED, late);
	} else if (r >= 0) {
		add(s, HL_C_BROKERED, late);
	} else if (r == HL_BROKER_GONE) {
		add(s, HL_C_GONE, late);
	} else if (r <= HL_BROKER_FAILED) {
		fail_as(s, HL_BROKER_FAILED - r, late);
	} else if (r <= HL_BROKER_REFUSED) {
		add(s, HL_C_REFUSED, late);
		add(s, HL_C_ERRORED, late);
	} else {
		add(s, HL_C_ERRORED, late);
	}
}

static void count_send(struct hl_sup *s, int r, int ok_counter)
{
	if (r == 0) {
		bump(s, ok_counter);
	} else if (r == -ENOENT) {
		bump(s, HL_C_GONE);
	} else {
		fail(s, -r);
	}
}

static void hold(struct hl_sup *s)
{
	bump(s, HL_C_HELD);
	struct pollfd p[2] = { { .fd = s->resumefd, .events = POLLIN }, { .fd = s->stopfd, .events = POLLIN } };
	while (poll(p, 2, -1) < 0 && errno == EINTR) {
	}
	uint64_t v;
	if (p[0].revents & POLLIN) {
		(void)!read(s->resumefd, &v, sizeof v);
	}
}

/* ---- the stop signal ---- */

static pthread_once_t stop_signal_once = PTHREAD_ONCE_INIT;
static int stop_signal_errno;

static void on_stop_signal(int sig)
{
	/* Nothing to do: its delivery makes a waiting RECV return EINTR, and the loop reads s->stopping. */
	(void)sig;
}

int hl_sup_stop_signal(void)
{
	return SIGRTMIN + 2;
}

/* Installs the no-op handler once. A handler someone else installed is left alone: the blocking
 * wait is then refused (EBUSY) rather than running foreign code on our thread. */
static void install_stop_signal(void)
{
	struct sigaction old;
	if (sigaction(hl_sup_stop_signal(), NULL, &old) != 0) {
		stop_signal_errno = errno;
		return;
	}
	if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == on_stop_signal) {
		return;
	}
	if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) {
		stop_signal_errno = EBUSY;
		return;
	}
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = 0 }; /* no SA_RESTART: RECV must return */
	sigfillset(&sa.sa_mask);
	if (sigaction(hl_sup_stop_signal(), &sa, NULL) != 0) {
		stop_signal_errno = errno;
	}
}

int hl_sup_thread_prepare(void)
{
	pthread_once(&stop_signal_once, install_stop_signal);
	if (stop_signal_errno != 0) {
		return -stop_signal_errno;
	}
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, hl_sup_stop_signal());
	int e = pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
	return e ? -e : (int)syscall(SYS_gettid);
}

int hl_sup_thread_signal(int tid)
{
	return syscall(SYS_tgkill, getpid(), tid, hl_sup_stop_signal()) == 0 ? 0 : -errno;
}

static void release(struct hl_sup *s);

/* Drops one reference; the last frees the supervisor. */
static void unref(struct hl_sup *s)
{
	if (atomic_fetch_sub(&s->refs, 1) == 1) {
		release(s);
	}
}

/* The loop's way out. The serving loop, left on its own: its owner (stop) joins it and frees it.
 * Handed off, or abandoned (its watch says so): nobody waits for it, so it leaves the parked list,
 * frees itself and drops its reference. Under plock: the watchdog hands off only a thread it sees
 * reading under that lock, and a leaving thread reads nothing. */
static void leave(struct loop_thread *lt)
{
	struct hl_sup *s = lt->s;
	pthread_mutex_lock(&s->plock);
	int given_up = hl_watch_leave((long)(intptr_t)&lt->watch);
	int parked = atomic_load(&lt->parked) != 0;
	if (parked) {
		for (int i = 0; i < s->nparked; i++) {
			if (s->parked[i] == lt) {
				s->parked[i] = s->parked[--s->nparked];
				break;
			}
		}
		if (lt->given_up) {
			s->stuck--;
		}
	}
	pthread_mutex_unlock(&s->plock);
	if (!given_up && !parked) {
		return;
	}
	free(lt);
	atomic_fetch_sub(&s->abandoned, 1);
	unref(s);
}

static int abandoned(struct loop_thread *lt)
{
	return atomic_load_explicit(&lt->watch.started, memory_order_relaxed) == HL_WATCH_ABANDONED;
}

static int handed_off(struct loop_thread *lt)
{
	return atomic_load_explicit(&lt->parked, memory_order_relaxed) != 0;
}

/* Pins the calling thread as asked; the CPU for HL_C_CPU, -1, or -errno. */
static long pin(struct hl_sup *s)
{
	if (s->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(s->cpu, &set);
		int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
		return e ? -e : s->cpu;
	}
	if (s->cpu_set != 0) {
		/* A set: free to migrate among its CPUs (where a synchronous wake-up can pull the thread). */
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int c = 0; c < 64; c++) {
			if ((unsigned long)s->cpu_set & (1ul << c)) {
				CPU_SET(c, &set);
			}
		}
		int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
		return e ? -e : -1;
	}
	return -1;
}

static void *loop(void *arg)
{
	struct loop_thread *lt = arg;
	struct hl_sup *s = lt->s;
	pthread_setname_np(pthread_self(), "hl-sup"); /* named, so a leaked loop shows in /proc/self/task */
	if (s->blocking) {
		/* The thread starts with every signal blocked (hl_sup_start_set); it takes the stop signal only. */
		sigset_t stop;
		sigemptyset(&stop);
		sigaddset(&stop, hl_sup_stop_signal());
		pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
	}
	long cpu_result = pin(s);
	hl_watch_attach((long)(intptr_t)&lt->watch);
	pthread_mutex_lock(&s->lock);
	if (!s->started) {
		/* The first loop reports its pinning to hl_sup_start; a replacement pins the same way. */
		atomic_store(&s->counters[HL_C_CPU], cpu_result);
		s->started = 1;
		pthread_cond_signal(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	if (cpu_result < -1) {
		leave(lt);
		return NULL;
	}

	int64_t n[HL_N_LONGS];
	n[HL_N_RULES] = s->rules; /* RECV leaves this slot alone */
	/* The supervisor's own copy of each brokered path: read once, decided on and opened from here. */
	char path[PATH_MAX];
	for (;;) {
		int r;
		if (s->blocking) {
			if (atomic_load_explicit(&s->stopping, memory_order_acquire)) {
				break;
			}
			r = hl_notif_recv_wait(s->listener, (long)(intptr_t)n);
		} else {
			r = hl_notif_recv(s->listener, s->stopfd, (long)(intptr_t)n);
		}
		if (r == HL_RECV_STOPPED) {
			break;
		}
		if (r == HL_RECV_HUNGUP) {
			atomic_store(&s->counters[HL_C_ENDED], 1);
			break;
		}
		if (r == -EINTR) {
			continue;
		}
		if (r == -ENOENT) {
			add(s, HL_C_GONE, handed_off(lt));
			continue;
		}
		if (r < 0) {
			/* The listener itself is unusable: retrying would spin. */
			fail(s, -r);
			atomic_store(&s->counters[HL_C_ENDED], 1);
			break;
		}
		add(s, HL_C_RECEIVED, handed_off(lt));
		/* A plain load first: the test hook must cost the measured loop nothing. */
		if (atomic_load_explicit(&s->hold_next, memory_order_relaxed) && atomic_exchange(&s->hold_next, 0)) {
			hold(s);
		}
		switch (s->answer) {
		case HL_ANSWER_CONTINUE:
			count_send(s, hl_notif_continue(s->listener, n[HL_N_ID]), HL_C_CONTINUED);
			break;
		case HL_ANSWER_ERROR:
			count_send(s, hl_notif_error(s->listener, n[HL_N_ID], (int)s->value), HL_C_ERRORED);
			break;
		case HL_ANSWER_VALUE:
			count_send(s, hl_notif_value(s->listener, n[HL_N_ID], s->value), HL_C_VALUED);
			break;
		default:
			atomic_store_explicit(&lt->watch.id, n[HL_N_ID], memory_order_relaxed);
			r = hl_broker_answer(s->listener, (long)(intptr_t)n, (long)(intptr_t)path, s->in_dirfd);
			if (abandoned(lt)) {
				/* Given up: its call was answered by the watchdog (or the listener closed by stop). */
				leave(lt);
				return NULL;
			}
			if (handed_off(lt)) {
				/* It answered its own call; another loop serves the listener now and owns the counters. */
				count_broker(s, r, 1);
				leave(lt);
				return NULL;
			}
			count_broker(s, r, 0);
			break;
		}
	}
	leave(lt);
	return NULL;
}

/* Starts a loop thread on lt with every signal blocked: no handler of the embedding process (a
 * JVM's) ever runs on it; a blocking loop unblocks the stop signal alone. 0 or an errno. */
static int spawn(struct loop_thread *lt, void *(*body)(void *))
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int e = pthread_create(&lt->thread, NULL, body, lt);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return e;
}

/* Fails closed: the listener's number now names /dev/null, the listener itself is closed (every
 * waiting and later call of the filter fails with ENOSYS), and no thread still holding the number can
 * act on whatever else would reuse it. Closed for good in release(). */
static void retire_listener(struct hl_sup *s)
{
	if (s->listener < 0 || hl_retire_fd(s->listener) == 0) {
		return;
	}
	/* No /dev/null to point at: close it, the lesser risk than a listener left open. */
	close(s->listener);
	s->listener = -1;
}

/* stop gives up on loop lt now: it is detached and frees itself when it ends (its call, if any, is
 * answered ENOSYS when the listener closes). 1 when abandoned, 0 when it had left already (join it). */
static int give_up(struct hl_sup *s, struct loop_thread *lt)
{
	pthread_t t = lt->thread;
	/* Counted before the thread can see it is abandoned and drop the reference. */
	atomic_fetch_add(&s->refs, 1);
	atomic_fetch_add(&s->abandoned, 1);
	long pid;
	/* 0: its watch moved between look and swap (a read began or ended); look again. */
	while ((pid = hl_watch_abandon((long)(intptr_t)&lt->watch, 0)) == 0) {
	}
	if (pid == -EALREADY) {
		/* It has left its loop (stop abandons only the serving loop, which nobody else abandons). */
		atomic_fetch_sub(&s->abandoned, 1);
		atomic_fetch_sub(&s->refs, 1);
		return 0;
	}
	bump_late(s, HL_C_STALLED);
	pthread_detach(t);
	return 1;
}

/* Hands the serving loop lt off if its read has been blocked HL_READ_DEADLINE_NS: it keeps its call and
 * answers it itself; 1 when handed off (detached, in the parked list: start another loop), else 0. */
static int hand_off(struct hl_sup *s, struct loop_thread *lt)
{
	if (hl_watch_check((long)(intptr_t)&lt->watch, HL_READ_DEADLINE_NS, (long)(intptr_t)s->check) <= 0) {
		return 0;
	}
	int done = 0;
	pthread_mutex_lock(&s->plock);
	/* Still in a read (a thread that left reads nothing), and room for it. */
	if (s->nparked < HL_MAX_PARKED && atomic_load(&lt->watch.started) > 0) {
		atomic_fetch_add(&s->refs, 1);
		atomic_fetch_add(&s->abandoned, 1);
		long long now = hl_monotonic_ns();
		atomic_store(&lt->parked, now > 0 ? now : 1);
		s->parked[s->nparked++] = lt;
		done = 1;
	}
	pthread_mutex_unlock(&s->plock);
	if (done) {
		bump_late(s, HL_C_STALLED);
		pthread_detach(lt->thread);
	}
	return done;
}

/* Gives up the handed-off reads that have lasted give_up_ns: each call is answered EIO here (the thread
 * touches nothing of it any more). The number of given-up threads still out. */
static int give_up_parked(struct hl_sup *s)
{
	long long ids[HL_MAX_PARKED];
	int n = 0;
	long give_up_ns = atomic_load(&s->give_up_ns);
	pthread_mutex_lock(&s->plock);
	for (int i = 0; i < s->nparked; i++) {
		struct loop_thread *lt = s->parked[i];
		if (!lt->given_up && hl_watch_abandon((long)(intptr_t)&lt->watch, give_up_ns) > 0) {
			lt->given_up = 1;
			s->stuck++;
			ids[n++] = atomic_load(&lt->watch.id);
		}
	}
	int stuck = s->stuck;
	pthread_mutex_unlock(&s->plock);
	for (int i = 0; i < n; i++) {
		int r = hl_notif_error(s->listener, (long)ids[i], EIO);
		if (r == 0) {
			bump_late(s, HL_C_ERRORED);
			bump_late(s, HL_C_TIMED_OUT);
		} else if (r == -ENOENT) {
			bump_late(s, HL_C_GONE);
		} else {
			fail_as(s, -r, 1);
		}
	}
	return stuck;
}

/* Stops serving for good: the listener closed (every call fails with ENOSYS), the loop gone. */
static void fail_closed(struct hl_sup *s)
{
	retire_listener(s);
	atomic_store(&s->counters[HL_C_ENDED], 1);
}

/* How long the watchdog may sleep: a short step while a read runs (its blocked time is measured
 * from the watchdog's first sight of it) or a handed-off thread is out, else one period. */
static int watch_timeout_ms(struct hl_sup *s)
{
	struct loop_thread *lt = s->live;
	long long started = lt == NULL ? 0 : atomic_load(&lt->watch.started);
	return started > 0 || atomic_load(&s->abandoned) > 0 ? HL_WATCH_STEP_MS : HL_WATCH_PERIOD_MS;
}

static void *watchdog(void *arg)
{
	struct hl_sup *s = arg;
	pthread_setname_np(pthread_self(), "hl-sup-watch");
	struct pollfd p = { .fd = s->stopfd, .events = POLLIN };
	for (;;) {
		if (poll(&p, 1, watch_timeout_ms(s)) < 0 && errno != EINTR) {
			fail(s, errno);
			break;
		}
		if (atomic_load_explicit(&s->stopping, memory_order_acquire)) {
			break;
		}
		if (give_up_parked(s) > HL_MAX_STUCK) {
			/* Fail closed: more reads that never end than threads we are willing to lose. */
			fail_closed(s);
			break;
		}
		struct loop_thread *lt = s->live;
		if (lt == NULL || !hand_off(s, lt)) {
			continue;
		}
		/* The stuck thread keeps its call; a new loop serves every other one. */
		s->live = NULL;
		struct loop_thread *next = calloc(1, sizeof *next);
		int e = next == NULL ? ENOMEM : 0;
		if (next != NULL) {
			next->s = s;
			e = spawn(next, loop);
		}
		if (e != 0) {
			free(next);
			fail(s, e);
			fail_closed(s);
			break;
		}
		s->live = next;
	}
	return NULL;
}

static void release(struct hl_sup *s)
{
	if (s->stopfd >= 0)
		close(s->stopfd);
	if (s->resumefd >= 0)
		close(s->resumefd);
	if (s->in_dirfd >= 0)
		close(s->in_dirfd);
	if (s->listener >= 0)
		close(s->listener);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->plock);
	pthread_cond_destroy(&s->cond);
	free(s->live);
	free(s);
}

long hl_sup_start(int listener, int cpu, int answer, long value, int in_dirfd, int flags)
{
	return hl_sup_start_set(listener, cpu, 0, answer, value, in_dirfd, flags);
}

long hl_sup_start_set(int listener, int cpu, long cpu_set, int answer, long value, int in_dirfd, int flags)
{
	if (cpu_set != 0 && cpu != -1) {
		return -EINVAL;
	}
	if (answer < HL_ANSWER_CONTINUE || answer > HL_ANSWER_VALUE) {
		return -EINVAL;
	}
	if (answer == HL_ANSWER_BROKER && in_dirfd < 0) {
		return -EBADF;
	}
	int rules = (flags >> HL_SUP_RULES_SHIFT) & 0xff;
	if ((rules & ~HL_RULES_ALL) != 0) {
		return -EINVAL;
	}
	int supported = hl_notif_supported();
	if (supported < 0) {
		return supported;
	}
	if (flags & HL_SUP_SYNC_WAKEUP) {
		int r = hl_notif_set_flags(listener, HL_SYNC_WAKE_UP_FLAG);
		if (r < 0) {
			return r;
		}
	}
	struct hl_sup *s = calloc(1, sizeof *s);
	if (s == NULL) {
		return -ENOMEM;
	}
	atomic_init(&s->refs, 1);
	s->listener = -1;
	s->resumefd = -1;
	s->in_dirfd = -1;
	s->stopfd = eventfd(0, EFD_CLOEXEC);
	s->resumefd = eventfd(0, EFD_CLOEXEC);
	if (in_dirfd >= 0) {
		s->in_dirfd = fcntl(in_dirfd, F_DUPFD_CLOEXEC, 0);
	}
	atomic_init(&s->give_up_ns, HL_GIVE_UP_NS);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->plock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->live = calloc(1, sizeof *s->live);
	if (s->stopfd < 0 || s->resumefd < 0 || (in_dirfd >= 0 && s->in_dirfd < 0) || s->live == NULL) {
		int e = s->live == NULL ? ENOMEM : errno;
		release(s);
		return -e;
	}
	s->live->s = s;
	/* Fixed answers wait in RECV itself, unless asked not to; BROKER never does (see the top). */
	s->blocking = answer != HL_ANSWER_BROKER && !(flags & HL_SUP_POLL_WAIT);
	if (s->blocking) {
		pthread_once(&stop_signal_once, install_stop_signal);
		if (stop_signal_errno != 0) {
			s->listener = -1;
			release(s);
			return -stop_signal_errno;
		}
	}
	s->cpu = cpu;
	s->cpu_set = cpu_set;
	s->answer = answer;
	s->value = value;
	s->rules = rules;
	s->listener = listener;
	int e = spawn(s->live, loop);
	if (e != 0) {
		s->listener = -1; /* on failure the listener stays the caller's */
		release(s);
		return -e;
	}
	pthread_mutex_lock(&s->lock);
	while (!s->started) {
		pthread_cond_wait(&s->cond, &s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	long cpu_result = atomic_load(&s->counters[HL_C_CPU]);
	if (cpu_result < -1) {
		pthread_join(s->live->thread, NULL);
		s->listener = -1;
		release(s);
		return cpu_result;
	}
	if (answer == HL_ANSWER_BROKER) {
		/* Only the broker answer reads the caller's memory: only it needs a watchdog. */
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		e = pthread_create(&s->watchdog, NULL, watchdog, s);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (e != 0) {
			/* Undo the start without touching the listener, which stays the caller's. */
			uint64_t one = 1;
			atomic_store(&s->stopping, 1);
			(void)!write(s->stopfd, &one, sizeof one);
			pthread_join(s->live->thread, NULL);
			s->listener = -1;
			release(s);
			return -e;
		}
		s->has_watchdog = 1;
	}
	return (long)(intptr_t)s;
}

/* CLOCK_REALTIME now + ns, for pthread_timedjoin_np. */
static struct timespec realtime_after(long ns)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += ns / 1000000000L;
	t.tv_nsec += ns % 1000000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Joins t by the deadline; 1 joined, 0 not. A blocking loop gets the stop signal every 10 ms: one that
 * lands just before the loop enters RECV interrupts nothing. */
static int join_by(pthread_t t, const struct timespec *deadline, int signal)
{
	for (;;) {
		struct timespec step = realtime_after(10L * 1000 * 1000);
		if (!before(&step, deadline)) {
			step = *deadline;
		}
		if (signal && pthread_kill(t, hl_sup_stop_signal()) != 0) {
			signal = 0;
		}
		int e = pthread_timedjoin_np(t, NULL, &step);
		if (e == 0) {
			return 1;
		}
		if (e != ETIMEDOUT || !before(&step, deadline)) {
			return 0;
		}
	}
}

int hl_sup_stop(long handle)
{
	struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
	if (s == NULL) {
		return -EINVAL;
	}
	if (!s->joined) {
		uint64_t one = 1;
		atomic_store_explicit(&s->stopping, 1, memory_order_release);
		(void)!write(s->stopfd, &one, sizeof one);
		struct timespec deadline = realtime_after(HL_STOP_DEADLINE_NS);
		if (s->has_watchdog && !join_by(s->watchdog, &deadline, 0)) {
			/* Never seen: it only waits in poll(). Left to end by itself. */
			pthread_detach(s->watchdog);
			fail(s, ETIMEDOUT);
		}
		s->has_watchdog = 0;
		struct loop_thread *lt = s->live;
		if (lt != NULL && !join_by(lt->thread, &deadline, s->blocking)) {
			/* Stuck (a long read, or a hold): abandoned, left to end by itself; its call, if any, is
			 * answered ENOSYS when the listener closes below. */
			if (give_up(s, lt) == 0) {
				pthread_join(lt->thread, NULL); /* it had just left: nothing left to wait for */
				free(lt);
			}
			lt = NULL;
			s->live = NULL;
		}
		if (lt != NULL) {
			free(lt);
			s->live = NULL;
		}
		s->joined = 1;
		/* Closing the listener answers every call still waiting (and every later one) with ENOSYS. */
		if (atomic_load(&s->abandoned) > 0) {
			retire_listener(s);
		} else if (s->listener >= 0) {
			close(s->listener);
			s->listener = -1;
		}
	}
	return 0;
}

int hl_sup_stats(long handle, long *out, int n)
{
	struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
	for (int i = 0; i < n && i < HL_NCOUNTERS; i++) {
		out[i] = atomic_load_explicit(&s->counters[i], memory_order_relaxed) +
			 atomic_load_explicit(&s->late[i], memory_order_relaxed);
	}
	return HL_NCOUNTERS;
}

int hl_sup_set_give_up(long handle, long ns)
{
	struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
	if (s == NULL || ns <= 0) {
		return -EINVAL;
	}
	atomic_store(&s->give_up_ns, ns);
	return 0;
}

void hl_sup_free(long handle)
{
	struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
	if (s == NULL) {
		return;
	}
	hl_sup_stop(handle);
	unref(s);
}

int hl_sup_hold_next(long handle)
{
	struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
	atomic_store(&s->hold_next, 1);
	return 0;
}

int hl_sup_resume(long handle)
{
	struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
	return hl_eventfd_signal(s->resumefd);
}
