// SPDX-License-Identifier: GPL-2.0
/*
 * The hook probe (issue 14, design b): one trivial program per kind of attach point the kernel
 * follower could use, each loaded and attached on its own by hf_probe_hook (loader.c) to record
 * which step the running kernel refuses (program load or attach), with which errno and verifier
 * log. The programs only count; none is ever left attached. Named hfollow_p_* so that the
 * follower's leftover checks (programs named hfollow_*) cover them too.
 *
 *   fentry/__secure_computing  reached only by tasks with a seccomp filter (design b's hook)
 *   fexit/__secure_computing   the same function, on return
 *   fentry/bpf_fentry_test1    a trivial function made for fentry tests: tells a refusal of the
 *                              target apart from a refusal of BPF trampolines as such
 *   lsm/file_open              a BPF LSM hook (also a trampoline); every task opening a file
 *                              reaches it, so it is no "only filtered tasks" point either way
 *   tp_btf/sys_enter           the raw syscall-entry tracepoint (design a), BTF-typed
 *   raw_tp/sys_enter           the same tracepoint, untyped
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 hits = 0;

SEC("fentry/__secure_computing")
int BPF_PROG(hfollow_p_fentry_secc)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fexit/__secure_computing")
int BPF_PROG(hfollow_p_fexit_secc)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(hfollow_p_fentry_trivial)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("lsm/file_open")
int BPF_PROG(hfollow_p_lsm)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(hfollow_p_tp_btf)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("raw_tp/sys_enter")
int hfollow_p_raw_tp(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
