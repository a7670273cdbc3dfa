"""Checks executed notebooks: no error output, every code cell executed, and at least one table
(text/html holding a <table>) and one plot (image/png) in each.

usage: check_executed.py [--sources DIR] EXECUTED.ipynb...

With --sources, every DIR/*.ipynb must also have an executed copy among EXECUTED (a notebook whose
execution failed has none). Prints one line per problem, naming the notebook, the cell and what is
missing; exit 1 when any notebook fails, 0 when all are ok.
"""
import json
import os
import sys


def problems(path):
    try:
        with open(path) as f:
            nb = json.load(f)
    except (OSError, ValueError) as e:
        return [f"not a readable notebook: {e}"]
    found = []
    images = 0
    tables = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("execution_count") is None and "".join(cell.get("source", "")).strip():
            found.append(f"cell {i} was not executed")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
            data = out.get("data", {})
            if "image/png" in data:
                images += 1
            if "<table" in "".join(data.get("text/html", "")):
                tables += 1
    if images == 0:
        found.append("no image/png output (a plot)")
    if tables == 0:
        found.append("no text/html table output")
    return found


def main(argv):
    sources = None
    if argv[:1] == ["--sources"]:
        if len(argv) < 2:
            print("check_executed: --sources needs a folder", file=sys.stderr)
            return 2
        sources, argv = argv[1], argv[2:]
    paths = [p for p in argv if os.path.exists(p)]
    bad = 0
    if sources is not None:
        executed = {os.path.basename(p) for p in paths}
        for name in sorted(os.listdir(sources)):
            if name.endswith(".ipynb") and name not in executed:
                bad += 1
                print(f"{name}: no executed copy (its execution failed or was skipped)", file=sys.stderr)
    if not paths and sources is None:
        print("check_executed: no notebooks given", file=sys.stderr)
        return 1
    for p in paths:
        found = problems(p)
        if found:
            bad += 1
            for f in found:
                print(f"{os.path.basename(p)}: {f}", file=sys.stderr)
        else:
            print(f"{os.path.basename(p)}: ok", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
