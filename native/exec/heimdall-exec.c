/*
 * heimdall-exec: install a seccomp BPF program, then exec a command under it.
 *
 * Usage: heimdall-exec PROGRAM.bpf -- CMD [ARGS...]
 *
 * PROGRAM.bpf is a raw classic-BPF program: struct sock_filter records of 8 bytes each in host byte
 * order (u16 code, u8 jt, u8 jf, u32 k), the format of libseccomp's seccomp_export_bpf and of
 * `./lab bpf compile`. The wrapper sets no_new_privs (required to install a filter without
 * CAP_SYS_ADMIN, and what a container runtime does), installs the program with
 * seccomp(SECCOMP_SET_MODE_FILTER, 0, ...) and execs CMD (searched on PATH). The filter therefore
 * applies to the execve itself: a profile used this way must allow execve.
 *
 * Exit status: CMD's (it replaces this process); 125 for a usage error or a bad program file,
 * 126 when the kernel refuses the program, 127 when CMD cannot be executed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* BPF_MAXINSNS in the kernel: longer programs are refused with EINVAL; say so before asking. */
#define MAX_INSNS 4096

static void usage(void)
{
	fprintf(stderr, "usage: heimdall-exec PROGRAM.bpf -- CMD [ARGS...]\n"
			"  installs PROGRAM.bpf (raw struct sock_filter records, 8 bytes each) as a seccomp\n"
			"  filter under no_new_privs, then execs CMD\n");
	exit(125);
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		usage();
	const char *path = argv[1];
	int cmd_at = 2;
	if (cmd_at < argc && strcmp(argv[cmd_at], "--") == 0)
		cmd_at++;
	if (cmd_at >= argc)
		usage();

	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "heimdall-exec: %s: %s\n", path, strerror(errno));
		return 125;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		fprintf(stderr, "heimdall-exec: %s: %s\n", path, strerror(errno));
		return 125;
	}
	if (st.st_size == 0 || st.st_size % sizeof(struct sock_filter) != 0) {
		fprintf(stderr,
			"heimdall-exec: %s: %lld bytes is not a whole, non-empty number of 8-byte "
			"sock_filter records\n",
			path, (long long)st.st_size);
		return 125;
	}
	size_t count = (size_t)st.st_size / sizeof(struct sock_filter);
	if (count > MAX_INSNS) {
		fprintf(stderr, "heimdall-exec: %s: %zu instructions, more than the kernel's limit of %d\n", path,
			count, MAX_INSNS);
		return 125;
	}
	struct sock_filter *insns = malloc(st.st_size);
	if (!insns) {
		fprintf(stderr, "heimdall-exec: out of memory\n");
		return 125;
	}
	size_t done = 0;
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)insns + done, st.st_size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "heimdall-exec: %s: short read: %s\n", path,
				n < 0 ? strerror(errno) : "end of file");
			return 125;
		}
		done += n;
	}
	close(fd);

	struct sock_fprog prog = { .len = (unsigned short)count, .filter = insns };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		fprintf(stderr, "heimdall-exec: prctl(PR_SET_NO_NEW_PRIVS): %s\n", strerror(errno));
		return 126;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		int e = errno;
		fprintf(stderr, "heimdall-exec: seccomp(SECCOMP_SET_MODE_FILTER) refused %s (%zu instructions): %s%s\n",
			path, count, strerror(e),
			e == EINVAL ? " (the kernel's checker rejected the program: bad opcode, jump out of range, "
				      "no final return, or a load outside seccomp_data)" :
			e == EFAULT ? " (bad program address)" :
				      "");
		return 126;
	}
	/* From here every call, execve included, passes the filter; keep the path short. */
	execvp(argv[cmd_at], argv + cmd_at);
	fprintf(stderr, "heimdall-exec: cannot execute %s: %s\n", argv[cmd_at], strerror(errno));
	return 127;
}
