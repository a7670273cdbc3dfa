/*
 * The broker: supervisors of seccomp user notifications (issue 4, DESIGN.md "Broker").
 *
 * Every entry point takes primitive arguments only, so that Java can bind it with JNA's direct
 * mapping and call it without allocating. A "buffer address" is a native address passed as a long
 * (a direct ByteBuffer's address on the Java side).
 *
 * A supervisor takes a listener fd and does not care where it came from (SCM_RIGHTS from the measured
 * child, pidfd_getfd, a test fixture). It owns the listener from start on and closes it when stopped.
 */
#ifndef HL_BROKER_H
#define HL_BROKER_H

#include <stddef.h>

/* Answers. CONTINUE lets the real call run (the bare round trip); BROKER opens the path beneath
 * in/ in the supervisor and injects the descriptor; ERROR and VALUE answer without running it. */
#define HL_ANSWER_CONTINUE 0
#define HL_ANSWER_BROKER 1
#define HL_ANSWER_ERROR 2
#define HL_ANSWER_VALUE 3

/* Counters, the same indices in hl_sup_stats and in the Java supervisor's stats. */
#define HL_C_RECEIVED 0 /* notifications received */
#define HL_C_CONTINUED 1 /* answered CONTINUE */
#define HL_C_BROKERED 2 /* answered with an injected descriptor */
#define HL_C_ERRORED 3 /* answered with an errno (REFUSED included) */
#define HL_C_VALUED 4 /* answered with a return value */
#define HL_C_REFUSED 5 /* brokered calls refused: escape from in/, write access, foreign dirfd */
#define HL_C_GONE 6 /* the caller died before its answer (ENOENT); nothing to answer */
#define HL_C_FAILURES 7 /* supervisor-side failures (unexpected ioctl errors) */
#define HL_C_CPU 8 /* the CPU the supervisor is pinned to, -1 unpinned or on a set, -errno pin failed */
#define HL_C_ENDED 9 /* 1 when the loop ended: listener hung up (no filter users left) or failed */
#define HL_C_HELD 10 /* notifications held by the test hook (hl_sup_hold_next) */
#define HL_C_LAST_ERRNO 11 /* the errno of the last failure, 0 if none */
/* calls handed off in a read past its deadline (answered by their own thread), and loops stop could not join */
#define HL_C_STALLED 12
#define HL_C_TIMED_OUT 13 /* handed-off calls given up past the give-up deadline and answered EIO */
#define HL_NCOUNTERS 14

/* hl_sup_start flags */
#define HL_SUP_SYNC_WAKEUP 1 /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on the listener (Linux 6.6) */
#define HL_SUP_POLL_WAIT 2 /* wait in poll() + RECV even with a fixed answer (see hl_sup_start) */
/* The broker's opt-ins (HL_RULE_*) ride in the flags, shifted by this. */
#define HL_SUP_RULES_SHIFT 8

/* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, for headers older than Linux 6.6 */
#define HL_SYNC_WAKE_UP_FLAG 1L

/* hl_notif_recv results besides 0 (a notification) and -errno */
#define HL_RECV_STOPPED 1 /* the stop eventfd was signalled */
#define HL_RECV_HUNGUP 2 /* the listener has no filter users left: every notified task is gone */

/* hl_notif_recv fills these 64-bit slots */
#define HL_N_ID 0
#define HL_N_PID 1
#define HL_N_NR 2
#define HL_N_ARCH 3
#define HL_N_IP 4
#define HL_N_ARG0 5 /* ARG0 .. ARG0+5 */
/* hl_broker_open fills these with the opened file's fstat (HL_N_F_MODE 0 when nothing was opened) */
#define HL_N_F_MODE 11
#define HL_N_F_NLINK 12
#define HL_N_F_SIZE 13
#define HL_N_F_DEV 14
#define HL_N_F_INO 15
/* hl_broker_open: the length of the path it read itself (when called with HL_PATH_UNREAD), else
 * HL_PATH_UNREAD */
#define HL_N_PATH_LEN 16
/* The call as the broker reads it (hl_broker_call): its kind (HL_CALL_*), the open flags, mode and
 * resolve bits it asked for (openat2: from the supervisor's one copy of its struct open_how; creat:
 * O_CREAT | O_WRONLY | O_TRUNC), and the errno its own arguments earn before any name is looked at
 * (openat2's EINVAL, E2BIG or EFAULT for its open_how), 0 if none. Valid while HL_N_CALL_FOR holds
 * the notification's id (anything else: not read yet). */
#define HL_N_CALL_KIND 17
#define HL_N_CALL_FLAGS 18
#define HL_N_CALL_MODE 19
#define HL_N_CALL_RESOLVE 20
#define HL_N_CALL_ERR 21
#define HL_N_CALL_FOR 22
/* The result of the answer hl_notif_answer_recv_wait sent before it received: 0 or -errno. */
#define HL_N_SENT 23
/* The policy's opt-ins (HL_RULE_*), set by the supervisor once for its buffer (RECV leaves it alone):
 * 0 is the default broker. */
#define HL_N_RULES 24
#define HL_N_LONGS 25

/* The broker's opt-ins, each lifting one default (Policy.allowingDirectories, asSupervisor,
 * allowingHardLinks). Without HL_RULE_DIRECTORIES an O_DIRECTORY open, and anything that resolves to a
 * directory, is refused (EACCES); with it a directory is handed over as a detached, read-only, nosuid,
 * nodev, noexec clone of its own mount (open_tree OPEN_TREE_CLONE + mount_setattr), whose ".." ends at
 * that directory: a descriptor that leads nowhere above it. Without HL_RULE_AS_SUPERVISOR the lookup
 * and the open run with the caller's fsuid, fsgid and groups (hl_creds_*); with it, with the
 * supervisor's own (a confused deputy on purpose). Without HL_RULE_HARD_LINKS a file with more than
 * one link is refused. */
#define HL_RULE_DIRECTORIES 1
#define HL_RULE_AS_SUPERVISOR 2
#define HL_RULE_HARD_LINKS 4
/* Not an opt-in of the broker's rules but a policy of the native supervisor's own (the Java one decides
 * each call in Java): BROKER for a read-only open or openat of a relative name from the working folder
 * (AT_FDCWD, O_RDONLY, no O_CREAT nor O_DIRECTORY, a path whose first byte is not '/', read once),
 * CONTINUE for every other notified call (Policy.relativeReadsBrokered(), workload-cost's "inputs beneath
 * in/"). CONTINUE is not a security decision (the caller's memory may change after we looked): a
 * measurement's policy. */
#define HL_RULE_CONTINUE_OTHERS 8
#define HL_RULES_ALL 15

/* The calls the broker serves, and their path argument: open (0), openat (1, dirfd arg 0, flags arg
 * 2), openat2 (1, dirfd arg 0, struct open_how * arg 2, its size arg 3), creat (0). x86_64 only:
 * any other architecture or number is HL_CALL_OTHER, refused. */
#define HL_CALL_OTHER 0
#define HL_CALL_OPEN 1
#define HL_CALL_OPENAT 2
#define HL_CALL_OPENAT2 3
#define HL_CALL_CREAT 4

/* The supervisors' deadlines and limits, shared by the native one (broker/supervisor.c) and the Java
 * one (JavaSupervisor reads them from BrokerNative, which CConstantsTest compares with these).
 * Hand a read of the caller's memory off to its own thread once that thread has been blocked
 * HL_READ_DEADLINE_NS (not counting time preempted or waiting for a CPU), seen within
 * HL_WATCH_PERIOD_MS of its start and checked every HL_WATCH_STEP_MS: well under the 100 ms in which
 * every other call must still be served. */
#define HL_READ_DEADLINE_NS (40L * 1000 * 1000)
#define HL_WATCH_PERIOD_MS 10
#define HL_WATCH_STEP_MS 5
/* A handed-off read this old is given up and its call answered with EIO (hl_sup_set_give_up). */
#define HL_GIVE_UP_NS (10L * 1000 * 1000 * 1000)
/* Stopping a supervisor returns within this, whatever its loop is doing. */
#define HL_STOP_DEADLINE_NS (900L * 1000 * 1000)
/* Handed-off threads out at once, at most (past it, no more hand-offs: the other calls wait). */
#define HL_MAX_PARKED 64
/* Given-up threads still blocked, at most: one more and the supervisor fails closed. */
#define HL_MAX_STUCK 4

/* hl_broker_open's path_len when the path is not read yet: it reads it itself, once. */
#define HL_PATH_UNREAD (-2147483647 - 1)

/* Broker results (hl_broker_open, hl_broker_send, hl_broker_refuse, hl_broker_answer): r >= 0 a
 * descriptor (see each function); -4095 <= r <= -1 answered with errno -r; HL_BROKER_GONE the caller
 * died (nothing answered); HL_BROKER_REFUSED - e refused by the broker's rules and answered with errno
 * e (EACCES: an escape from in/, write access, a foreign dirfd, a FIFO, socket or device, a directory
 * (without HL_RULE_DIRECTORIES, or not asked for with O_DIRECTORY), a file with several links not
 * admitted, a caller whose credentials cannot be read or taken on); HL_BROKER_FAILED - e the
 * answer itself failed with errno e (the call may be left waiting until the listener closes). */
#define HL_BROKER_GONE (-100000)
#define HL_BROKER_REFUSED (-200000)
#define HL_BROKER_FAILED (-300000)
/* hl_broker_answer under HL_RULE_CONTINUE_OTHERS: the call was answered CONTINUE (not brokered). */
#define HL_BROKER_CONTINUED (-400000)

/* 1 when seccomp user notification works here (GET_NOTIF_SIZES answers, user_notif available), else
 * -errno. */
int hl_notif_supported(void);
/* SECCOMP_IOCTL_NOTIF_SET_FLAGS; 0 or -errno (EINVAL before Linux 6.6). */
int hl_notif_set_flags(int listener, long flags);
/* Waits for a notification (poll on the listener and stopfd, stopfd < 0 for none), receives it into
 * HL_N_LONGS int64 slots at out_addr. 0, HL_RECV_STOPPED, HL_RECV_HUNGUP or -errno (-ENOENT: the
 * caller died between poll and receive). */
int hl_notif_recv(int listener, int stopfd, long out_addr);
/* Receives a notification by blocking in SECCOMP_IOCTL_NOTIF_RECV itself, no poll(): 0,
 * HL_RECV_HUNGUP, or -errno (-EINTR: a signal; -ENOENT: the caller it was woken for is gone). */
int hl_notif_recv_wait(int listener, long out_addr);
/* Answers notification id (err, val and flags as in struct seccomp_notif_resp; err a positive errno or
 * 0), puts the answer's result (0 or -errno) in slot HL_N_SENT, then receives the next one as
 * hl_notif_recv_wait does and returns what it returns. One call where a supervisor that answers from
 * another language would make two: on the child's CPU every crossing is on the round trip's path. */
int hl_notif_answer_recv_wait(int listener, long id, int err, long val, int flags, long out_addr);
int hl_notif_continue(int listener, long id);
int hl_notif_error(int listener, long id, int err);
int hl_notif_value(int listener, long id, long val);
/* 0 while the notification is still pending, -ENOENT when its caller is gone. */
int hl_notif_id_valid(int listener, long id);
/* Reads len bytes of pid's memory at addr into buf, through /proc/PID/mem (never blocks on a
 * userfaultfd-registered page: EFAULT at once). 0 when all len bytes were read, else -errno
 * (-EFAULT unreadable or short, -ESRCH no such task or its memory gone). */
int hl_read_child(int pid, long addr, void *buf, size_t len);
/*
 * The watch over one supervisor thread's reads of child memory (a read through /proc/PID/mem can
 * still block on a FUSE-backed or hung page). A thread attaches its watch; every hl_read_child /
 * hl_read_path it makes then records its start (CLOCK_MONOTONIC ns) and pid there and clears it when
 * the read ends. A watchdog (another thread) hands a long read off (the thread goes on and answers its
 * call itself; nothing changes in the watch) and gives up a read that runs past its give-up deadline
 * (abandons it, answering the call itself): from then on that thread's reads return -ESRCH and
 * hl_notif_read_path answers nothing, so the stuck thread, when its read ends, touches no call and
 * can leave. Laid out as three int64 slots, so the Java
 * supervisor keeps one in a direct buffer.
 */
struct hl_watch {
	_Atomic long long started; /* start of the read in progress, 0 none, HL_WATCH_ABANDONED */
	_Atomic long long pid; /* the pid the read is from */
	_Atomic long long id; /* the notification the thread handles (its loop writes it) */
	_Atomic long long tid; /* the watched thread (hl_watch_attach) */
};
#define HL_WATCH_LONGS 4
#define HL_WATCH_ABANDONED (-1LL)
#define HL_WATCH_EXITED (-2LL) /* started once the thread left its loop unabandoned (hl_watch_leave) */
/* hl_watch_abandon's result when the thread was abandoned outside a read (deadline_ns 0). */
#define HL_WATCH_NOT_READING (-1000000L)
/* PIDFD_THREAD (Linux 6.9), for headers without it */
#define HL_PIDFD_THREAD 0200
/* Attaches watch_addr (HL_WATCH_LONGS int64 slots, 0: none) to the calling thread. 0. */
int hl_watch_attach(long watch_addr);
/* Abandons the watched thread's read if one has run deadline_ns or longer (deadline_ns 0: abandons
 * the thread now, reading or not): the pid it read from (> 0), HL_WATCH_NOT_READING (abandoned
 * between reads), 0 (nothing abandoned: no read, or a read younger than the deadline), -EALREADY. */
long hl_watch_abandon(long watch_addr, long deadline_ns);
/* The watchdog's test of the watched read, on the time its thread has spent blocked since the
 * watchdog first saw that read (elapsed time less the thread's CPU and run-queue time, from
 * /proc/self/task/TID/schedstat; elapsed time alone where that is missing): a reader preempted on a
 * loaded host is not stuck. state_addr: three int64 slots the watchdog keeps for it (zeroed at first).
 * The read's pid once that blocked time reaches deadline_ns (the watch is left as it is: the watchdog
 * then hands the read off), else 0. */
long hl_watch_check(long watch_addr, long deadline_ns, long state_addr);
/* CLOCK_MONOTONIC in ns, the clock of the watch's start times. */
long long hl_monotonic_ns(void);
/* 1 once the watch was abandoned, else 0. */
int hl_watch_abandoned(long watch_addr);
/* The watched thread leaves its loop: detaches the watch from it and marks it HL_WATCH_EXITED, so
 * it can no longer be abandoned (whoever stops it joins it). 1 when it had been abandoned already (so
 * nobody waits for it: it cleans up after itself), else 0. */
int hl_watch_leave(long watch_addr);
/* Points descriptor number fd at /dev/null (dup3), closing what it named, while the number stays
 * taken: for a listener a stuck thread may still name. 0 or -errno. */
int hl_retire_fd(int fd);
/* Reads a NUL-terminated path of at most cap-1 bytes (cap bytes with the NUL) from pid's memory into
 * buf_addr; the length, or -EFAULT (unreadable), -ENAMETOOLONG (no NUL within cap bytes), -ESRCH. */
int hl_read_path(int pid, long addr, long buf_addr, int cap);
/* hl_read_path, then a check that notification id is still pending: -ESRCH when it is not (pid may
 * name another process by now, so the bytes read mean nothing); else hl_read_path's result (a live
 * caller's -ESRCH becomes -EFAULT). The broker's one read of a path: everything after it decides and
 * acts on the copy in buf_addr, never on the caller's memory again. */
int hl_notif_read_path(int listener, long id, int pid, long addr, long buf_addr, int cap);
/* Reads exactly len bytes at addr in pid's memory into buf: 0 when all len bytes were read, else
 * -errno (-EFAULT: not all of them readable, -ESRCH). The broker's read of a call's structure (openat2's
 * struct open_how); like hl_read_path it says nothing about whether pid is still the caller: check the
 * notification's id afterwards. */
int hl_read_child(int pid, long addr, void *buf, size_t len);
/* Reads what the broker needs of the notified call in the slots at notif_addr into the HL_N_CALL_*
 * slots, once per notification (again only when HL_N_CALL_FOR is not its id): the kind, and for
 * openat2 its struct open_how, read once from the caller into the supervisor's copy and checked as
 * the kernel checks it (size below OPEN_HOW_SIZE_VER0: EINVAL; above a page, or non-zero bytes past
 * the fields we know: E2BIG; unknown flag or resolve bits, a mode without O_CREAT/O_TMPFILE,
 * RESOLVE_BENEATH with RESOLVE_IN_ROOT: EINVAL; unreadable: EFAULT), the result in HL_N_CALL_ERR.
 * Returns the kind (>= 0), or -ESRCH when the call is no longer pending (nothing read is the caller's). */
int hl_broker_call(int listener, long notif_addr);
/* The broker's decision to open, on the supervisor's copy: path_addr holds the path read by
 * hl_notif_read_path and path_len its result (ignored for a call the broker does not serve), or path_len is
 * HL_PATH_UNREAD and it makes that one read itself into path_addr (PATH_MAX bytes), leaving the
 * result in slot HL_N_PATH_LEN. Refuses (and answers) a call other than open, openat, openat2 and
 * creat (hl_broker_call), a dirfd other than AT_FDCWD, write access (creat included) or other flags,
 * O_DIRECTORY without HL_RULE_DIRECTORIES in slot HL_N_RULES (before any lookup), RESOLVE_IN_ROOT, a
 * path leaving in/ or crossing a mount inside it; answers openat2's own argument
 * errors as the kernel would. Unless HL_RULE_AS_SUPERVISOR, it reads the caller's credentials
 * (hl_creds_read: refused if unreadable) and looks up with them (hl_creds_enter/leave: refused if they
 * cannot be taken on). It opens nothing for I/O: an O_PATH descriptor beneath in_dirfd
 * (openat2 RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV, the call's O_NOFOLLOW,
 * O_DIRECTORY and further resolve bits), whose fstat() decides: anything but a regular file or, when
 * O_DIRECTORY was asked, a directory is refused (a FIFO, socket or device is never opened, so no
 * writer is released and no driver's open runs; a symlink met with O_NOFOLLOW answers ELOOP). On
 * success the call is still unanswered: returns that O_PATH descriptor and fills the HL_N_F_* slots
 * (of the O_PATH fstat) for the admission; else an answered result (encoding above). */
int hl_broker_open(int listener, long notif_addr, long path_addr, int path_len, int in_dirfd);
/* The admitted file handed over: reopens hl_broker_open's O_PATH descriptor fd for reading through
 * /proc/self/fd (read-only, O_NOCTTY, non-blocking for the open itself: a lease cannot hold us; the
 * call's O_NONBLOCK kept) with the credentials hl_broker_open used for this notification, checks that
 * the reopened file is the admitted one (st_dev, st_ino of the HL_N_F_* slots; else refused), injects
 * it (ADDFD with SEND, the call's O_CLOEXEC) and closes both of ours: the child's descriptor number, or
 * an answered/gone/failed result. A directory (HL_RULE_DIRECTORIES only) is reopened from a detached,
 * read-only, nosuid, nodev, noexec clone of its mount rooted at it (checked by mount id), so that no
 * ".." from it leads above it; a supervisor that cannot make the clone refuses it. */
int hl_broker_send(int listener, long notif_addr, int fd);
/* Closes fd (if >= 0) and answers errno err as a refusal: HL_BROKER_REFUSED - err, or gone/failed. */
int hl_broker_refuse(int listener, long id, int fd, int err);
/* The native supervisor's broker answer in full: hl_broker_call, one hl_notif_read_path into
 * path_addr (PATH_MAX bytes), hl_broker_open, the default admission on the O_PATH descriptor's facts
 * (a directory, or a file with exactly one link unless HL_RULE_HARD_LINKS: a hard link can make a file
 * outside in/ one of in/'s names; else refused with EACCES, nothing opened), hl_broker_send. The rules
 * are slot HL_N_RULES's. Same result encoding. With HL_RULE_CONTINUE_OTHERS in them, a call that is not
 * a relative read-only open (see there) is answered CONTINUE first (HL_BROKER_CONTINUED, or gone/failed),
 * its path read once and that copy brokered otherwise. */
int hl_broker_answer(int listener, long notif_addr, long path_addr, int in_dirfd);
/*
 * The caller's credentials (creds.c). The broker looks a name up and opens it as the caller would: with
 * the fsuid, fsgid and supplementary groups of the notifying thread, read from /proc/TID/status (the
 * notification's pid is the thread's id) and confirmed with ID_VALID after the read (a tid reused by
 * another task lends nothing). Only the opening thread switches, with raw setgroups/setfsgid/setfsuid
 * (glibc's setgroups would switch every thread of the process), and switches back at once; when fsuid
 * leaves 0 the kernel drops the file-system capabilities (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
 * CAP_FOWNER, ...) from this thread's effective set and gives them back on return to 0. Nothing is
 * cached across calls: a child may change its credentials between two calls.
 */
/* Groups of a caller (and of the supervisor) the broker can take on, at most; beyond: refused. */
#define HL_CREDS_MAX_GROUPS 1024
/* Reads tid's credentials into this thread's record for notification id, then checks that id is
 * still pending. With as_supervisor the record says "the supervisor's own" and nothing is read. 0,
 * -ESRCH (the call is gone: what was read is nobody's), -EACCES (unreadable or more groups than the
 * broker takes: the call must be refused). */
int hl_creds_read(int listener, long id, int tid, int as_supervisor);
/* hl_creds_read in two halves, for a caller whose next step checks ID_VALID anyway (the path read): the
 * read (0, -ESRCH, -EACCES), then, once that check passed, the confirmation that makes the record
 * usable. Unconfirmed, hl_creds_enter refuses. */
int hl_creds_prepare(long id, int tid, int as_supervisor);
void hl_creds_confirm(long id);
/* Takes on the credentials recorded for notification id, in the calling thread only: 1 switched, 0
 * nothing to switch (the caller's equal the thread's own, or the record says the supervisor's own),
 * -EACCES (no record for id, or the switch was refused: a supervisor without CAP_SETUID/CAP_SETGID
 * serving another user; nothing is left switched). */
int hl_creds_enter(long id);
/* Returns to the thread's own credentials after a switch (no-op otherwise). A return that fails
 * aborts the process: nothing may be served with a child's credentials, or root's by accident. */
void hl_creds_leave(void);

/* An O_PATH directory fd for in/ (or -errno). */
int hl_broker_open_dir(const char *path);
/* Small helpers for the Java side: an eventfd (or -errno), signal it, close any fd. */
int hl_eventfd(void);
int hl_eventfd_signal(int fd);
/* hl_close(fd) is libheimdall's general one (heimdall.h). */
/* A close-on-exec duplicate of fd, or -errno. */
int hl_dup_cloexec(int fd);
/* pidfd_open + pidfd_getfd: a copy of another process's fd (O_CLOEXEC), or -errno. */
int hl_pidfd_getfd(int pid, int fd);

/* The native supervisor: a pthread pinned to cpu (-1: not pinned) answering every notification on
 * listener with answer (value: the errno for ERROR, the return value for VALUE). in_dirfd is dup'ed
 * (needed for BROKER, else -1). Returns a handle > 0 or -errno (pinning failures included; -EBUSY:
 * the stop signal has a handler that is not ours); on success the supervisor owns the listener, on
 * failure it stays the caller's. The thread runs with every signal blocked. With CONTINUE, ERROR or
 * VALUE (and without HL_SUP_POLL_WAIT) it waits blocked in SECCOMP_IOCTL_NOTIF_RECV and takes
 * hl_sup_stop_signal() only, for which the first such start installs a no-op handler (process-wide,
 * without SA_RESTART); BROKER waits in poll() on the listener and a stop eventfd. The broker's opt-ins
 * (HL_RULE_*) ride in flags, shifted by HL_SUP_RULES_SHIFT (-EINVAL for unknown bits). */
long hl_sup_start(int listener, int cpu, int answer, long value, int in_dirfd, int flags);
/* hl_sup_start with cpu == -1 and cpu_set != 0: the thread may run on the CPUs of cpu_set (bit c =
 * CPU c, c < 64), free to migrate among them (its HL_C_CPU counter stays -1); -EINVAL with both a CPU
 * and a set. cpu_set == 0 is hl_sup_start. */
long hl_sup_start_set(int listener, int cpu, long cpu_set, int answer, long value, int in_dirfd, int flags);
/* Signals the loop to stop (the stop eventfd, and for a loop blocked in RECV the stop signal, sent
 * again every 10 ms until it has ended) and joins it; closes the listener. Returns within 0.9 s in
 * every case: a loop not joined by then (stuck in a read of the caller's memory) is abandoned
 * (HL_C_STALLED counted; the thread frees itself when the read ends, answering nothing), and while
 * such a thread or a handed-off one is out the listener's number is pointed at /dev/null (every call
 * still waiting fails with ENOSYS). 0 or -errno. Idempotent. */
int hl_sup_stop(long handle);
/* The signal that interrupts a supervisor blocked in RECV: SIGRTMIN + 2. */
int hl_sup_stop_signal(void);
/* For a supervisor thread of the caller's own (the Java one) that waits blocked in RECV: installs the
 * stop signal's no-op handler (as hl_sup_start does), unblocks it in the calling thread, and returns
 * the thread's tid; -EBUSY (a foreign handler) or -errno. */
int hl_sup_thread_prepare(void);
/* Sends the stop signal to thread tid of this process (tgkill). 0 or -errno. */
int hl_sup_thread_signal(int tid);
/* The BROKER answer's give-up: a handed-off read that has lasted ns (> 0) is given up and its call
 * answered with EIO (default 10 s; see supervisor.c). 0 or -EINVAL. */
int hl_sup_set_give_up(long handle, long ns);
/* Copies min(n, HL_NCOUNTERS) counters into out; returns HL_NCOUNTERS. */
int hl_sup_stats(long handle, long *out, int n);
/* Frees a stopped supervisor (stops it first if needed). */
void hl_sup_free(long handle);
/* Test hook: hold the next notification after receiving it until hl_sup_resume, so a test can kill
 * the caller while its call waits at the supervisor. */
int hl_sup_hold_next(long handle);
int hl_sup_resume(long handle);

#endif
