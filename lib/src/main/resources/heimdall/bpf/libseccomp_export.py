"""Builds rules with libseccomp's Python binding and exports the BPF it generates.

Usage: python3 libseccomp_export.py SPEC.json OUT.bpf
SPEC: {"default": ret, "rules": [{"name": n, "nr": nr, "action": ret, "args": [[index, op, a, b], ...]}]}
(ret: a filter return value as a signed 32-bit int, which is what the binding takes;
op is an OCI name such as SCMP_CMP_EQ; nr is the caller's table's number for the name). Rules are
added in the given order, by name as runc and crun add them, so libseccomp resolves each name with
its own table; a name it does not resolve to the caller's number on x86_64 is left out (runc leaves
out names libseccomp cannot resolve) and reported. Only the native architecture is in the filter;
its bad-architecture action stays libseccomp's default (KILL_THREAD). The binary tree layout is
asked for (CTL_OPTIMIZE = 2).
Prints one JSON object on stdout: rules added, rules libseccomp refused or that were left out (with
the reason).
"""
import json
import sys

import seccomp

OPS = {
    "SCMP_CMP_NE": seccomp.NE, "SCMP_CMP_LT": seccomp.LT, "SCMP_CMP_LE": seccomp.LE,
    "SCMP_CMP_EQ": seccomp.EQ, "SCMP_CMP_GE": seccomp.GE, "SCMP_CMP_GT": seccomp.GT,
    "SCMP_CMP_MASKED_EQ": seccomp.MASKED_EQ,
}


def resolve(name):
    """libseccomp's x86_64 number for name, or None (unknown, or a pseudo number: not an x86_64 call)."""
    try:
        nr = seccomp.resolve_syscall(seccomp.Arch.X86_64, name)
    except (ValueError, RuntimeError):
        return None
    return nr if nr >= 0 else None


def main():
    spec = json.load(open(sys.argv[1]))
    f = seccomp.SyscallFilter(defaction=spec["default"])
    f.set_attr(seccomp.Attr.CTL_OPTIMIZE, 2)
    added, refused = 0, []
    for r in spec["rules"]:
        theirs = resolve(r["name"])
        if theirs != r["nr"]:
            refused.append({"nr": r["nr"], "error": "left out: libseccomp resolves '%s' to %s on x86_64"
                            % (r["name"], "nothing" if theirs is None else theirs)})
            continue
        args = [seccomp.Arg(a[0], OPS[a[1]], a[2], a[3]) for a in r["args"]]
        try:
            f.add_rule(r["action"], r["name"], *args)
            added += 1
        except Exception as e:  # libseccomp refuses some overlaps (runc would fail); the caller reports them
            refused.append({"nr": r["nr"], "error": str(e)})
    with open(sys.argv[2], "wb") as out:
        f.export_bpf(out)
    print(json.dumps({"added": added, "refused": refused, "optimize": f.get_attr(seccomp.Attr.CTL_OPTIMIZE)}))


if __name__ == "__main__":
    main()
