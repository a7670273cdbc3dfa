/*
 * libheimdall-follower.so: loads the kernel follower (follower.bpf.c, embedded as a libbpf skeleton)
 * for one process, and spawns a child held before its exec so the follower is attached before the
 * first call it must judge. Driven from Java (heimdall.lab.follower) through JNA with primitive
 * arguments only.
 *
 * Lifetime: every program is attached through a BPF link and every map is held by a file
 * descriptor of this process; nothing is pinned. When the process ends, even by SIGKILL, the
 * kernel closes the descriptors, detaches the links and frees the programs and maps.
 * A spawned child gets PR_SET_PDEATHSIG(SIGKILL), so it does not outlive its parent either.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "follower.h"
#include "follower.skel.h"
#include "hookprobe.skel.h"
#include "hookempty.skel.h"

#define LOG_SIZE (1 << 20)

struct hf {
	struct follower *skel;
	int hook; /* HF_HOOK_*: which program is loaded and attached */
	struct ring_buffer *rb;
	int32_t *out; /* where the ring-buffer callback copies events during hf_poll */
	int out_max;
	int out_n;
	long dropped; /* events that did not fit the caller's array */
};

int32_t hf_abi_version(void)
{
	return HF_ABI;
}

static void say(char *err, int32_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, (size_t)errlen, fmt, ap);
	va_end(ap);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct hf *h = ctx;
	const struct hf_event *e = data;

	if (size < sizeof(*e))
		return 0;
	if (h->out_n >= h->out_max) {
		h->dropped++;
		return 0;
	}
	int32_t *o = h->out + h->out_n * 8;
	o[0] = (int32_t)e->kind;
	o[1] = (int32_t)e->tid;
	o[2] = (int32_t)e->tgid;
	o[3] = e->what;
	o[4] = e->state;
	o[5] = (int32_t)e->depth;
	o[6] = (int32_t)(e->calls & 0xffffffffu);
	o[7] = (int32_t)(e->calls >> 32);
	h->out_n++;
	return 0;
}

static int fill(int fd, const int32_t *values, uint32_t n)
{
	const uint32_t chunk = 65536;
	uint32_t *keys = malloc(sizeof(uint32_t) * (n < chunk ? n : chunk));

	if (!keys)
		return -ENOMEM;
	for (uint32_t at = 0; at < n; at += chunk) {
		uint32_t count = n - at < chunk ? n - at : chunk;
		for (uint32_t i = 0; i < count; i++)
			keys[i] = at + i;
		DECLARE_LIBBPF_OPTS(bpf_map_batch_opts, opts);
		if (bpf_map_update_batch(fd, keys, values + at, &count, &opts) != 0) {
			int e = -errno;
			free(keys);
			return e;
		}
	}
	free(keys);
	return 0;
}

/*
 * Loads and attaches the follower for process `tgid`, followed from its next exec on, or with arm_now
 * from its next call.
 * cells: rows * columns dfa-offsets cells; sig_starts: HF_SIGNALS row offsets or -1; child_starts:
 * rows row offsets or -1 (the role a clone/clone3 call leading to that state creates).
 * step: HF_STEP_FULL, or for a cost measurement (arm_now) where a followed call's step stops (HF_STEP_*):
 * a follower stopped short judges nothing, so one armed at exec (a real run's) is refused it.
 * Returns a handle (> 0), or -errno with the reason (and the verifier's log when it rejected a
 * program) in err.
 */
int64_t hf_open(int32_t tgid, int32_t arm_now, int32_t hook, int32_t step, const int32_t *cells, int32_t ncells,
		int32_t columns, int32_t main_start, int32_t thread_start, const int32_t *sig_starts,
		const int32_t *child_starts, char *err, int32_t errlen)
{
	struct hf *h = NULL;
	char *log = NULL;
	int rc;

	if (ncells <= 0 || columns <= 0 || ncells % columns != 0 || tgid <= 0) {
		say(err, errlen, "bad tables: %d cells, %d columns, tgid %d", ncells, columns, tgid);
		return -EINVAL;
	}
	if (hook != HF_HOOK_SYSCALL_TRACEPOINT && hook != HF_HOOK_SECCOMP_FENTRY) {
		say(err, errlen, "no such hook: %d", hook);
		return -EINVAL;
	}
	if (step < HF_STEP_CHECK || step > HF_STEP_FULL || (step != HF_STEP_FULL && !arm_now)) {
		say(err, errlen,
		    "step %d: a follower stopped short of the full step (%d) judges nothing, so only a cost "
		    "measurement (armed at once) may load one",
		    step, HF_STEP_FULL);
		return -EINVAL;
	}
	h = calloc(1, sizeof(*h));
	log = calloc(1, LOG_SIZE);
	if (!h || !log) {
		say(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto fail;
	}
	/* The reasons go into err, not onto the JVM's stderr (HEIMDALL_FOLLOWER_DEBUG=1 shows libbpf's). */
	if (!getenv("HEIMDALL_FOLLOWER_DEBUG"))
		libbpf_set_print(NULL);
	DECLARE_LIBBPF_OPTS(bpf_object_open_opts, oo, .kernel_log_buf = log, .kernel_log_size = LOG_SIZE,
			    .kernel_log_level = getenv("HEIMDALL_FOLLOWER_DEBUG") ? 1 : 0);
	h->hook = hook;
	h->skel = follower__open_opts(&oo);
	if (!h->skel) {
		rc = -errno;
		say(err, errlen, "cannot open the BPF object: %s", strerror(errno));
		goto fail;
	}
	h->skel->rodata->main_start = main_start;
	h->skel->rodata->thread_start = thread_start;
	h->skel->rodata->columns = (uint32_t)columns;
	h->skel->rodata->rows = (uint32_t)(ncells / columns);
	h->skel->rodata->step = (uint32_t)step;
	bpf_program__set_autoload(h->skel->progs.hfollow_enter, hook == HF_HOOK_SYSCALL_TRACEPOINT);
	bpf_program__set_autoload(h->skel->progs.hfollow_secc, hook == HF_HOOK_SECCOMP_FENTRY);
	if ((rc = bpf_map__set_max_entries(h->skel->maps.cells, (uint32_t)ncells)) != 0) {
		say(err, errlen, "cannot size the cells map to %d entries: %s", ncells, strerror(-rc));
		goto fail;
	}
	if ((rc = bpf_map__set_max_entries(h->skel->maps.child_start, (uint32_t)(ncells / columns))) != 0) {
		say(err, errlen, "cannot size the child_start map to %d entries: %s", ncells / columns, strerror(-rc));
		goto fail;
	}
	if ((rc = follower__load(h->skel)) != 0) {
		if (log[0])
			say(err, errlen, "the verifier rejected the follower (%s); its log:\n%s", strerror(-rc), log);
		else
			say(err, errlen, "the kernel refused to load the follower (%s) before verifying it",
			    strerror(-rc));
		goto fail;
	}
	if ((rc = fill(bpf_map__fd(h->skel->maps.cells), cells, (uint32_t)ncells)) != 0 ||
	    (rc = fill(bpf_map__fd(h->skel->maps.sig_start), sig_starts, HF_SIGNALS)) != 0 ||
	    (rc = fill(bpf_map__fd(h->skel->maps.child_start), child_starts, (uint32_t)(ncells / columns))) != 0) {
		say(err, errlen, "cannot fill the tables: %s", strerror(-rc));
		goto fail;
	}
	/* Frozen: from here on not even this process can change the tables the programs read. */
	if (bpf_map_freeze(bpf_map__fd(h->skel->maps.cells)) != 0 ||
	    bpf_map_freeze(bpf_map__fd(h->skel->maps.sig_start)) != 0 ||
	    bpf_map_freeze(bpf_map__fd(h->skel->maps.child_start)) != 0) {
		rc = -errno;
		say(err, errlen, "cannot freeze the tables: %s", strerror(errno));
		goto fail;
	}
	h->skel->bss->followed_tgid = (uint32_t)tgid;
	h->skel->bss->armed = arm_now ? 1 : 0;
	h->rb = ring_buffer__new(bpf_map__fd(h->skel->maps.events), on_event, h, NULL);
	if (!h->rb) {
		rc = -errno;
		say(err, errlen, "cannot open the event ring buffer: %s", strerror(errno));
		goto fail;
	}
	if ((rc = follower__attach(h->skel)) != 0) {
		say(err, errlen, "cannot attach the follower's %s: %s",
		    hook == HF_HOOK_SECCOMP_FENTRY ? "fentry on __secure_computing" : "tp_btf/sys_enter",
		    strerror(-rc));
		goto fail;
	}
	free(log);
	return (int64_t)(intptr_t)h;
fail:
	if (h) {
		ring_buffer__free(h->rb);
		follower__destroy(h->skel);
		free(h);
	}
	free(log);
	return rc < 0 ? rc : -EINVAL;
}

/*
 * Copies up to max pending events into out (8 ints each: kind, tid, tgid, what, state, depth,
 * calls low, calls high), waiting up to timeout_ms for the first. Returns the count or -errno.
 */
int32_t hf_poll(int64_t handle, int32_t *out, int32_t max, int32_t timeout_ms)
{
	struct hf *h = (struct hf *)(intptr_t)handle;
	int rc;

	h->out = out;
	h->out_max = max;
	h->out_n = 0;
	rc = ring_buffer__poll(h->rb, timeout_ms);
	h->out = NULL;
	if (rc < 0 && rc != -EINTR)
		return rc;
	return h->out_n;
}

/*
 * out: calls, signals, calls_after_kill, armed, killed, dropped events. The calls are the sum of the
 * program's per-CPU counts. Returns 0, or -errno when the counts could not be read (out untouched).
 */
int32_t hf_stats(int64_t handle, int64_t *out)
{
	struct hf *h = (struct hf *)(intptr_t)handle;
	volatile struct follower__bss *b = h->skel->bss;
	int cpus = libbpf_num_possible_cpus();
	uint32_t zero = 0;
	uint64_t *per_cpu, calls = 0;

	if (cpus <= 0)
		return cpus < 0 ? cpus : -EINVAL;
	per_cpu = calloc((size_t)cpus, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	if (bpf_map__lookup_elem(h->skel->maps.calls, &zero, sizeof(zero), per_cpu, sizeof(*per_cpu) * (size_t)cpus,
				 0) != 0) {
		int e = -errno;
		free(per_cpu);
		return e;
	}
	for (int i = 0; i < cpus; i++)
		calls += per_cpu[i];
	free(per_cpu);
	out[0] = (int64_t)calls;
	out[1] = (int64_t)b->stats.signals;
	out[2] = (int64_t)b->stats.calls_after_kill;
	out[3] = b->armed;
	out[4] = b->killed;
	out[5] = h->dropped;
	return 0;
}

/* Points an armed follower at another process (for cost measurements: attach first, spawn next). */
void hf_follow(int64_t handle, int32_t tgid)
{
	struct hf *h = (struct hf *)(intptr_t)handle;

	__atomic_store_n(&h->skel->bss->followed_tgid, (uint32_t)tgid, __ATOMIC_SEQ_CST);
}

/*
 * Turns on the kernel's run-time statistics of BPF programs (BPF_ENABLE_STATS, BPF_STATS_RUN_TIME) for
 * as long as the returned descriptor is open (hf_close_fd). Returns the descriptor or -errno.
 */
int32_t hf_enable_stats(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	return fd < 0 ? -errno : fd;
}

int32_t hf_close_fd(int32_t fd)
{
	return close(fd) == 0 ? 0 : -errno;
}

/*
 * The attached step program's statistics as the kernel counts them (bpf_prog_info; counted only while
 * statistics are on): out[0] run_time_ns, out[1] run_cnt. Returns 0 or -errno.
 */
static int32_t prog_stats(int fd, int64_t *out)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	if (fd < 0)
		return -EBADF;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) != 0)
		return -errno;
	out[0] = (int64_t)info.run_time_ns;
	out[1] = (int64_t)info.run_cnt;
	return 0;
}

int32_t hf_prog_stats(int64_t handle, int64_t *out)
{
	struct hf *h = (struct hf *)(intptr_t)handle;
	struct bpf_program *p = h->hook == HF_HOOK_SECCOMP_FENTRY ? h->skel->progs.hfollow_secc :
								    h->skel->progs.hfollow_enter;

	return prog_stats(bpf_program__fd(p), out);
}

/* Detaches and frees everything (idempotent per handle: the caller forgets the handle). */
void hf_close(int64_t handle)
{
	struct hf *h = (struct hf *)(intptr_t)handle;

	if (!h)
		return;
	ring_buffer__free(h->rb);
	follower__destroy(h->skel);
	free(h);
}

/*
 * Forks a child that waits on a gate before exec'ing path with argv (NULL-terminated). With floor,
 * the child installs an allow-everything seccomp filter first (a floor that decides nothing, so the
 * seccomp hook is reached). Returns the pid and puts the gate's write end in *gate, or -errno.
 * The child dies with its parent (PR_SET_PDEATHSIG: with the calling *thread*, so the caller keeps that
 * thread until the child is reaped, as FollowedRun.run does) and exits 127 if the gate closes unopened.
 */
int32_t hf_spawn(const char *path, char *const *argv, int32_t floor, int32_t *gate)
{
	int p[2];
	pid_t parent = getpid();

	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		char go;
		close(p[1]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (read(p[0], &go, 1) != 1)
			_exit(127);
		if (floor) {
			struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
			struct sock_fprog prog = { .len = 1, .filter = allow };
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
			    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
				_exit(126);
		}
		execv(path, argv);
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

/* Opens the gate: the child execs. */
int32_t hf_release(int32_t gate)
{
	char go = 1;
	int rc = write(gate, &go, 1) == 1 ? 0 : -errno;
	close(gate);
	return rc;
}

/* Closes the gate unopened: the child exits 127 without exec'ing. */
int32_t hf_close_gate(int32_t gate)
{
	return close(gate) == 0 ? 0 : -errno;
}

/*
 * Waits up to timeout_ms for child pid; 1 with its wait status in *status, 0 if it still runs,
 * -errno. A negative timeout waits without bound.
 */
int32_t hf_wait(int32_t pid, int32_t timeout_ms, int32_t *status)
{
	struct timespec nap = { 0, 1000000 };
	long waited = 0;

	for (;;) {
		int st;
		pid_t r = waitpid(pid, &st, timeout_ms < 0 ? 0 : WNOHANG);
		if (r == pid) {
			*status = st;
			return 1;
		}
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r == 0) {
			if (waited >= timeout_ms)
				return 0;
			nanosleep(&nap, NULL);
			waited++;
		}
	}
}

/* SIGKILL to a child (for cleanup). */
int32_t hf_kill(int32_t pid)
{
	return kill(pid, SIGKILL) == 0 ? 0 : -errno;
}

/*
 * The hook probe (design b's evidence): loads program `which` of hookprobe.bpf.c alone (0 fentry on
 * __secure_computing, 1 fexit on it, 2 fentry on bpf_fentry_test1, 3 lsm/file_open, 4 tp_btf/sys_enter,
 * 5 raw_tp/sys_enter) with a verifier log, then attaches it, then detaches and frees it at once.
 * out[0]: 0 when the program loaded, else the load's errno; out[1]: 0 when it attached, the attach's
 * errno, or -1 when no attach was tried (the load failed); out[2]: bytes of verifier log. The log
 * (NUL-terminated, cut to loglen) goes to log. Returns 0, or -EINVAL for an unknown `which`.
 */
#define HF_PROBES 6
int32_t hf_probe_hook(int32_t which, int32_t *out, char *log, int32_t loglen)
{
	struct hookprobe *skel;
	struct bpf_program *progs[HF_PROBES];
	struct bpf_link *link;
	char *buf;
	int rc;

	if (which < 0 || which >= HF_PROBES || loglen <= 0)
		return -EINVAL;
	buf = calloc(1, LOG_SIZE);
	if (!buf)
		return -ENOMEM;
	if (!getenv("HEIMDALL_FOLLOWER_DEBUG"))
		libbpf_set_print(NULL);
	skel = hookprobe__open();
	if (!skel) {
		out[0] = errno;
		out[1] = -1;
		out[2] = 0;
		snprintf(log, (size_t)loglen, "cannot open the probe object: %s", strerror(errno));
		free(buf);
		return 0;
	}
	progs[0] = skel->progs.hfollow_p_fentry_secc;
	progs[1] = skel->progs.hfollow_p_fexit_secc;
	progs[2] = skel->progs.hfollow_p_fentry_trivial;
	progs[3] = skel->progs.hfollow_p_lsm;
	progs[4] = skel->progs.hfollow_p_tp_btf;
	progs[5] = skel->progs.hfollow_p_raw_tp;
	for (int i = 0; i < HF_PROBES; i++)
		bpf_program__set_autoload(progs[i], i == which);
	bpf_program__set_log_buf(progs[which], buf, LOG_SIZE);
	bpf_program__set_log_level(progs[which], 1);
	rc = hookprobe__load(skel);
	out[0] = rc ? -rc : 0;
	out[1] = -1;
	if (!rc) {
		link = bpf_program__attach(progs[which]);
		if (!link) {
			out[1] = errno;
		} else {
			out[1] = 0;
			bpf_link__destroy(link);
		}
	}
	out[2] = (int32_t)strlen(buf);
	snprintf(log, (size_t)loglen, "%s", buf);
	hookprobe__destroy(skel);
	free(buf);
	return 0;
}

/*
 * t_hook (issue 32): loads hookempty.bpf.c's empty program for `hook` (HF_HOOK_*) alone and attaches it
 * through a link, so that a run can time what the hook itself costs, apart from the follower's work.
 * Returns a handle (> 0) for hf_hook_close, or -errno with the step the kernel refused in err.
 */
int64_t hf_hook_open(int32_t hook, char *err, int32_t errlen)
{
	struct hookempty *skel;
	struct bpf_program *p;
	int rc;

	if (hook != HF_HOOK_SYSCALL_TRACEPOINT && hook != HF_HOOK_SECCOMP_FENTRY) {
		say(err, errlen, "no such hook: %d", hook);
		return -EINVAL;
	}
	if (!getenv("HEIMDALL_FOLLOWER_DEBUG"))
		libbpf_set_print(NULL);
	skel = hookempty__open();
	if (!skel) {
		rc = -errno;
		say(err, errlen, "cannot open the empty program's object: %s", strerror(errno));
		return rc < 0 ? rc : -EINVAL;
	}
	p = hook == HF_HOOK_SECCOMP_FENTRY ? skel->progs.hfollow_e_secc : skel->progs.hfollow_e_enter;
	bpf_program__set_autoload(skel->progs.hfollow_e_enter, hook == HF_HOOK_SYSCALL_TRACEPOINT);
	bpf_program__set_autoload(skel->progs.hfollow_e_secc, hook == HF_HOOK_SECCOMP_FENTRY);
	if ((rc = hookempty__load(skel)) != 0) {
		say(err, errlen, "the kernel refused to load the empty program on %s (%s)",
		    bpf_program__section_name(p), strerror(-rc));
		hookempty__destroy(skel);
		return rc;
	}
	if ((rc = hookempty__attach(skel)) != 0) {
		say(err, errlen, "cannot attach the empty program on %s: %s", bpf_program__section_name(p),
		    strerror(-rc));
		hookempty__destroy(skel);
		return rc;
	}
	return (int64_t)(intptr_t)skel;
}

/*
 * The empty program's statistics as the kernel counts them, like hf_prog_stats for the follower's
 * step program (counted only while statistics are on): out[0] run_time_ns, out[1] run_cnt. The
 * handle's one loaded program is the hook's (hf_hook_open loads only that one). Returns 0 or -errno.
 */
int32_t hf_hook_stats(int64_t handle, int64_t *out)
{
	struct hookempty *skel = (struct hookempty *)(intptr_t)handle;
	int fd;

	if (handle <= 0)
		return -EINVAL;
	fd = bpf_program__fd(skel->progs.hfollow_e_enter);
	if (fd < 0)
		fd = bpf_program__fd(skel->progs.hfollow_e_secc);
	return prog_stats(fd, out);
}

/* Detaches and frees an empty program of hf_hook_open. */
void hf_hook_close(int64_t handle)
{
	if (handle > 0)
		hookempty__destroy((struct hookempty *)(intptr_t)handle);
}
