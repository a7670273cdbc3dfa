/*
 * heimdall-trace: run a command under ptrace and write one JSON line per event.
 *
 * Usage: heimdall-trace [-o FILE] [--maps] [--stack N] [--parent PID] [--] CMD [ARGS...]
 *
 * With --parent PID the tracer dies with PID (PR_SET_PDEATHSIG, SIGKILL), and so do its tracees
 * (EXITKILL): a SIGKILLed JVM leaves neither behind. PID must be the tracer's parent at startup
 * (checked after the death signal is set, since the parent may have died before): if it is not, the
 * tracer exits at once with 125. The death signal follows the parent *thread* that started the
 * tracer, so that thread must wait for the tracer (Java's Tracer does). The traced command gets the
 * same signal from the tracer before it stops for PTRACE_SEIZE, so it cannot be left stopped and
 * untraced if the tracer dies in between.
 *
 * Every thread and child of CMD is followed (PTRACE_SEIZE with TRACESYSGOOD, TRACECLONE, TRACEFORK,
 * TRACEVFORK, TRACEEXEC and EXITKILL: if the tracer dies, the kernel kills every tracee). Syscall
 * stops are decoded with PTRACE_GET_SYSCALL_INFO (Linux 5.3+), so entry and exit never need to be
 * guessed from a toggle.
 *
 * Output, one JSON object a line (to FILE, default stdout). Every line has "seq" (the order in which
 * the tracer saw the event; a syscall's seq is that of its entry), "ev", "tid" and "pid" (the tgid):
 *   {"ev":"start","kind":"root"|"thread"|"process","parent":TID|null}   a task begins (parent = creator)
 *   {"ev":"syscall","nr":N,"args":[6 x u64],"ip":U64,"sp":U64,"ret":S64}  one syscall entry; "ret"
 *        only when the call returned (absent for exit_group, exit, a successful execve's replaced
 *        thread); "ip" is the user instruction pointer after the syscall instruction (inside libc's
 *        wrapper, usually), "sp" the user stack pointer; with --stack N also "stack":[N x u64], the
 *        first N words at sp (raw material for finding the caller's return address)
 *   {"ev":"maps","maps":[{"start":U64,"end":U64,"perms":"r-xp","offset":U64,"path":S},...]}  with
 *        --maps: the process's executable mappings, written at its exit_group and execve entries (the
 *        image is complete then), so that "ip" values can be mapped to (object, offset) across ASLR
 *   {"ev":"exec","former_tid":TID,"exe":PATH}                          an execve succeeded
 *   {"ev":"signal","sig":N}                                           a signal is delivered to tid
 *   {"ev":"exit","code":N} or {"ev":"exit","signal":N}                the task ended
 * A syscall line is written when the call returns (or the task ends), so lines are in completion
 * order; sort by "seq" for entry order. Arguments are printed as unsigned 64-bit decimals (what
 * seccomp compares), "ret" as signed.
 *
 * The tracer's own setup (the child stops itself with kill(SIGSTOP) before execve) is not recorded:
 * the first recorded syscall of the root task is its execve. Group-stops are resumed rather than
 * honoured (a traced program cannot be stopped with SIGSTOP; fine for probing).
 *
 * The tracer returns when every traced task has ended (a daemon left behind by CMD keeps it waiting,
 * as strace -f does). A new task that reports its first stop before its creator's clone event is
 * held until that event, so its "start" line (with parent) always precedes its calls.
 *
 * Exit status: CMD's own status, 128+signal if it was killed by a signal, 125 when the tracer
 * itself failed, 127 when CMD cannot be executed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* glibc 2.31+ declares PTRACE_GET_SYSCALL_INFO and struct __ptrace_syscall_info itself; the kernel's
 * <linux/ptrace.h> would clash with it, so only glibc's header is used. */

struct task {
	pid_t tid;
	pid_t tgid;
	int known; /* a start event was written */
	int in_syscall; /* an entry is pending */
	int parked; /* stopped before its creator's clone event: resumed when that arrives */
	unsigned long long seq;
	unsigned long long nr;
	unsigned long long args[6];
	unsigned long long ip;
	unsigned long long sp;
	int nstack;
	unsigned long long stack[64];
	struct task *next;
};

#define BUCKETS 1024
static struct task *tasks[BUCKETS];
static FILE *out;
static unsigned long long seq;
static int opt_maps;
static int opt_stack;

static struct task *find(pid_t tid)
{
	for (struct task *t = tasks[tid % BUCKETS]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static struct task *get(pid_t tid)
{
	struct task *t = find(tid);
	if (t)
		return t;
	t = calloc(1, sizeof *t);
	if (!t) {
		perror("heimdall-trace: calloc");
		exit(125);
	}
	t->tid = tid;
	t->tgid = tid; /* corrected when the creating clone event names it a thread */
	t->next = tasks[tid % BUCKETS];
	tasks[tid % BUCKETS] = t;
	return t;
}

static void forget(pid_t tid)
{
	for (struct task **p = &tasks[tid % BUCKETS]; *p; p = &(*p)->next) {
		if ((*p)->tid == tid) {
			struct task *dead = *p;
			*p = dead->next;
			free(dead);
			return;
		}
	}
}

static void write_syscall(struct task *t, int has_ret, long long ret)
{
	fprintf(out,
		"{\"seq\":%llu,\"ev\":\"syscall\",\"tid\":%d,\"pid\":%d,\"nr\":%llu,\"args\":[%llu,%llu,%llu,%llu,%llu,%llu],\"ip\":%llu,\"sp\":%llu",
		t->seq, t->tid, t->tgid, t->nr, t->args[0], t->args[1], t->args[2], t->args[3], t->args[4], t->args[5],
		t->ip, t->sp);
	if (opt_stack) {
		fputs(",\"stack\":[", out);
		for (int i = 0; i < t->nstack; i++)
			fprintf(out, i ? ",%llu" : "%llu", t->stack[i]);
		fputc(']', out);
	}
	if (has_ret)
		fprintf(out, ",\"ret\":%lld", ret);
	fputs("}\n", out);
	t->in_syscall = 0;
}

static void write_start(struct task *t, const char *kind, pid_t parent)
{
	if (parent)
		fprintf(out, "{\"seq\":%llu,\"ev\":\"start\",\"tid\":%d,\"pid\":%d,\"kind\":\"%s\",\"parent\":%d}\n",
			seq++, t->tid, t->tgid, kind, parent);
	else
		fprintf(out, "{\"seq\":%llu,\"ev\":\"start\",\"tid\":%d,\"pid\":%d,\"kind\":\"%s\",\"parent\":null}\n",
			seq++, t->tid, t->tgid, kind);
	t->known = 1;
}

static void write_json_string(const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Reads the first 8 bytes at addr in the tracee (clone3's flags are the first field of clone_args). */
static int peek_u64(pid_t tid, unsigned long long addr, unsigned long long *value)
{
	errno = 0;
	long word = ptrace(PTRACE_PEEKDATA, tid, (void *)addr, NULL);
	if (errno)
		return -1;
	*value = (unsigned long long)word;
	return 0;
}

/* Finds an executable on PATH as execvp would, so the child needs no extra calls before execve. */
static const char *resolve(const char *cmd, char *buf, size_t len)
{
	if (strchr(cmd, '/'))
		return cmd;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		if (n == 0)
			snprintf(buf, len, "./%s", cmd);
		else
			snprintf(buf, len, "%.*s/%s", (int)n, path, cmd);
		if (access(buf, X_OK) == 0)
			return buf;
		path += n;
		if (*path == ':')
			path++;
	}
	return NULL;
}

/* The first words of the tracee's stack: one process_vm_readv, no per-word ptrace round trips. */
static int read_stack(pid_t tid, unsigned long long sp, unsigned long long *words, int n)
{
	struct iovec local = { words, (size_t)n * sizeof *words };
	struct iovec remote = { (void *)sp, (size_t)n * sizeof *words };
	ssize_t got = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	return got < 0 ? 0 : (int)(got / (ssize_t)sizeof *words);
}

/* The executable mappings of tid's process, as one "maps" line. */
static void write_maps(struct task *t)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/maps", t->tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	fprintf(out, "{\"seq\":%llu,\"ev\":\"maps\",\"tid\":%d,\"pid\":%d,\"maps\":[", seq++, t->tid, t->tgid);
	char line[4096 + 256];
	int first = 1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long start, end, offset;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset, &name_at) < 4)
			continue;
		if (perms[2] != 'x')
			continue;
		char *name = name_at ? line + name_at : line + strlen(line);
		name[strcspn(name, "\n")] = 0;
		fprintf(out,
			"%s{\"start\":%llu,\"end\":%llu,\"perms\":\"%s\",\"offset\":%llu,\"path\":", first ? "" : ",",
			start, end, perms, offset);
		write_json_string(name);
		fputc('}', out);
		first = 0;
	}
	fclose(f);
	fputs("]}\n", out);
}

static void usage(void)
{
	fprintf(stderr, "usage: heimdall-trace [-o FILE] [--maps] [--stack N] [--parent PID] [--] CMD [ARGS...]\n");
	exit(125);
}

int main(int argc, char **argv)
{
	const char *out_path = NULL;
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			out_path = argv[++i];
		} else if (strcmp(argv[i], "--maps") == 0) {
			opt_maps = 1;
		} else if (strcmp(argv[i], "--stack") == 0 && i + 1 < argc) {
			opt_stack = atoi(argv[++i]);
			if (opt_stack < 1 || opt_stack > 64) {
				fprintf(stderr, "heimdall-trace: --stack takes 1 to 64 words\n");
				return 125;
			}
		} else if (strcmp(argv[i], "--parent") == 0 && i + 1 < argc) {
			char *end;
			long parent = strtol(argv[++i], &end, 10);
			if (*end != '\0' || parent <= 0) {
				fprintf(stderr, "heimdall-trace: --parent takes a process id\n");
				return 125;
			}
			/* Set first, then check: a parent that died before the prctl has already reparented us. */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
				fprintf(stderr, "heimdall-trace: prctl(PR_SET_PDEATHSIG): %s\n", strerror(errno));
				return 125;
			}
			if (getppid() != (pid_t)parent)
				return 125; /* the parent is gone: nobody waits for this trace */
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage();
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "heimdall-trace: unknown option %s\n", argv[i]);
			usage();
		} else {
			break;
		}
	}
	if (i >= argc)
		usage();
	char **cmd = argv + i;

	out = stdout;
	if (out_path && strcmp(out_path, "-") != 0) {
		/* The file named, never a link planted at that name (O_NOFOLLOW), and never a FIFO or device
		 * to block on (O_NONBLOCK for the open, then only a regular file is accepted). */
		int fd = open(out_path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
		struct stat st;
		if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
			close(fd);
			fd = -1;
			fprintf(stderr, "heimdall-trace: %s: not a regular file\n", out_path);
			return 125;
		}
		if (fd < 0 || ftruncate(fd, 0) != 0 || fcntl(fd, F_SETFL, 0) != 0 || !(out = fdopen(fd, "w"))) {
			fprintf(stderr, "heimdall-trace: cannot write %s: %s\n", out_path, strerror(errno));
			return 125;
		}
	}
	static char outbuf[1 << 16];
	setvbuf(out, outbuf, _IOFBF, sizeof outbuf);

	char pathbuf[PATH_MAX];
	const char *exe = resolve(cmd[0], pathbuf, sizeof pathbuf);
	if (!exe) {
		fprintf(stderr, "heimdall-trace: %s: command not found\n", cmd[0]);
		return 127;
	}

	fflush(NULL);
	pid_t tracer_pid = getpid();
	pid_t root = fork();
	if (root < 0) {
		perror("heimdall-trace: fork");
		return 125;
	}
	if (root == 0) {
		/* Die with the tracer until it has seized us (then EXITKILL does the same); a tracer that died
		 * before the prctl is no longer our parent. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0 || getppid() != tracer_pid)
			_exit(125);
		/* Stop until the tracer has seized us; a raw kill keeps libc's raise() calls out of the trace. */
		syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP);
		execv(exe, cmd);
		fprintf(stderr, "heimdall-trace: cannot execute %s: %s\n", exe, strerror(errno));
		_exit(127);
	}

	int status;
	if (waitpid(root, &status, WSTOPPED) < 0 || !WIFSTOPPED(status)) {
		fprintf(stderr, "heimdall-trace: child did not stop before exec\n");
		kill(root, SIGKILL);
		return 125;
	}
	long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		    PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SEIZE, root, NULL, (void *)opts) != 0) {
		fprintf(stderr,
			"heimdall-trace: PTRACE_SEIZE: %s (needs ptrace permission: root or "
			"kernel.yama.ptrace_scope <= 1, and no seccomp/container policy denying ptrace)\n",
			strerror(errno));
		kill(root, SIGKILL);
		return 125;
	}
	/* The child is in group-stop; SIGCONT resumes it and the first stop we see is that signal. */
	kill(root, SIGCONT);

	struct task *rt = get(root);
	write_start(rt, "root", 0);

	int root_status = -1;
	int need_info_check = 1;
	int started = 0;
	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break;
			perror("heimdall-trace: waitpid");
			return 125;
		}
		struct task *t = get(tid);

		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (t->in_syscall)
				write_syscall(t, 0, 0);
			if (WIFEXITED(status))
				fprintf(out, "{\"seq\":%llu,\"ev\":\"exit\",\"tid\":%d,\"pid\":%d,\"code\":%d}\n",
					seq++, tid, t->tgid, WEXITSTATUS(status));
			else
				fprintf(out, "{\"seq\":%llu,\"ev\":\"exit\",\"tid\":%d,\"pid\":%d,\"signal\":%d}\n",
					seq++, tid, t->tgid, WTERMSIG(status));
			if (tid == root)
				root_status = status;
			forget(tid);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;

		int sig = WSTOPSIG(status);
		int event = (unsigned)status >> 16;
		int inject = 0;

		if (sig == (SIGTRAP | 0x80)) {
			struct __ptrace_syscall_info info;
			memset(&info, 0, sizeof info);
			long n = ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof info, &info);
			if (n <= 0) {
				if (need_info_check) {
					fprintf(stderr,
						"heimdall-trace: PTRACE_GET_SYSCALL_INFO failed (%s): Linux 5.3+ needed\n",
						strerror(errno));
					return 125;
				}
			} else if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
				need_info_check = 0;
				if (t->in_syscall) /* an entry never closed (e.g. restarted): keep it, without ret */
					write_syscall(t, 0, 0);
				t->in_syscall = 1;
				int first = !started; /* the root's own execve: its old image is this tracer's */
				started = 1;
				t->seq = seq++;
				t->nr = info.entry.nr;
				for (int a = 0; a < 6; a++)
					t->args[a] = info.entry.args[a];
				t->ip = info.instruction_pointer;
				t->sp = info.stack_pointer;
				t->nstack = opt_stack ? read_stack(tid, t->sp, t->stack, opt_stack) : 0;
				if (opt_maps && !first &&
				    (t->nr == SYS_exit_group || t->nr == SYS_execve || t->nr == SYS_execveat))
					write_maps(t);
			} else if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
				need_info_check = 0;
				if (t->in_syscall)
					write_syscall(t, 1, info.exit.rval);
			}
		} else if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK) {
			unsigned long msg = 0;
			ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg);
			pid_t child = (pid_t)msg;
			struct task *c = get(child);
			const char *kind = "process";
			if (event == PTRACE_EVENT_CLONE && t->in_syscall) {
				unsigned long long flags = 0;
				if (t->nr == SYS_clone)
					flags = t->args[0];
				else if (t->nr == SYS_clone3)
					peek_u64(tid, t->args[0], &flags);
				if (flags & CLONE_THREAD)
					kind = "thread";
			}
			c->tgid = strcmp(kind, "thread") == 0 ? t->tgid : child;
			if (!c->known)
				write_start(c, kind, tid);
			if (c->parked) {
				c->parked = 0;
				ptrace(PTRACE_SYSCALL, child, NULL, NULL);
			}
		} else if (event == PTRACE_EVENT_EXEC) {
			unsigned long msg = 0;
			ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg);
			pid_t former = (pid_t)msg;
			if (former != tid) {
				/* A non-leader thread exec'd and took the leader's tid: its pending execve moves too. */
				struct task *f = find(former);
				if (f) {
					t->in_syscall = f->in_syscall;
					t->seq = f->seq;
					t->nr = f->nr;
					memcpy(t->args, f->args, sizeof t->args);
					t->ip = f->ip;
					t->sp = f->sp;
					t->nstack = f->nstack;
					memcpy(t->stack, f->stack, sizeof t->stack);
					forget(former);
				}
			}
			char link[64], target[PATH_MAX];
			snprintf(link, sizeof link, "/proc/%d/exe", tid);
			ssize_t len = readlink(link, target, sizeof target - 1);
			target[len > 0 ? len : 0] = 0;
			fprintf(out,
				"{\"seq\":%llu,\"ev\":\"exec\",\"tid\":%d,\"pid\":%d,\"former_tid\":%d,\"exe\":", seq++,
				tid, t->tgid, former);
			write_json_string(target);
			fputs("}\n", out);
		} else if (event == PTRACE_EVENT_STOP) {
			/* A new task's first stop, or a group-stop: keep it running, but hold a new task that
			 * overtook its creator's clone event so that its start line (with parent) comes first. */
			if (!t->known) {
				t->parked = 1;
				continue;
			}
		} else {
			inject = sig;
			if (started) /* the SIGCONT that released the root before its execve is the tracer's own */
				fprintf(out, "{\"seq\":%llu,\"ev\":\"signal\",\"tid\":%d,\"pid\":%d,\"sig\":%d}\n",
					seq++, tid, t->tgid, sig);
		}
		if (ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)inject) != 0 && errno != ESRCH) {
			fprintf(stderr, "heimdall-trace: PTRACE_SYSCALL %d: %s\n", tid, strerror(errno));
		}
	}

	fflush(out);
	if (out != stdout)
		fclose(out);
	if (root_status == -1)
		return 125;
	if (WIFEXITED(root_status))
		return WEXITSTATUS(root_status);
	return 128 + WTERMSIG(root_status);
}
