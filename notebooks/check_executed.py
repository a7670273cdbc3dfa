"""Checks executed notebooks: no error output, every code cell executed, and at least one table
(text/html holding a <table>) and one plot (image/png) in each.

usage: check_executed.py [--sources DIR] [--shows TYPE,TYPE...] EXECUTED.ipynb...

With --sources, every DIR/*.ipynb must also have an executed copy among EXECUTED (a notebook whose
execution failed has none). A code cell whose source has a line `// shows: TYPE` leaves a value of
the library as its last expression: one of its outputs must hold both a text/html <table> and an
image/png (the value's own rich display, not a table and a plot made by hand). With --shows, each TYPE
named must be shown so by some cell of the notebooks given. Prints one line per problem, naming the notebook, the cell and what is
missing; exit 1 when any notebook fails, 0 when all are ok.
"""
import json
import os
import re
import sys

SHOWS = re.compile(r"^\s*//\s*shows:\s*([A-Za-z][\w.]*)\s*$", re.M)


def shown(cell):
    """The types a cell's `// shows: TYPE` lines name."""
    return SHOWS.findall("".join(cell.get("source", "")))


def problems(path, shows=None):
    """What the executed notebook at path lacks; the types its cells showed richly are added to shows."""
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
        types = shown(cell)
        if types:
            rich = any("image/png" in o.get("data", {}) and "<table" in "".join(o.get("data", {}).get("text/html", ""))
                       for o in cell.get("outputs", []))
            if not rich:
                found.append(f"cell {i}: {', '.join(types)} left as the last expression shows no table with a PNG")
            elif shows is not None:
                shows.update(types)
    if images == 0:
        found.append("no image/png output (a plot)")
    if tables == 0:
        found.append("no text/html table output")
    return found


def main(argv):
    sources = None
    required = []
    while argv[:1] in (["--sources"], ["--shows"]):
        if len(argv) < 2:
            print(f"check_executed: {argv[0]} needs a value", file=sys.stderr)
            return 2
        if argv[0] == "--sources":
            sources = argv[1]
        else:
            required = [t for t in argv[1].split(",") if t]
        argv = argv[2:]
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
    seen = set()
    for p in paths:
        found = problems(p, seen)
        if found:
            bad += 1
            for f in found:
                print(f"{os.path.basename(p)}: {f}", file=sys.stderr)
        else:
            print(f"{os.path.basename(p)}: ok", file=sys.stderr)
    missing = [t for t in required if t not in seen]
    if missing:
        bad += 1
        print(f"no cell shows {', '.join(missing)} as a table with a PNG (a `// shows: TYPE` cell)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
