// SPDX-License-Identifier: GPL-2.0
/*
 * The hook's own cost (issue 32, t_hook): an empty program on each attach point the follower uses,
 * attached alone by hf_hook_open (loader.c) in the same run as the follower, so that a row tells
 * what the hook costs every task (the tracepoint enabled, the program entered and left) from what
 * the follower's own work adds to it. Nothing is read, counted or written: unlike hookprobe.bpf.c's
 * programs (which count hits with an atomic add), these return at once. Named hfollow_e_* so that
 * the follower's leftover checks (programs named hfollow_*) cover them too.
 *
 *   tp_btf/sys_enter           design (a)'s hook: every call of every task enters it
 *   fentry/__secure_computing  design (b)'s: only tasks with a seccomp filter (needs BPF trampolines)
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("tp_btf/sys_enter")
int BPF_PROG(hfollow_e_enter)
{
	return 0;
}

SEC("fentry/__secure_computing")
int BPF_PROG(hfollow_e_secc)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
