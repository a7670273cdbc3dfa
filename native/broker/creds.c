/*
 * The broker opens as its caller would (issue 29): the caller's fsuid, fsgid and groups, taken on by
 * the opening thread alone for the lookup and the open, then given back. hl_broker.h says what each
 * function promises; this file says how.
 *
 * Where the credentials come from. /proc/TID/status of the notifying thread (its Uid, Gid and Groups
 * lines, in this process's user namespace: what setfsuid and setgroups take), read in one bounded,
 * no-follow read, then ID_VALID: while the notification is pending its thread waits in the call, so
 * the credentials read are the ones the call would run with, and a tid that was reused meanwhile fails
 * the check. PIDFD_GET_INFO (Linux 6.13) gives fsuid and fsgid but not the groups, and cost as much
 * here; the status file is one read for all three.
 *
 * Why raw system calls. glibc's setgroups, setfsuid and setfsgid wrappers of today are per-thread for
 * fs ids, but setgroups goes through the set*id broadcast to every thread of the process (nptl's
 * __nptl_setxid): the JVM's other threads, or another supervisor's, would open as the child. The raw
 * calls change the calling thread's credentials only.
 *
 * Nothing is cached: the record is keyed by the notification id it was read for and used for that
 * call's lookup (hl_broker_open) and reopen (hl_broker_send) only, which run on one thread.
 */
#include "hl_broker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* /proc/TID/status is about 1.5 KiB; a Groups line of HL_CREDS_MAX_GROUPS ids (11 bytes each at most)
 * fits in this with room to spare. A longer file is read no further: a Groups line cut off is refused. */
#define STATUS_CAP 16384

struct creds {
	uint32_t fsuid;
	uint32_t fsgid;
	int ngroups;
	gid_t groups[HL_CREDS_MAX_GROUPS];
};

struct record {
	long long for_id;
	int valid;
	int as_supervisor;
	int ready; /* read (hl_creds_prepare), not yet confirmed pending */
	int same; /* the caller's credentials equal the thread's own: nothing to switch */
	int switched;
	struct creds caller;
	struct creds own; /* the thread's own, saved while switched */
};

static __thread struct record rec;

/* Parses "Key:\t" followed by unsigned decimal ids separated by tabs or spaces up to the end of the
 * line, at most max of them; the count, or -1 when the line is missing, cut off or malformed. */
static int parse_ids(const char *text, const char *key, uint32_t *out, int max)
{
	const char *at = strstr(text, key);
	if (at == NULL) {
		return -1;
	}
	at += strlen(key);
	int n = 0;
	for (;;) {
		while (*at == ' ' || *at == '\t') {
			at++;
		}
		if (*at == '\n') {
			return n;
		}
		if (*at < '0' || *at > '9' || n == max) {
			return -1; /* not a number, or the end of the buffer (the line cut off), or too many */
		}
		uint64_t v = 0;
		while (*at >= '0' && *at <= '9') {
			v = v * 10 + (uint64_t)(*at++ - '0');
			if (v > UINT32_MAX) {
				return -1;
			}
		}
		out[n++] = (uint32_t)v;
	}
}

/* Reads and parses tid's status into c; 0, -ESRCH (no such task) or -EACCES. */
static int read_status(int tid, struct creds *c)
{
	if (tid <= 0) {
		return -ESRCH;
	}
	char name[40] = "/proc/";
	char digits[12];
	int nd = 0;
	for (unsigned v = (unsigned)tid; v != 0; v /= 10) {
		digits[nd++] = (char)('0' + v % 10);
	}
	int at = 6;
	while (nd > 0) {
		name[at++] = digits[--nd];
	}
	memcpy(name + at, "/status", 8);
	int fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return errno == ENOENT || errno == ESRCH ? -ESRCH : -EACCES;
	}
	static __thread char buf[STATUS_CAP];
	size_t got = 0;
	for (;;) {
		ssize_t r = read(fd, buf + got, sizeof buf - 1 - got);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			if (r < 0) {
				got = 0; /* ESRCH: the task is gone; anything else: unreadable. Either way, nothing to trust. */
			}
			break;
		}
		got += (size_t)r;
		if (got == sizeof buf - 1) {
			break;
		}
	}
	close(fd);
	if (got == 0) {
		return -ESRCH;
	}
	buf[got] = 0;
	uint32_t ids[4];
	/* Real, effective, saved, file system: the fourth decides an open. */
	if (parse_ids(buf, "\nUid:", ids, 4) != 4) {
		return -EACCES;
	}
	c->fsuid = ids[3];
	if (parse_ids(buf, "\nGid:", ids, 4) != 4) {
		return -EACCES;
	}
	c->fsgid = ids[3];
	int n = parse_ids(buf, "\nGroups:", (uint32_t *)c->groups, HL_CREDS_MAX_GROUPS);
	if (n < 0) {
		return -EACCES;
	}
	c->ngroups = n;
	return 0;
}

/* The thread's own fs ids and groups (the fs ids through setfsuid/setfsgid with an invalid id, which
 * change nothing and return the current one). 0 or -EACCES (more groups than we can hold). */
static int own_creds(struct creds *c)
{
	c->fsuid = (uint32_t)syscall(SYS_setfsuid, -1);
	c->fsgid = (uint32_t)syscall(SYS_setfsgid, -1);
	long n = syscall(SYS_getgroups, HL_CREDS_MAX_GROUPS, c->groups);
	if (n < 0) {
		return -EACCES;
	}
	c->ngroups = (int)n;
	return 0;
}

static int same(const struct creds *a, const struct creds *b)
{
	/* Both lists come sorted from the kernel (groups_sort), so equal sets are equal arrays. */
	return a->fsuid == b->fsuid && a->fsgid == b->fsgid && a->ngroups == b->ngroups &&
	       memcmp(a->groups, b->groups, (size_t)a->ngroups * sizeof a->groups[0]) == 0;
}

/* The fail-closed end: a thread that cannot return to its own credentials must not serve again. */
static void must(int ok)
{
	if (!ok) {
		static const char msg[] =
			"heimdall broker: cannot return to the supervisor's own credentials; aborting\n";
		(void)!write(2, msg, sizeof msg - 1);
		abort();
	}
}

static void restore(const struct creds *own, int fsuid_changed, int fsgid_changed)
{
	if (fsuid_changed) {
		syscall(SYS_setfsuid, own->fsuid);
		must((uint32_t)syscall(SYS_setfsuid, -1) == own->fsuid);
	}
	if (fsgid_changed) {
		syscall(SYS_setfsgid, own->fsgid);
		must((uint32_t)syscall(SYS_setfsgid, -1) == own->fsgid);
	}
	must(syscall(SYS_setgroups, own->ngroups, own->groups) == 0);
}

int hl_creds_prepare(long id, int tid, int as_supervisor)
{
	rec.valid = 0;
	rec.ready = 0;
	rec.for_id = id;
	rec.as_supervisor = as_supervisor;
	if (as_supervisor) {
		rec.ready = 1;
		return 0;
	}
	int r = read_status(tid, &rec.caller);
	if (r < 0) {
		return r;
	}
	/* The thread's own, read here once for both of this call's opens (lookup and reopen), moments
	 * apart on this thread. */
	if (own_creds(&rec.own) != 0) {
		return -EACCES;
	}
	rec.same = same(&rec.caller, &rec.own);
	rec.ready = 1;
	return 0;
}

void hl_creds_confirm(long id)
{
	rec.valid = rec.ready && rec.for_id == id;
}

int hl_creds_read(int listener, long id, int tid, int as_supervisor)
{
	int r = hl_creds_prepare(id, tid, as_supervisor);
	if (as_supervisor) {
		hl_creds_confirm(id);
		return 0;
	}
	/* Pending still: tid was the caller all along, and the call runs with what was read. */
	if (hl_notif_id_valid(listener, id) != 0) {
		return -ESRCH;
	}
	if (r < 0) {
		/* A live caller whose status could not be read: refuse rather than guess. */
		return -EACCES;
	}
	hl_creds_confirm(id);
	return 0;
}

int hl_creds_enter(long id)
{
	if (!rec.valid || rec.for_id != id) {
		return -EACCES;
	}
	if (rec.as_supervisor || rec.same) {
		return 0;
	}
	const struct creds *c = &rec.caller;
	/* Groups first (the fs ids do not decide who may set them), then fsgid, then fsuid; each checked,
	 * since setfsuid and setfsgid answer the previous id whether they changed anything or not. */
	if (syscall(SYS_setgroups, c->ngroups, c->groups) != 0) {
		return -EACCES; /* EPERM without CAP_SETGID: nothing changed */
	}
	syscall(SYS_setfsgid, c->fsgid);
	if ((uint32_t)syscall(SYS_setfsgid, -1) != c->fsgid) {
		restore(&rec.own, 0, 0);
		return -EACCES;
	}
	syscall(SYS_setfsuid, c->fsuid);
	if ((uint32_t)syscall(SYS_setfsuid, -1) != c->fsuid) {
		restore(&rec.own, 0, 1);
		return -EACCES;
	}
	rec.switched = 1;
	return 1;
}

void hl_creds_leave(void)
{
	if (!rec.switched) {
		return;
	}
	rec.switched = 0;
	restore(&rec.own, 1, 1);
}
