// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel follower (issue 14): steps a prepared graph (dfa-offsets cells, built in Java by
 * heimdall.lab.follower.KernelTables) for each thread of one followed process, on each of its
 * system calls, and kills the process on the first call the graph does not allow.
 *
 * Two attach designs share one step (follow_call):
 *   hfollow_enter  tp_btf/sys_enter: the raw syscall-entry tracepoint; every task on the host runs
 *                  it (and pays the tgid test) while it is attached.
 *   hfollow_secc   fentry/__secure_computing: reached only by tasks with a seccomp filter
 *                  (SYSCALL_WORK_SECCOMP), so a process without a floor never enters it.
 * Both see the call at entry, before it runs. bpf_send_signal(SIGKILL) cannot stop the call already
 * under way: the call completes and the kill lands as it returns to user space.
 *
 * Tables (read-only for programs: BPF_F_RDONLY_PROG, frozen by the loader after filling):
 *   cells[row + nr]  destination row offset | TERMINAL_BIT, or DENY (-1), or POP (-2: an allowed
 *                    rt_sigreturn ending a signal frame). A row is `columns` cells wide.
 *   sig_start[sig]   the row offset a handled delivery of signal `sig` (1..64) pushes, or -1 (no entry).
 *   child_start[st]  for a state `st` that a clone/clone3 call leads to: the row offset of the thread
 *                    role that call site creates (heimdall.lab.follower.ThreadRoles), or -1 where the
 *                    state does not name one creating site (an unidentified child: thread_start).
 * Each thread's cursor and its saved frames live in task-local storage (cursors). A thread created
 * while its process is followed gets its cursor at creation (task_newtask, in the creator's context),
 * at the role its creator's last clone/clone3 step named: threads take roles by their creating call
 * site. A thread with no cursor yet (it existed before the follower) gets one on its first followed
 * event: the main thread at main_start, any other at thread_start (the union of the thread roles).
 * Nothing is followed before the process's exec (sched_process_exec arms it): the graphs are
 * recorded from the first call after exec. (A cost measurement arms at once instead.)
 *
 * Kept without vmlinux.h: the few kernel types read are declared below with
 * preserve_access_index, so libbpf relocates their fields against the running kernel's BTF.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "follower.h"

struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

#define CLONE_THREAD 0x00010000

struct pt_regs {
	unsigned long orig_ax;
} __attribute__((preserve_access_index));

struct sigaction {
	void *sa_handler;
} __attribute__((preserve_access_index));

struct k_sigaction {
	struct sigaction sa;
} __attribute__((preserve_access_index));

struct kernel_siginfo;
struct linux_binprm;

#define SIGKILL 9
#define SIG_DFL ((void *)0)
#define SIG_IGN ((void *)1)

/* Set by the loader before load (read-only data). */
const volatile __s32 main_start = 0;
const volatile __s32 thread_start = 0;
const volatile __u32 columns = 1;
const volatile __u32 rows = 1;
/*
 * Where a followed call's step stops (HF_STEP_*): HF_STEP_FULL but in a cost measurement's variants, which
 * stop after a part of it so that its own work is split by part (the loader refuses a short step to a
 * follower armed at exec). Read-only data: the verifier knows the value and drops the code past the stop.
 */
const volatile __u32 step = HF_STEP_FULL;

/*
 * Set by the loader before attach: the followed process. Data rather than read-only so that a cost
 * measurement can attach first and point the follower at a child it spawns next (hf_follow).
 */
__u32 followed_tgid = 0;

/* Written by the programs, read by the loader (mmapped bss). */
struct hf_stats stats = {};

/*
 * The calls stepped, per CPU (summed by the loader): a followed call adds 1 to its CPU's count with a plain
 * add. A global count would need a locked add on one cache line for every followed call (a full barrier on
 * the syscall path, on a line every CPU running a followed thread would bounce: the counters part of issue
 * 32's split by step). The plain add loses nothing: the program never runs twice at once on one CPU (both
 * hooks sit on the system call's entry, which does not nest; the tracepoint runs it with preemption off, and a
 * run that would nest is skipped by the program's per-CPU recursion guard, prog->active: on fentry since 5.12,
 * on raw tracepoints since 6.2), and it keeps its CPU while it runs (migration off).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} calls SEC(".maps");
__u32 armed = 0;
__u32 killed = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__type(key, __u32);
	__type(value, __s32);
	__uint(max_entries, 1); /* resized by the loader to rows * columns */
} cells SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__type(key, __u32);
	__type(value, __s32);
	__uint(max_entries, HF_SIGNALS);
} sig_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__type(key, __u32);
	__type(value, __s32);
	__uint(max_entries, 1); /* resized by the loader to rows */
} child_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct hf_cursor);
} cursors SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096 * 4);
} events SEC(".maps");

static __always_inline int followed(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == followed_tgid && armed;
}

static __always_inline struct hf_cursor *cursor_of(struct task_struct *task)
{
	struct hf_cursor *c = bpf_task_storage_get(&cursors, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!c)
		return 0;
	if (!c->live) {
		/* The thread's first followed event: its entry by role (main, or a thread it made). */
		c->start = BPF_CORE_READ(task, pid) == BPF_CORE_READ(task, tgid) ? main_start : thread_start;
		c->cur = c->start;
		c->child = thread_start;
		c->depth = 0;
		c->live = 1;
	}
	return c;
}

/*
 * Reports the rejected event and kills the whole process; later events are only counted. c is NULL
 * when the thread's cursor could not be had (state -1): that fails closed too.
 */
static __always_inline void reject(struct task_struct *task, struct hf_cursor *c, __u32 kind, __s32 what)
{
	struct hf_event *e;

	if (__sync_fetch_and_add(&killed, 1) == 0) {
		bpf_send_signal(SIGKILL);
		e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
		if (e) {
			e->kind = kind;
			e->tid = BPF_CORE_READ(task, pid);
			e->tgid = BPF_CORE_READ(task, tgid);
			e->what = what;
			e->state = c ? (__s32)((__u32)c->cur / columns) : -1;
			e->depth = c ? c->depth : 0;
			e->calls = c ? c->calls : 0;
			bpf_ringbuf_submit(e, 0);
		}
	}
}

static __always_inline void follow_call(long nr)
{
	struct task_struct *task;
	struct hf_cursor *c;
	__s32 *cell;
	__u64 *stepped;
	__u32 zero = 0;
	__s32 d;
	__u32 idx;

	if (!followed())
		return;
	if (killed) {
		/* Calls that still begin after the kill was sent: the figure the issue asks for. */
		__sync_fetch_and_add(&stats.calls_after_kill, 1);
		return;
	}
	if (step == HF_STEP_CHECK)
		return;
	task = bpf_get_current_task_btf();
	c = cursor_of(task);
	if (!c) {
		/* No cursor (task storage could not be allocated): never a call let through unjudged. */
		reject(task, 0, HF_EVENT_CALL, nr);
		return;
	}
	if (step == HF_STEP_CURSOR)
		return;
	stepped = bpf_map_lookup_elem(&calls, &zero);
	if (stepped)
		*stepped += 1;
	c->calls++;
	if (step == HF_STEP_COUNTERS)
		return;
	if (nr < 0 || nr >= columns || c->cur < 0) {
		reject(task, c, HF_EVENT_CALL, nr);
		return;
	}
	idx = (__u32)c->cur + (__u32)nr;
	cell = bpf_map_lookup_elem(&cells, &idx);
	d = cell ? *cell : HF_DENY;
	if (d >= 0 && (nr == HF_CLONE || nr == HF_CLONE3)) {
		/* The creating call site, as far as the graph can tell it: the state this call leads to. */
		__u32 st = ((__u32)d & ~(__u32)HF_TERMINAL_BIT) / columns;
		__s32 *cs = bpf_map_lookup_elem(&child_start, &st);
		c->child = cs && *cs >= 0 ? *cs : thread_start;
	}
	if (d >= 0) {
		if (d & HF_TERMINAL_BIT) {
			/* A terminal call: the thread's path ended; a new one starts at its entry. */
			c->cur = c->start;
			c->depth = 0;
		} else {
			c->cur = d;
		}
		return;
	}
	if (d == HF_POP && c->depth > 0) {
		c->depth--;
		c->cur = c->frames[c->depth & (HF_DEPTH - 1)];
		return;
	}
	reject(task, c, HF_EVENT_CALL, nr);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(hfollow_enter, struct pt_regs *regs, long id)
{
	follow_call(id);
	return 0;
}

SEC("fentry/__secure_computing")
int BPF_PROG(hfollow_secc)
{
	struct pt_regs *regs;

	if (!followed())
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	follow_call((long)BPF_CORE_READ(regs, orig_ax));
	return 0;
}

/* A delivery that runs a handler pushes a frame at the signal's entry (rt_sigreturn pops it). */
SEC("tp_btf/signal_deliver")
int BPF_PROG(hfollow_sig, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct task_struct *task;
	struct hf_cursor *c;
	void *handler;
	__s32 *start;
	__u32 key;

	if (!followed() || killed)
		return 0;
	handler = BPF_CORE_READ(ka, sa.sa_handler);
	if (handler == SIG_DFL || handler == SIG_IGN)
		return 0; /* no handler runs: no frame (the recorder opens none either) */
	task = bpf_get_current_task_btf();
	c = cursor_of(task);
	if (!c) {
		reject(task, 0, HF_EVENT_SIGNAL, sig);
		return 0;
	}
	key = (__u32)sig;
	start = key < HF_SIGNALS ? bpf_map_lookup_elem(&sig_start, &key) : 0;
	if (!start || *start < 0 || c->depth >= HF_DEPTH) {
		reject(task, c, HF_EVENT_SIGNAL, sig);
		return 0;
	}
	c->frames[c->depth & (HF_DEPTH - 1)] = c->cur;
	c->depth++;
	c->cur = *start;
	__sync_fetch_and_add(&stats.signals, 1);
	return 0;
}

/*
 * A thread of the followed process is being created (in its creator's context): it starts at the role
 * its creator's clone/clone3 step named, from its first call on. Processes it forks are not followed.
 */
SEC("tp_btf/task_newtask")
int BPF_PROG(hfollow_newtask, struct task_struct *task, __u64 clone_flags)
{
	struct hf_cursor *creator, *c;

	if (!followed() || killed || !(clone_flags & CLONE_THREAD))
		return 0;
	creator = cursor_of(bpf_get_current_task_btf());
	c = bpf_task_storage_get(&cursors, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!c) {
		/* No cursor for the new thread: its first call would get the union; fail closed instead. */
		reject(bpf_get_current_task_btf(), creator, HF_EVENT_CALL, creator ? HF_CLONE3 : -1);
		return 0;
	}
	c->start = creator ? creator->child : thread_start;
	c->cur = c->start;
	c->child = thread_start;
	c->depth = 0;
	c->calls = 0;
	c->live = 1;
	if (creator)
		creator->child = thread_start; /* one creation per clone step */
	return 0;
}

/* The followed process's exec: from its next call on, its main thread follows the graph. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(hfollow_exec, struct task_struct *p, int old_pid, struct linux_binprm *bprm)
{
	struct hf_cursor *c;

	if ((bpf_get_current_pid_tgid() >> 32) != followed_tgid || armed)
		return 0;
	c = bpf_task_storage_get(&cursors, bpf_get_current_task_btf(), 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (c) {
		c->start = main_start;
		c->cur = main_start;
		c->child = thread_start;
		c->depth = 0;
		c->live = 1;
	}
	armed = 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
