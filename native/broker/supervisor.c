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

struct hl_sup {
    int listener;
    int stopfd;
    int resumefd;
    int in_dirfd;
    int cpu;
    long cpu_set;
    int answer;
    long value;
    int blocking; /* waits in RECV, stopped by the stop signal (see the top of this file) */
    atomic_int stopping;
    pthread_t thread;
    int joined;
    atomic_int hold_next;
    _Atomic long counters[HL_NCOUNTERS];
    /* start handshake: the thread reports whether it could pin itself */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int started;
};

static void bump(struct hl_sup *s, int c) {
    /* One writer (the loop); relaxed is enough for readers that only want a recent figure. */
    atomic_store_explicit(&s->counters[c], atomic_load_explicit(&s->counters[c], memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

static void fail(struct hl_sup *s, int err) {
    bump(s, HL_C_FAILURES);
    atomic_store(&s->counters[HL_C_LAST_ERRNO], err);
}

/* Counts one hl_broker_answer result. */
static void count_broker(struct hl_sup *s, int r) {
    if (r >= 0) {
        bump(s, HL_C_BROKERED);
    } else if (r == HL_BROKER_GONE) {
        bump(s, HL_C_GONE);
    } else if (r <= HL_BROKER_FAILED) {
        fail(s, HL_BROKER_FAILED - r);
    } else if (r <= HL_BROKER_REFUSED) {
        bump(s, HL_C_REFUSED);
        bump(s, HL_C_ERRORED);
    } else {
        bump(s, HL_C_ERRORED);
    }
}

static void count_send(struct hl_sup *s, int r, int ok_counter) {
    if (r == 0) {
        bump(s, ok_counter);
    } else if (r == -ENOENT) {
        bump(s, HL_C_GONE);
    } else {
        fail(s, -r);
    }
}

static void hold(struct hl_sup *s) {
    bump(s, HL_C_HELD);
    struct pollfd p[2] = {{.fd = s->resumefd, .events = POLLIN}, {.fd = s->stopfd, .events = POLLIN}};
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

static void on_stop_signal(int sig) {
    /* Nothing to do: its delivery makes a waiting RECV return EINTR, and the loop reads s->stopping. */
    (void)sig;
}

int hl_sup_stop_signal(void) {
    return SIGRTMIN + 2;
}

/* Installs the no-op handler once. A handler someone else installed is left alone: the blocking
 * wait is then refused (EBUSY) rather than running foreign code on our thread. */
static void install_stop_signal(void) {
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
    struct sigaction sa = {.sa_handler = on_stop_signal, .sa_flags = 0}; /* no SA_RESTART: RECV must return */
    sigfillset(&sa.sa_mask);
    if (sigaction(hl_sup_stop_signal(), &sa, NULL) != 0) {
        stop_signal_errno = errno;
    }
}

static void *loop(void *arg) {
    struct hl_sup *s = arg;
    long cpu_result = -1;
    pthread_setname_np(pthread_self(), "hl-sup"); /* named, so a leaked loop shows in /proc/self/task */
    if (s->blocking) {
        /* The thread starts with every signal blocked (hl_sup_start_set); it takes the stop signal only. */
        sigset_t stop;
        sigemptyset(&stop);
        sigaddset(&stop, hl_sup_stop_signal());
        pthread_sigmask(SIG_UNBLOCK, &stop, NULL);
    }
    if (s->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(s->cpu, &set);
        int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
        cpu_result = e ? -e : s->cpu;
    } else if (s->cpu_set != 0) {
        /* A set: free to migrate among its CPUs (where a synchronous wake-up can pull the thread). */
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int c = 0; c < 64; c++) {
            if ((unsigned long)s->cpu_set & (1ul << c)) {
                CPU_SET(c, &set);
            }
        }
        int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
        cpu_result = e ? -e : -1;
    }
    atomic_store(&s->counters[HL_C_CPU], cpu_result);
    pthread_mutex_lock(&s->lock);
    s->started = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    if (cpu_result < -1) {
        return NULL;
    }

    int64_t n[HL_N_LONGS];
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
            bump(s, HL_C_GONE);
            continue;
        }
        if (r < 0) {
            /* The listener itself is unusable: retrying would spin. */
            fail(s, -r);
            atomic_store(&s->counters[HL_C_ENDED], 1);
            break;
        }
        bump(s, HL_C_RECEIVED);
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
            count_broker(s, hl_broker_answer(s->listener, (long)(intptr_t)n, (long)(intptr_t)path, s->in_dirfd));
            break;
        }
    }
    return NULL;
}

static void release(struct hl_sup *s) {
    if (s->stopfd >= 0) close(s->stopfd);
    if (s->resumefd >= 0) close(s->resumefd);
    if (s->in_dirfd >= 0) close(s->in_dirfd);
    if (s->listener >= 0) close(s->listener);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}

long hl_sup_start(int listener, int cpu, int answer, long value, int in_dirfd, int flags) {
    return hl_sup_start_set(listener, cpu, 0, answer, value, in_dirfd, flags);
}

long hl_sup_start_set(int listener, int cpu, long cpu_set, int answer, long value, int in_dirfd, int flags) {
    if (cpu_set != 0 && cpu != -1) {
        return -EINVAL;
    }
    if (answer < HL_ANSWER_CONTINUE || answer > HL_ANSWER_VALUE) {
        return -EINVAL;
    }
    if (answer == HL_ANSWER_BROKER && in_dirfd < 0) {
        return -EBADF;
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
    s->listener = -1;
    s->resumefd = -1;
    s->in_dirfd = -1;
    s->stopfd = eventfd(0, EFD_CLOEXEC);
    s->resumefd = eventfd(0, EFD_CLOEXEC);
    if (in_dirfd >= 0) {
        s->in_dirfd = fcntl(in_dirfd, F_DUPFD_CLOEXEC, 0);
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    if (s->stopfd < 0 || s->resumefd < 0 || (in_dirfd >= 0 && s->in_dirfd < 0)) {
        int e = errno;
        release(s);
        return -e;
    }
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
    s->listener = listener;
    /* Every signal blocked in the new thread: no handler of the embedding process (a JVM's) ever runs
     * on it; a blocking loop unblocks the stop signal alone. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int e = pthread_create(&s->thread, NULL, loop, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
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
        pthread_join(s->thread, NULL);
        s->listener = -1;
        release(s);
        return cpu_result;
    }
    return (long)(intptr_t)s;
}

int hl_sup_stop(long handle) {
    struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
    if (s == NULL) {
        return -EINVAL;
    }
    if (!s->joined) {
        uint64_t one = 1;
        atomic_store_explicit(&s->stopping, 1, memory_order_release);
        (void)!write(s->stopfd, &one, sizeof one);
        int joined = 0;
        if (s->blocking) {
            /* A signal that lands just before the loop enters RECV interrupts nothing: send it again
             * every 10 ms until the thread has ended. */
            while (!joined && pthread_kill(s->thread, hl_sup_stop_signal()) == 0) {
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_nsec += 10 * 1000 * 1000;
                if (until.tv_nsec >= 1000000000L) {
                    until.tv_sec++;
                    until.tv_nsec -= 1000000000L;
                }
                joined = pthread_timedjoin_np(s->thread, NULL, &until) == 0;
            }
        }
        if (!joined) {
            pthread_join(s->thread, NULL);
        }
        s->joined = 1;
        /* Closing the listener answers every call still waiting (and every later one) with ENOSYS. */
        close(s->listener);
        s->listener = -1;
    }
    return 0;
}

int hl_sup_stats(long handle, long *out, int n) {
    struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
    for (int i = 0; i < n && i < HL_NCOUNTERS; i++) {
        out[i] = atomic_load_explicit(&s->counters[i], memory_order_relaxed);
    }
    return HL_NCOUNTERS;
}

void hl_sup_free(long handle) {
    struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
    if (s == NULL) {
        return;
    }
    hl_sup_stop(handle);
    release(s);
}

int hl_sup_hold_next(long handle) {
    struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
    atomic_store(&s->hold_next, 1);
    return 0;
}

int hl_sup_resume(long handle) {
    struct hl_sup *s = (struct hl_sup *)(intptr_t)handle;
    return hl_eventfd_signal(s->resumefd);
}
