"""Builds rules with libseccomp's Python binding and exports the BPF it generates.

Usage: python3 libseccomp_export.py SPEC.json OUT.bpf
SPEC: {"default": ret, "rules": [{"nr": n, "action": ret, "args": [[index, op, a, b], ...]}]}
(op is an OCI name such as SCMP_CMP_EQ). The binary tree layout is asked for (CTL_OPTIMIZE = 2).
Prints one JSON object on stdout: rules added, rules libseccomp refused (with its error).
"""
import json
import sys

import seccomp

OPS = {
    "SCMP_CMP_NE": seccomp.NE, "SCMP_CMP_LT": seccomp.LT, "SCMP_CMP_LE": seccomp.LE,
    "SCMP_CMP_EQ": seccomp.EQ, "SCMP_CMP_GE": seccomp.GE, "SCMP_CMP_GT": seccomp.GT,
    "SCMP_CMP_MASKED_EQ": seccomp.MASKED_EQ,
}


def main():
    spec = json.load(open(sys.argv[1]))
    f = seccomp.SyscallFilter(defaction=spec["default"])
    f.set_attr(seccomp.Attr.CTL_OPTIMIZE, 2)
    added, refused = 0, []
    for r in spec["rules"]:
        args = [seccomp.Arg(a[0], OPS[a[1]], a[2], a[3]) for a in r["args"]]
        try:
            f.add_rule(r["action"], r["nr"], *args)
            added += 1
        except Exception as e:  # libseccomp refuses some overlaps; the caller reports them
            refused.append({"nr": r["nr"], "error": str(e)})
    with open(sys.argv[2], "wb") as out:
        f.export_bpf(out)
    print(json.dumps({"added": added, "refused": refused, "optimize": f.get_attr(seccomp.Attr.CTL_OPTIMIZE)}))


if __name__ == "__main__":
    main()
