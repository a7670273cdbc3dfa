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
 *   uffd-open               the frozen name: fork a worker A that registers a page with userfaultfd
 *                           (missing pages, never served), forks B holding that userfaultfd (so A's
 *                           death frees nothing), prints {"op":"uffd","pid":A,"holder":B}, then calls
 *                           openat on a name in that page and prints {"op":"uffd-open",...}. B lives
 *                           until this process exits
 *   exit
 *
 * Options: --cpu N (pin), --no-filter (the baseline: same calls, no filter), --extra before|after (a
 * second, allow-all program installed before or after the notifying one: a stacked floor).
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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void emit(const char *fmt, ...) {
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof buf - 2) n = sizeof buf - 2;
    buf[n++] = '\n';
    /* one write per line: workers and the main process share stdout */
    (void)!write(1, buf, n);
}

static void json_string(char *out, size_t cap, const char *s) {
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

static int install(struct sock_filter *insns, unsigned short len, unsigned flags) {
    struct sock_fprog prog = {.len = len, .filter = insns};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static int install_notify(void) {
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
static int install_extra(void) {
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

static void do_open(const char *path, int flags) {
    int fd = openat(AT_FDCWD, path, flags);
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

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void bench(long n, long warmup, const char *path) {
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
        if (fd >= 0) close(fd);
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
    size_t o = (size_t)sprintf(out, "{\"op\":\"bench\",\"cpu\":%d,\"errors\":%ld,\"first_errno\":%d,\"samples_ns\":[",
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
        if (k <= 0) break;
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

static void *race_flipper(void *arg) {
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

static void race(long n, const char *a, const char *b, const char *marker) {
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
static int holder_pipe[2] = {-1, -1};

/* Worker A of uffd-open (see the top). Never touches the registered page itself. */
static void uffd_worker(void) {
    long page = sysconf(_SC_PAGESIZE);
    char *mem = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
    if (mem == MAP_FAILED || uffd < 0) {
        int e = errno;
        emit("{\"op\":\"uffd\",\"error\":\"%s: %s\",\"errno\":%d}", mem == MAP_FAILED ? "mmap" : "userfaultfd",
             strerror(e), e);
        _exit(1);
    }
    struct uffdio_api api = {.api = UFFD_API};
    struct uffdio_register reg = {.range = {.start = (unsigned long)mem, .len = (unsigned long)page},
                                  .mode = UFFDIO_REGISTER_MODE_MISSING};
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

int main(int argc, char **argv) {
    int cpu = -1, filter = 1;
    const char *extra = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
            cpu = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-filter")) {
            filter = 0;
        } else if (!strcmp(argv[i], "--extra") && i + 1 < argc) {
            extra = argv[++i];
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
        listener = install_notify();
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
        if (cmd == NULL) continue;
        if (!strcmp(cmd, "close-listener")) {
            if (listener >= 0) close(listener);
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
