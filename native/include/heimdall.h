/*
 * libheimdall: the entry points the JVM calls through JNA (direct mapping, primitive arguments and
 * primitive arrays only). Errors come back as negative errno values, never through errno.
 */
#ifndef HEIMDALL_H
#define HEIMDALL_H

#include <stdint.h>

/* The ABI of these entry points: hl_abi_version() returns it, NativeLib.ABI_VERSION must equal it. */
#define HL_ABI_VERSION 4

/* Indices into the results array filled by hl_run_wait(). */
enum hl_result_index {
	HL_R_HOW = 0, /* 1 exited, 2 killed by a signal, 3 killed and dumped core */
	HL_R_CODE = 1, /* exit status or signal number */
	HL_R_CPU = 2, /* CPU granted, -1 if never known */
	HL_R_PHASE = 3, /* HL_PHASE_* last published */
	HL_R_PROG = 4, /* program index while installing */
	HL_R_SETUP_ERRNO = 5, /* errno of the failed setup step */
	HL_R_LAST_RET = 6,
	HL_R_LAST_ERRNO = 7,
	HL_R_BATCH_NS = 8,
	HL_R_DONE = 9, /* measured calls completed: samples[0..done) are valid */
	HL_R_LANDLOCK_ABI = 10, /* the Landlock ABI the runner's kernel answered, 0 for none or not asked */
	HL_R_LANDLOCK_STEP = 11, /* enum hl_landlock_step: where building the ruleset stopped, 0 for none */
	HL_R_LEN = 12,
};

int hl_abi_version(void);

/* Landlock (lib/landlock.c): the ABI the kernel answers (>= 1) or -errno; and the rights ABI abi knows,
 * which = 0 file system, 1 network, 2 scopes, 3 the newest ABI known (hl_landlock.h). */
int32_t hl_landlock_abi_now(void);
int64_t hl_landlock_known(int32_t abi, int32_t which);

/* Spawns heimdall-runner at runner_path for the spec (header + programs, see heimdall_shm.h).
 * Returns a handle (> 0) or -errno; -EINVAL for a spec the runner could not carry out. */
int64_t hl_run_spawn(const char *runner_path, const void *spec, int32_t spec_len);
/* The runner's listener descriptor (O_CLOEXEC in this process), or -ETIMEDOUT, or -EPIPE when the
 * runner went away without handing it over. The caller owns the descriptor. */
int32_t hl_run_listener(int64_t handle, int32_t timeout_ms);
/* Reaps the runner and copies out samples and results; 0 or -errno. Call at most once. */
int32_t hl_run_wait(int64_t handle, int64_t *samples, int32_t samples_len, int64_t *results, int32_t results_len);
/* SIGKILL through the pidfd (no pid reuse race); 0, or -errno (-ESRCH once reaped). */
int32_t hl_run_kill(int64_t handle);
int32_t hl_run_pid(int64_t handle);
/* The phase the runner has published so far (HL_PHASE_*), read while it runs. */
int32_t hl_run_phase(int64_t handle);
/* 1 while the runner runs, 0 once it has exited (reaped or not): its pidfd has become readable. */
int32_t hl_run_alive(int64_t handle);
/* Releases the handle: kills and reaps the runner if wait was not called. */
void hl_run_free(int64_t handle);

int32_t hl_close(int32_t fd);
/* fcntl(F_GETFD): the descriptor's flags, or -errno (-EBADF when not open). */
int32_t hl_fd_flags(int32_t fd);
/* Pins the calling thread to cpu; returns the CPU it then runs on, or -errno. */
int32_t hl_pin_self(int32_t cpu);
/* Lets the calling thread run on the CPUs of cpu_set (bit c = CPU c, c < 64), free to migrate among
 * them; returns the CPU it then runs on, or -errno (-EINVAL for an empty set). */
int32_t hl_pin_self_set(int64_t cpu_set);
int32_t hl_current_cpu(void);
/* HL_CALL_PINGPONG: starts the partner thread that answers the runner's bytes, on cpu (>= 0), or with
 * cpu == -1 on the CPUs of cpu_set (0: the caller's affinity). It ends when the runner does and is
 * joined by hl_run_free. 0, or -errno (-EINVAL: not a ping-pong run, already started, empty set). */
int32_t hl_pong_start(int64_t handle, int32_t cpu, int64_t cpu_set);
/* The calling thread's affinity mask as 64-bit words; returns the number of CPUs in it, or -errno. */
int32_t hl_allowed_cpus(int64_t *mask, int32_t words);

#endif
