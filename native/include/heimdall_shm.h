/* SPDX-License-Identifier: MIT */
/*
 * heimdall_shm.h - the region shared between libheimdall and heimdall-runner
 *
 * One measured run is one heimdall-runner process. libheimdall creates a memfd, lays the run out in
 * it as described here, and hands it to the runner as file descriptor 3 (HL_SHM_FD); one end of a
 * socketpair is descriptor 4 (HL_SOCK_FD). The runner maps the region MAP_SHARED, reads its orders
 * from the header, writes its progress and results into the result block and its samples into the
 * sample array. The parent keeps its own mapping, so everything written before the runner died
 * (phase, partial samples) is still readable after it was killed.
 *
 * All fields are little endian (x86_64 only). Offsets are from the start of the region.
 *
 *   offset  size  field           written by  meaning
 *   ------  ----  --------------  ----------  ----------------------------------------------------
 *        0     4  magic           java        HL_SHM_MAGIC ("HLSM")
 *        4     4  version         java        HL_SHM_VERSION; the runner refuses any other
 *        8     8  size            lib         total bytes of the region; the runner checks fstat()
 *       16     4  cpu             java        CPU to pin to (s32); -1 leaves the affinity as inherited, or
 *                                             takes cpu_set
 *       20     4  call            java        HL_CALL_*: what is measured
 *       24     4  mode            java        HL_MODE_*: PER_CALL, BATCH or TIMER
 *       28     4  flags           java        HL_F_*: NEW_LISTENER (on program listener_prog), LISTENER_PIDFD
 *       32     8  nr              java        syscall number for HL_CALL_SYSCALL (s64)
 *       40    48  args[6]         java        its six arguments (u64 each)
 *       88     8  warmup          java        W: calls made before measuring, not recorded
 *       96     8  count           java        N: measured calls (>= 1, <= HL_MAX_COUNT)
 *      104     4  parent_pid      lib         the spawning process; the runner exits if it is gone
 *      108     4  nprogs          java        programs to install, 0..HL_MAX_PROGS, in this order
 *      112    64  prog_len[16]    java        instructions in each program, 1..HL_MAX_INSNS (u32 each)
 *      176     8  progs_off       lib         = HL_SHM_HEADER_SIZE
 *      184     8  result_off      lib         offset of struct hl_shm_result, 64-aligned
 *      192     8  samples_off     lib         offset of the sample array, page-aligned
 *      200     4  listener_prog   java        with HL_F_NEW_LISTENER: the program installed with
 *                                             SECCOMP_FILTER_FLAG_NEW_LISTENER (0-based, < nprogs)
 *      204     4  batch_clock     java        HL_CLOCK_*: the clock read around the loop in HL_MODE_BATCH
 *                                             (0 = CLOCK_MONOTONIC, the vDSO; 1 = CLOCK_PROCESS_CPUTIME_ID,
 *                                             the kernel selftest's clock: a system call, and only this
 *                                             process's CPU time, so not a forked child's); else 0
 *      208     4  placement       java        where the timed loop of a plain call (HL_CALL_GETPPID..SYSCALL, GETPID_SELFTEST)
 *                                             sits in its 64-byte code line: 0..3, in 16-byte steps (see
 *                                             HL_PLACEMENTS); 0 for every other call
 *      212     4  path_dir_len    java        for a call that names a file: 0 = the runner makes the file's own
 *                                             directory its working directory and names the last component
 *                                             (one component walked); n > 0 = it makes path[0..n) (a directory)
 *                                             its working directory and names path + n + 1, the rest of the
 *                                             path as given (every component walked, `..` and links included)
 *                                             (version 4)
 *      216     8  cpu_set         java        with cpu == -1: the CPUs (bit c = CPU c, c < 64) the runner may
 *                                             run on, free to migrate among them; 0 leaves the inherited
 *                                             affinity (version 3)
 *      224     4  landlock_len    java        bytes of the Landlock ruleset description after the programs
 *                                             (hl_landlock.h; a multiple of 8), 0 for none (version 4)
 *      228    28  reserved        -           zero
 *      256  4096  path            java        NUL-terminated file for HL_CALL_OPENAT, FSTATAT, OPENAT_FLAGS
 *     4352     -  programs        java        the programs back to back: prog_len[i] * 8 bytes each,
 *                                             raw struct sock_filter (u16 code, u8 jt, u8 jf, u32 k),
 *                                             the format of libseccomp's seccomp_export_bpf()
 *        -     -  landlock        java        landlock_len bytes: the ruleset the runner builds and enforces on
 *                                             itself after no_new_privs and before the first program, so it
 *                                             confines the measured call alone, under a floor, or with a
 *                                             broker (phase HL_PHASE_LANDLOCK; HL_EXIT_LANDLOCK when refused)
 *
 * "java" fields come in the spec bytes given to hl_run_spawn() (header and programs, nothing more);
 * "lib" fields are filled in by libheimdall, which also sizes the region:
 *   result_off  = align64(HL_SHM_HEADER_SIZE + 8 * sum(prog_len) + landlock_len)
 *   samples_off = align4096(result_off + sizeof(struct hl_shm_result))
 *   size        = samples_off + 8 * count
 *
 * The result block (struct hl_shm_result, 64 bytes), written by the runner unless said otherwise:
 *
 *        0     4  cpu_granted     CPU the runner ran on after pinning (sched_getcpu), -1 before
 *        4     4  phase           HL_PHASE_*: the step the runner is in; stored before each step
 *        8     4  prog_index      the program being installed while phase == HL_PHASE_INSTALL
 *       12     4  setup_errno     errno of the setup step that failed (see HL_EXIT_*), else 0
 *       16     8  last_ret        the last measured call's return value (s64; -1 on failure)
 *       24     4  last_errno      its errno (0 when it succeeded)
 *       28     4  listener_fd     the runner's own listener descriptor (HL_F_LISTENER_PIDFD)
 *       32     8  batch_ns        HL_MODE_BATCH: ns around all N calls, on the batch_clock; else 0
 *       40     8  done            measured calls completed (N on success; fewer when a call that
 *                                 must succeed failed, HL_EXIT_CALL)
 *       48     4  listener_taken  written by the lib: 1 once it has copied the listener (pidfd_getfd)
 *       52     4  landlock_abi    the Landlock ABI the kernel answered (0: none, or no ruleset asked for)
 *       56     4  landlock_step   where building the ruleset stopped (enum hl_landlock_step), 0 for none
 *       60     4  reserved
 *
 * The sample array: count u64, the duration of each measured call in ns (CLOCK_MONOTONIC), or for
 * HL_MODE_TIMER the difference of two back-to-back clock reads. Unused in HL_MODE_BATCH.
 *
 * The attach and fork calls (HL_CALL_ATTACH, HL_CALL_FORK, HL_CALL_FORK_ATTACH) measure what
 * installing a filter costs. For the two that attach, the last program (nprogs - 1, so nprogs >= 1,
 * and no HL_F_NEW_LISTENER) is not installed before the loop: it is the program each call attaches;
 * the programs before it are installed as usual. HL_CALL_ATTACH adds one more filter to the runner
 * itself on every call (warm-up included), so W + N is bounded by the kernel's budget of instructions
 * per process: a filter is refused with ENOMEM once its length plus sum(len + 4) over the filters
 * already attached would exceed MAX_INSNS_PER_PATH (32768), lengths counted after the kernel has
 * converted the classic program to eBPF (longer: see AttachBudget.java); for one program of kernel
 * length E attached again and again, after 32772 / (E + 4) filters (rounded down). HL_CALL_FORK forks a
 * child that _exits at once and waits for it; HL_CALL_FORK_ATTACH forks a child that attaches the
 * program once and _exits, and waits for it (each child starts with the runner's filters only, so
 * there is no budget). A failed attach, fork or child ends the run with HL_EXIT_CALL: setup_errno and
 * last_errno say why, done how many calls completed before it.
 *
 * Ordering: the runner publishes phase with a release store before it starts the step; the parent
 * reads it after waitid() says the runner is gone, or with an acquire load while it runs (polling for
 * HL_PHASE_LISTENER_READY, or hl_run_phase()), so no further synchronisation is needed.
 *
 * Once its first program is installed the runner makes no system call but these, so a floor must
 * allow them and need allow nothing else:
 *   - seccomp(2), for each further program (installed under the ones before it);
 *   - the listener handover: sendmsg on HL_SOCK_FD and close of its own copy, or with
 *     HL_F_LISTENER_PIDFD only that close (the parent copies it out with pidfd_getfd meanwhile);
 *   - the measured call (getpid, through glibc's syscall(), for HL_CALL_GETPID_SELFTEST; write and
 *     read for HL_CALL_PINGPONG, and HL_CALL_PINGPONG_OPENAT), and
 *     close() after each openat (untimed); with HL_CALL_FORK* also wait4
 *     (timed: part of the call), and the child's own seccomp and exit_group;
 *   - with HL_CLOCK_PROCESS_CPUTIME, clock_gettime twice (around the batch loop);
 *   - exit_group.
 * clock_gettime() is the vDSO's and makes no system call while the clocksource is vDSO-capable
 * (tsc is); on a host where it falls back to the syscall, the floor would have to allow that too.
 */
#ifndef HEIMDALL_SHM_H
#define HEIMDALL_SHM_H

#include <stdint.h>
#include <string.h>

#define HL_SHM_MAGIC 0x4d534c48u /* "HLSM" read little endian */
#define HL_SHM_VERSION 4u
#define HL_SHM_FD 3
#define HL_SOCK_FD 4
#define HL_PING_FD 5 /* HL_CALL_PINGPONG: the runner's write end of the ping pipe */
#define HL_PONG_FD 6 /* HL_CALL_PINGPONG: the runner's read end of the pong pipe */

#define HL_MAX_PROGS 16
#define HL_MAX_INSNS 4096 /* BPF_MAXINSNS */
#define HL_MAX_COUNT (1ull << 28)
#define HL_PATH_MAX 4096
#define HL_SHM_HEADER_SIZE 4352

enum hl_call {
	HL_CALL_NONE = 0, /* nothing between the clock reads: only with HL_MODE_TIMER */
	HL_CALL_GETPPID = 1,
	HL_CALL_GETTID = 2,
	HL_CALL_GETPID = 3,
	HL_CALL_SCHED_YIELD = 4,
	HL_CALL_PRCTL_SET_NAME = 5, /* prctl(PR_SET_NAME, "heimdall-bench") */
	HL_CALL_MPROTECT = 6, /* mprotect(own page, 4096, PROT_READ) */
	HL_CALL_OPENAT = 7, /* openat(AT_FDCWD, path, O_RDONLY|O_CLOEXEC), close untimed */
	HL_CALL_SYSCALL = 8, /* syscall(nr, args[0..5]) */
	HL_CALL_ATTACH = 9, /* seccomp(SECCOMP_SET_MODE_FILTER) of the last program: one more filter */
	HL_CALL_FORK = 10, /* fork; the child _exits at once; wait4 */
	HL_CALL_FORK_ATTACH = 11, /* fork; the child attaches the last program and _exits; wait4 */
	HL_CALL_GETPID_SELFTEST = 12, /* getpid as the kernel selftest's loop makes it: see below */
	HL_CALL_PINGPONG = 13, /* write 1 byte to HL_PING_FD, read 1 byte from HL_PONG_FD: see below */
	HL_CALL_PINGPONG_OPENAT = 14, /* HL_CALL_PINGPONG, then HL_CALL_OPENAT's openat, timed together */
	HL_CALL_FSTATAT = 15, /* newfstatat(AT_FDCWD, path, &st, 0): stat of the path */
	HL_CALL_OPENAT_FLAGS = 16, /* openat(AT_FDCWD, path, args[0]) (flags given, e.g. O_NONBLOCK), close untimed */
	HL_CALL_MAX_ = 16,
};

/*
 * HL_CALL_PINGPONG is no system call under test but the host's floor for a two-thread round trip:
 * the runner writes one byte into a pipe and blocks reading the answer from another, which a partner
 * thread in the spawning process (hl_pong_start) reads and writes back. It is what a seccomp
 * notification's round trip does at the least (wake the other side, sleep until it wakes us) without
 * seccomp. Both calls are timed together; a short write or read (the partner gone) ends the run with
 * HL_EXIT_CALL (setup_errno EPIPE, or the call's errno).
 *
 * HL_CALL_PINGPONG_OPENAT is that round trip followed by HL_CALL_OPENAT's openat (its close untimed),
 * all timed together: the host's floor for a brokered openat answered CONTINUE measured the way that
 * row is (the call, after a round trip, less the same call alone), since a call made just after two
 * context switches runs on caches the other side has used.
 */

/*
 * HL_CALL_GETPID_SELFTEST is the loop of tools/testing/selftests/seccomp/seccomp_benchmark.c: each
 * call is glibc's syscall(__NR_getpid) (an out-of-line libc function, entered through the PLT), and
 * its result is compared with the pid read before the programs were installed (the selftest asserts
 * it). Every other plain call is a bare syscall instruction inlined in the loop. A result that is not
 * the pid ends the run with HL_EXIT_CALL (setup_errno: syscall()'s errno when it returned -1, else
 * ESRCH); done says how many calls completed before it. In HL_MODE_PER_CALL the comparison follows
 * the second clock read, so, as for the bare call, only the call is timed.
 */

/*
 * Code placement. Where a timed loop's instructions fall within 64-byte code lines changes what a
 * system call costs when it is timed call by call: on the project's AMD EPYC VM one of four 16-byte
 * positions adds about 30 ns to every call under a seccomp filter, and which one a build gets is an
 * accident of the link. So the runner carries each plain call's loops HL_PLACEMENTS times, each
 * starting 16 bytes further into a 64-aligned line, and a run names the copy it uses; runs that
 * rotate through the copies measure over placements instead of one.
 */
#define HL_PLACEMENTS 4u

static inline int hl_call_placeable(uint32_t call)
{
	return (call >= HL_CALL_GETPPID && call <= HL_CALL_SYSCALL) || call == HL_CALL_GETPID_SELFTEST ||
	       call == HL_CALL_FSTATAT;
}

/* The calls that name a file by path[]. */
static inline int hl_call_names_file(uint32_t call)
{
	return call == HL_CALL_OPENAT || call == HL_CALL_PINGPONG_OPENAT || call == HL_CALL_FSTATAT ||
	       call == HL_CALL_OPENAT_FLAGS;
}

enum hl_mode {
	HL_MODE_PER_CALL = 0, /* each call timed alone: N samples */
	HL_MODE_BATCH = 1, /* one timer pair around the N calls: batch_ns */
	HL_MODE_TIMER = 2, /* N back-to-back clock reads, no call: the timer's own cost */
	HL_MODE_MAX_ = 2,
};

enum hl_batch_clock {
	HL_CLOCK_MONOTONIC = 0, /* vDSO, no system call */
	HL_CLOCK_PROCESS_CPUTIME =
		1, /* CLOCK_PROCESS_CPUTIME_ID, as tools/testing/selftests/seccomp/seccomp_benchmark */
	HL_CLOCK_MAX_ = 1,
};

#define HL_F_NEW_LISTENER 0x1u /* install program listener_prog with SECCOMP_FILTER_FLAG_NEW_LISTENER */
#define HL_F_LISTENER_PIDFD 0x2u /* hand the listener over by pidfd_getfd, not SCM_RIGHTS */
#define HL_F_ALL_ (HL_F_NEW_LISTENER | HL_F_LISTENER_PIDFD)

enum hl_phase {
	HL_PHASE_SPAWNED = 0, /* not yet running our code (exec failed or not reached) */
	HL_PHASE_SETUP = 1, /* mapping, parent-death signal, checks */
	HL_PHASE_PIN = 2, /* sched_setaffinity */
	HL_PHASE_PREPARE = 3, /* page for mprotect, samples faulted in */
	HL_PHASE_NO_NEW_PRIVS = 4,
	HL_PHASE_INSTALL = 5, /* installing program prog_index */
	HL_PHASE_LISTENER = 6, /* handing the listener over */
	HL_PHASE_LISTENER_READY = 7, /* HL_F_LISTENER_PIDFD: listener_fd is valid, waiting for the lib */
	HL_PHASE_WARMUP = 8,
	HL_PHASE_MEASURE = 9,
	HL_PHASE_DONE = 10, /* measured, about to exit_group(0) */
	HL_PHASE_LANDLOCK = 11, /* building and enforcing the Landlock ruleset (after NO_NEW_PRIVS, before INSTALL) */
};

/* The runner's exit status when it gives up by itself (setup_errno says why where it applies). */
enum hl_exit {
	HL_EXIT_OK = 0,
	HL_EXIT_BAD_SHM = 64, /* fd 3 missing, wrong magic, version or layout */
	HL_EXIT_PARENT_GONE = 65, /* the spawning process was gone before PDEATHSIG was armed */
	HL_EXIT_PIN = 66, /* sched_setaffinity failed */
	HL_EXIT_PREPARE = 67, /* mmap of the mprotect page failed */
	HL_EXIT_NO_NEW_PRIVS = 68, /* prctl(PR_SET_NO_NEW_PRIVS) failed */
	HL_EXIT_INSTALL = 69, /* seccomp(SECCOMP_SET_MODE_FILTER) refused program prog_index */
	HL_EXIT_LISTENER = 70, /* the listener could not be handed over */
	HL_EXIT_USAGE = 71, /* started by hand, not by libheimdall */
	/* an attach, fork or forked child failed in the loop (HL_CALL_ATTACH, FORK*),
	 * or HL_CALL_GETPID_SELFTEST's result was not the pid, or HL_CALL_PINGPONG's
	 * partner did not answer */
	HL_EXIT_CALL = 72,
	/* the Landlock ruleset was refused: landlock_step says where, setup_errno why
	 * (EOPNOTSUPP: no Landlock, or a right the kernel's ABI lacks without best effort) */
	HL_EXIT_LANDLOCK = 73,
};

struct hl_shm_header {
	uint32_t magic;
	uint32_t version;
	uint64_t size;
	int32_t cpu;
	uint32_t call;
	uint32_t mode;
	uint32_t flags;
	int64_t nr;
	uint64_t args[6];
	uint64_t warmup;
	uint64_t count;
	int32_t parent_pid;
	uint32_t nprogs;
	uint32_t prog_len[HL_MAX_PROGS];
	uint64_t progs_off;
	uint64_t result_off;
	uint64_t samples_off;
	uint32_t listener_prog;
	uint32_t batch_clock;
	uint32_t placement;
	uint32_t path_dir_len;
	uint64_t cpu_set;
	uint32_t landlock_len;
	uint8_t reserved[28];
	char path[HL_PATH_MAX];
};

struct hl_shm_result {
	int32_t cpu_granted;
	uint32_t phase;
	uint32_t prog_index;
	int32_t setup_errno;
	int64_t last_ret;
	int32_t last_errno;
	int32_t listener_fd;
	uint64_t batch_ns;
	uint64_t done;
	uint32_t listener_taken;
	int32_t landlock_abi;
	uint32_t landlock_step;
	uint32_t reserved;
};

_Static_assert(sizeof(struct hl_shm_header) == HL_SHM_HEADER_SIZE, "header layout");
_Static_assert(__builtin_offsetof(struct hl_shm_header, nr) == 32, "nr");
_Static_assert(__builtin_offsetof(struct hl_shm_header, warmup) == 88, "warmup");
_Static_assert(__builtin_offsetof(struct hl_shm_header, prog_len) == 112, "prog_len");
_Static_assert(__builtin_offsetof(struct hl_shm_header, progs_off) == 176, "progs_off");
_Static_assert(__builtin_offsetof(struct hl_shm_header, batch_clock) == 204, "batch_clock");
_Static_assert(__builtin_offsetof(struct hl_shm_header, placement) == 208, "placement");
_Static_assert(__builtin_offsetof(struct hl_shm_header, cpu_set) == 216, "cpu_set");
_Static_assert(__builtin_offsetof(struct hl_shm_header, landlock_len) == 224, "landlock_len");
_Static_assert(__builtin_offsetof(struct hl_shm_header, path) == 256, "path");
_Static_assert(sizeof(struct hl_shm_result) == 64, "result layout");
_Static_assert(__builtin_offsetof(struct hl_shm_result, listener_taken) == 48, "listener_taken");
_Static_assert(__builtin_offsetof(struct hl_shm_result, landlock_abi) == 52, "landlock_abi");

static inline uint64_t hl_align(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/*
 * Validates a header's own fields and computes the layout into *h (progs_off, result_off,
 * samples_off, size). Returns 0, or -1 when the header is not one the runner can carry out.
 * Shared by the library (before it spawns) and the runner (before it trusts the region).
 */
static inline int hl_shm_layout(struct hl_shm_header *h)
{
	uint64_t insns = 0;
	if (h->magic != HL_SHM_MAGIC || h->version != HL_SHM_VERSION)
		return -1;
	if (h->call > HL_CALL_MAX_ || h->mode > HL_MODE_MAX_ || (h->flags & ~HL_F_ALL_))
		return -1;
	if ((h->call == HL_CALL_NONE) != (h->mode == HL_MODE_TIMER))
		return -1;
	if (h->count < 1 || h->count > HL_MAX_COUNT || h->warmup > HL_MAX_COUNT * 16)
		return -1;
	if (h->nprogs > HL_MAX_PROGS || h->cpu < -1 || h->cpu >= 1024 /* CPU_SETSIZE */)
		return -1;
	if (h->cpu_set != 0 && h->cpu != -1)
		return -1;
	if ((h->flags & HL_F_NEW_LISTENER) && h->listener_prog >= h->nprogs)
		return -1;
	if (h->batch_clock > HL_CLOCK_MAX_ || (h->mode != HL_MODE_BATCH && h->batch_clock != 0))
		return -1;
	if ((h->call == HL_CALL_ATTACH || h->call == HL_CALL_FORK_ATTACH) &&
	    (h->nprogs < 1 || (h->flags & HL_F_NEW_LISTENER)))
		return -1;
	if (h->placement >= HL_PLACEMENTS || (h->placement != 0 && !hl_call_placeable(h->call)))
		return -1;
	for (uint32_t i = 0; i < h->nprogs; i++) {
		if (h->prog_len[i] < 1 || h->prog_len[i] > HL_MAX_INSNS)
			return -1;
		insns += h->prog_len[i];
	}
	if (hl_call_names_file(h->call) && (h->path[0] == 0 || memchr(h->path, 0, HL_PATH_MAX) == NULL))
		return -1;
	if (h->path_dir_len != 0 && (!hl_call_names_file(h->call) || h->path_dir_len >= HL_PATH_MAX - 1 ||
				     h->path[h->path_dir_len] != '/' || h->path[h->path_dir_len + 1] == 0))
		return -1;
	if (h->landlock_len % 8 != 0 || h->landlock_len > (1u << 20))
		return -1;
	for (unsigned i = 0; i < sizeof(h->reserved); i++)
		if (h->reserved[i] != 0)
			return -1;
	h->progs_off = HL_SHM_HEADER_SIZE;
	h->result_off = hl_align(HL_SHM_HEADER_SIZE + 8 * insns + h->landlock_len, 64);
	h->samples_off = hl_align(h->result_off + sizeof(struct hl_shm_result), 4096);
	h->size = h->samples_off + 8 * h->count;
	return 0;
}

#endif
