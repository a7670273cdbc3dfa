/* SPDX-License-Identifier: MIT */
/*
 * hl_landlock.h - a Landlock ruleset described in bytes, built and enforced by the process it confines
 *
 * Header only, libc only: the measured child (heimdall-runner) includes it, and so can any launcher that
 * wants the same ruleset in a child before exec. The JVM never confines itself: it writes the
 * description (heimdall.lab.landlock.Landlock#encode), the child opens the paths, builds the ruleset and
 * restricts itself.
 *
 * The description (little endian, 8-aligned, HL_LANDLOCK_HEAD bytes then nrules rules):
 *
 *   offset  size  field        meaning
 *        0     4  magic        HL_LANDLOCK_MAGIC ("HLLL")
 *        4     4  flags        HL_LANDLOCK_BEST_EFFORT: drop the rights the kernel's ABI lacks (the caller
 *                              warns); without it a ruleset asking for one is refused (fail closed)
 *        8     8  handled_fs   LANDLOCK_ACCESS_FS_* the ruleset handles (denied unless a rule allows)
 *       16     8  handled_net  LANDLOCK_ACCESS_NET_* handled (ABI 4); no port rules: all denied
 *       24     8  scoped       LANDLOCK_SCOPE_* (ABI 6)
 *       32     4  nrules
 *       36     4  reserved     zero
 *   then each rule:
 *        0     8  allowed      LANDLOCK_ACCESS_FS_* allowed beneath the path (a subset of handled_fs)
 *        8     4  path_len     bytes of path including its NUL (2..4096)
 *       12     4  reserved     zero
 *       16     -  path         NUL-terminated, absolute, padded with zeros to a multiple of 8
 *
 * Which ABI brought which right (Documentation/userspace-api/landlock.rst): 1 (Linux 5.13) the thirteen
 * first file-system rights; 2 (5.19) REFER; 3 (6.2) TRUNCATE; 4 (6.7) the TCP bind and connect rights;
 * 5 (6.10) IOCTL_DEV; 6 (6.12) the abstract-unix-socket and signal scopes; 7 (6.15) audit-log flags
 * (no new right).
 */
#ifndef HL_LANDLOCK_H
#define HL_LANDLOCK_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

/* Older uapi headers (Debian's 6.1) lack the later rights: the values are the kernel's, and a test
 * (LandlockConstantsTest) checks every one the installed header does define against ours. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

#define HL_LANDLOCK_MAGIC 0x4c4c4c48u /* "HLLL" read little endian */
#define HL_LANDLOCK_BEST_EFFORT 0x1u
#define HL_LANDLOCK_FLAGS_ALL_ HL_LANDLOCK_BEST_EFFORT
#define HL_LANDLOCK_HEAD 40u
#define HL_LANDLOCK_MAX_RULES 64u
#define HL_LANDLOCK_PATH_MAX 4096u
#define HL_LANDLOCK_ABI_KNOWN 7 /* the newest ABI this file knows the rights of */

/* The rights an ABI knows; 0 for none (ABI 0: no Landlock). */
static inline uint64_t hl_landlock_fs_rights(int abi)
{
	uint64_t r = 0;
	if (abi >= 1)
		r |= (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* EXECUTE .. MAKE_SYM, bits 0-12 */
	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

static inline uint64_t hl_landlock_net_rights(int abi)
{
	return abi >= 4 ? (LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP) : 0;
}

static inline uint64_t hl_landlock_scopes(int abi)
{
	return abi >= 6 ? (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL) : 0;
}

/* The rights a rule on a non-directory may carry (the kernel refuses the others with EINVAL). */
#define HL_LANDLOCK_FILE_RIGHTS                                                                      \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
	 LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

struct hl_landlock_head {
	uint32_t magic;
	uint32_t flags;
	uint64_t handled_fs;
	uint64_t handled_net;
	uint64_t scoped;
	uint32_t nrules;
	uint32_t reserved;
};

struct hl_landlock_rule {
	uint64_t allowed;
	uint32_t path_len;
	uint32_t reserved;
};

_Static_assert(sizeof(struct hl_landlock_head) == HL_LANDLOCK_HEAD, "landlock head");
_Static_assert(sizeof(struct hl_landlock_rule) == 16, "landlock rule");

/* The kernel's struct landlock_ruleset_attr as of ABI 6 (the installed header may be older). */
struct hl_landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

/* struct landlock_path_beneath_attr: packed in the uapi (12 bytes). */
struct hl_landlock_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define HL_LANDLOCK_RULE_PATH_BENEATH 1 /* LANDLOCK_RULE_PATH_BENEATH */

/* Where hl_landlock_install stopped (hl_shm_result.landlock_step). */
enum hl_landlock_step {
	HL_LL_STEP_NONE = 0,
	HL_LL_STEP_DESCRIPTION = 1, /* the description is malformed */
	HL_LL_STEP_ABI = 2, /* no Landlock, or a right the ABI lacks without best effort */
	HL_LL_STEP_RULESET = 3, /* landlock_create_ruleset */
	HL_LL_STEP_OPEN = 4, /* opening a rule's path (O_PATH) */
	HL_LL_STEP_RULE = 5, /* landlock_add_rule */
	HL_LL_STEP_RESTRICT = 6, /* landlock_restrict_self */
	HL_LL_STEP_DONE = 7,
};

/* The ABI the running kernel answers: >= 1, or -errno (EOPNOTSUPP: built in but disabled; ENOSYS: absent). */
static inline int hl_landlock_abi(void)
{
	long r = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	return r < 0 ? -errno : (int)r;
}

static inline uint64_t hl_landlock_pad8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

/* Checks a description's shape (not the kernel's answer): 0, or -EINVAL. */
static inline int hl_landlock_check(const void *block, uint64_t len)
{
	struct hl_landlock_head h;
	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, block, sizeof(h));
	if (h.magic != HL_LANDLOCK_MAGIC || (h.flags & ~HL_LANDLOCK_FLAGS_ALL_) || h.reserved != 0)
		return -EINVAL;
	if ((h.handled_fs & ~hl_landlock_fs_rights(HL_LANDLOCK_ABI_KNOWN)) ||
	    (h.handled_net & ~hl_landlock_net_rights(HL_LANDLOCK_ABI_KNOWN)) ||
	    (h.scoped & ~hl_landlock_scopes(HL_LANDLOCK_ABI_KNOWN)))
		return -EINVAL;
	if (h.handled_fs == 0 && h.handled_net == 0 && h.scoped == 0)
		return -EINVAL; /* a ruleset that handles nothing confines nothing: a mistake, not a policy */
	if (h.nrules > HL_LANDLOCK_MAX_RULES)
		return -EINVAL;
	uint64_t at = sizeof(h);
	for (uint32_t i = 0; i < h.nrules; i++) {
		struct hl_landlock_rule r;
		if (len - at < sizeof(r))
			return -EINVAL;
		memcpy(&r, (const char *)block + at, sizeof(r));
		at += sizeof(r);
		if (r.allowed == 0 || (r.allowed & ~h.handled_fs) || r.reserved != 0)
			return -EINVAL;
		if (r.path_len < 2 || r.path_len > HL_LANDLOCK_PATH_MAX || len - at < hl_landlock_pad8(r.path_len))
			return -EINVAL;
		const char *p = (const char *)block + at;
		if (p[0] != '/' || memchr(p, 0, r.path_len) != p + r.path_len - 1)
			return -EINVAL;
		at += hl_landlock_pad8(r.path_len);
	}
	return at == len ? 0 : -EINVAL;
}

/*
 * Builds the ruleset in this process and restricts it (no_new_privs must be set already, or the process
 * hold CAP_SYS_ADMIN). *abi gets the kernel's ABI (or 0), *step where it stopped. Returns 0, or -errno:
 * EOPNOTSUPP with step HL_LL_STEP_ABI when the kernel lacks Landlock or a handled right and best effort
 * was not asked for. With best effort the rights the ABI lacks are dropped (the caller has said which);
 * with no Landlock at all nothing is installed and 0 is returned with *abi 0.
 */
static inline int hl_landlock_install(const void *block, uint64_t len, int *abi, uint32_t *step)
{
	*abi = 0;
	*step = HL_LL_STEP_DESCRIPTION;
	if (hl_landlock_check(block, len) != 0)
		return -EINVAL;
	struct hl_landlock_head h;
	memcpy(&h, block, sizeof(h));
	int best = (h.flags & HL_LANDLOCK_BEST_EFFORT) != 0;

	*step = HL_LL_STEP_ABI;
	int v = hl_landlock_abi();
	if (v < 0) {
		if (!best)
			return -EOPNOTSUPP;
		*step = HL_LL_STEP_DONE;
		return 0;
	}
	*abi = v;
	uint64_t fs = hl_landlock_fs_rights(v), net = hl_landlock_net_rights(v), sc = hl_landlock_scopes(v);
	if (!best && ((h.handled_fs & ~fs) || (h.handled_net & ~net) || (h.scoped & ~sc)))
		return -EOPNOTSUPP;
	struct hl_landlock_ruleset_attr attr = {
		.handled_access_fs = h.handled_fs & fs,
		.handled_access_net = h.handled_net & net,
		.scoped = h.scoped & sc,
	};
	if (attr.handled_access_fs == 0 && attr.handled_access_net == 0 && attr.scoped == 0) {
		*step = HL_LL_STEP_DONE; /* best effort on a kernel with none of the rights: nothing to install */
		return 0;
	}
	/* The kernel takes a longer struct only if the bytes it does not know are zero: give it what it knows. */
	size_t size = v >= 6 ? sizeof(attr) : v >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);

	*step = HL_LL_STEP_RULESET;
	long rs = syscall(__NR_landlock_create_ruleset, &attr, size, 0);
	if (rs < 0)
		return -errno;
	int err = 0;
	uint64_t at = sizeof(h);
	for (uint32_t i = 0; i < h.nrules && err == 0; i++) {
		struct hl_landlock_rule r;
		memcpy(&r, (const char *)block + at, sizeof(r));
		const char *path = (const char *)block + at + sizeof(r);
		at += sizeof(r) + hl_landlock_pad8(r.path_len);
		*step = HL_LL_STEP_OPEN;
		int fd = open(path, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			break;
		}
		struct hl_landlock_path_beneath_attr pb = { .allowed_access = r.allowed & fs, .parent_fd = fd };
		/* A file that is not a directory may carry only the file rights (the kernel refuses the others). */
		struct stat st;
		if (fstat(fd, &st) != 0) {
			err = -errno;
			close(fd);
			break;
		}
		if (!S_ISDIR(st.st_mode))
			pb.allowed_access &= HL_LANDLOCK_FILE_RIGHTS;
		*step = HL_LL_STEP_RULE;
		if (pb.allowed_access != 0 &&
		    syscall(__NR_landlock_add_rule, (int)rs, HL_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0)
			err = -errno;
		close(fd);
	}
	if (err == 0) {
		*step = HL_LL_STEP_RESTRICT;
		if (syscall(__NR_landlock_restrict_self, (int)rs, 0) != 0)
			err = -errno;
		else
			*step = HL_LL_STEP_DONE;
	}
	close((int)rs);
	return err;
}

#endif
