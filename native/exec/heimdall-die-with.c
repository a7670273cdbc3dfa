/*
 * heimdall-die-with: run a command that dies with the process that started it.
 *
 * Usage: heimdall-die-with PID CMD [ARGS...]
 *
 * Sets PR_SET_PDEATHSIG(SIGKILL), which execve keeps (the command is not set-uid), then checks that
 * PID is still the parent: a parent that died before the prctl has already reparented us, and no
 * death signal would come, so we exit with 125 instead of running CMD. Then execs CMD (PATH searched).
 * The signal follows the parent *thread* that forked us, so that thread must wait for the command
 * (Java's heimdall.lab.sys.DieWithJvm says so). For commands the JVM starts with ProcessBuilder
 * (mvn, JMH's JVM, python, addr2line), which cannot make the prctl themselves.
 *
 * Exit status: CMD's own; 125 a usage error or the parent already gone; 127 CMD cannot be executed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: heimdall-die-with PID CMD [ARGS...]\n");
		return 125;
	}
	char *end;
	long parent = strtol(argv[1], &end, 10);
	if (*end != '\0' || parent <= 0) {
		fprintf(stderr, "heimdall-die-with: not a process id: %s\n", argv[1]);
		return 125;
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) {
		fprintf(stderr, "heimdall-die-with: prctl(PR_SET_PDEATHSIG): %s\n", strerror(errno));
		return 125;
	}
	if (getppid() != (pid_t)parent)
		return 125; /* the parent is gone already: nobody waits for CMD */
	execvp(argv[2], argv + 2);
	fprintf(stderr, "heimdall-die-with: cannot execute %s: %s\n", argv[2], strerror(errno));
	return 127;
}
