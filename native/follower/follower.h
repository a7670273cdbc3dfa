/* Shared by the kernel follower's BPF program and its loader (libheimdall-follower.so). */
#ifndef HEIMDALL_FOLLOWER_H
#define HEIMDALL_FOLLOWER_H

/* The loader's ABI (hf_abi_version): FollowerNative.ABI checks it at load. */
#define HF_ABI 7

/* The hooks a follower is attached to (hf_open's and hf_hook_open's `hook`; heimdall.lab.follower.Hook). */
#define HF_HOOK_SYSCALL_TRACEPOINT 0 /* tp_btf/sys_enter */
#define HF_HOOK_SECCOMP_FENTRY 1 /* fentry/__secure_computing */

/*
 * Where a followed call's step stops (hf_open's `step`; heimdall.lab.follower.FollowStep): a cost
 * measurement loads the same object stopped after each part of the step, so that its own work can be
 * split by part in one run (issue 32). Only HF_STEP_FULL judges a call: the loader refuses the others
 * for a follower armed at exec, the one that follows a real run.
 */
#define HF_STEP_CHECK 1 /* followed(): the process id compare and armed, then the killed test */
#define HF_STEP_CURSOR 2 /* + the task and its cursor in task storage (created at the first call) */
#define HF_STEP_COUNTERS 3 /* + the calls counters (all threads' count, the thread's own) */
#define HF_STEP_FULL 4 /* + the bounds checks, the cell lookup, the clone branch, the cursor's move */

#define HF_CLONE 56
#define HF_CLONE3 435
#define HF_DEPTH 8 /* signal frames a thread can hold (a power of two) */
#define HF_SIGNALS 65 /* signal numbers 0..64 */
#define HF_DENY (-1)
#define HF_POP (-2)
#define HF_TERMINAL_BIT 0x40000000 /* set in a cell whose destination state is terminal */

#define HF_EVENT_CALL 1 /* a call the graph does not allow */
#define HF_EVENT_SIGNAL 2 /* a handled signal with no entry, or too many open frames */

struct hf_cursor {
	__s32 cur; /* the current frame's row offset */
	__s32 start; /* the thread's entry (row offset) */
	/* where the next thread this one creates starts (row offset): set by its clone/clone3 step from
	 * child_start, used and reset by task_newtask */
	__s32 child;
	__u32 depth; /* open signal frames */
	__u32 live;
	__u64 calls; /* calls this thread made while followed */
	__s32 frames[HF_DEPTH]; /* the interrupted frames' row offsets */
};

struct hf_event {
	__u32 kind; /* HF_EVENT_* */
	__u32 tid;
	__u32 tgid;
	__s32 what; /* the syscall number, or the signal number */
	__s32 state; /* the state the thread was in (row offset / columns) */
	__u32 depth;
	__u64 calls; /* the thread's followed calls, the rejected one included */
};

/* The calls stepped are counted apart, per CPU (the program's `calls` map, summed by the loader). */
struct hf_stats {
	__u64 signals; /* frames pushed */
	__u64 calls_after_kill; /* calls of the followed process that began after the kill was sent */
};

#endif
