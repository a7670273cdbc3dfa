"""Checks executed notebooks: no error output, every code cell executed, and at least one table
(text/html holding a <table>) and one plot (image/png) in each; and that each reads like a short paper: its
first cell states its **Question.**, and every code cell whose source prints a finding (a line starting
"Finding:", computed by the cell from the data, never typed in a markdown cell) shows that line in its output.
A notebook that prints no finding yet is named on a note line (not a failure).

usage: check_executed.py [--sources DIR | --expect] [--shows TYPE,TYPE...] EXECUTED.ipynb...

With --sources, every DIR/*.ipynb must also have an executed copy among EXECUTED (a notebook whose
execution failed has none). With --expect, every EXECUTED path given must exist (notebooks/run NAME.ipynb: a
named notebook whose execution failed has none). A code cell whose source has a line `// shows: TYPE` leaves
a value of the library as its last expression: one of its outputs must hold both a text/html <table> and an
image/png (the value's own rich display, not a table and a plot made by hand). With --shows, each TYPE named
must be shown so by some cell of the notebooks given. Prints one line per problem, naming the notebook, the
cell and what is missing; exit 1 when any notebook fails, 0 when all are ok.
"""
import json
import os
import re
import sys

SHOWS = re.compile(r"^\s*//\s*shows:\s*([A-Za-z][\w.]*)\s*$", re.M)
FINDING = "Finding:"


def shown(cell):
    """The types a cell's `// shows: TYPE` lines name."""
    return SHOWS.findall("".join(cell.get("source", "")))


def finding_lines(cell):
    """The lines of a code cell's text output that start with FINDING."""
    lines = []
    for out in cell.get("outputs", []):
        text = out.get("text", "") if out.get("output_type") == "stream" else out.get("data", {}).get("text/plain", "")
        lines += [l.strip() for l in "".join(text).splitlines() if l.strip().startswith(FINDING)]
    return lines


def findings(path):
    """Every finding line the executed notebook printed, in order (for the note line and the report)."""
    with open(path) as f:
        nb = json.load(f)
    return [l for c in nb.get("cells", []) if c.get("cell_type") == "code" for l in finding_lines(c)]


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
    cells = nb.get("cells", [])
    if not cells or "**question.**" not in "".join(cells[0].get("source", "")).lower():
        found.append("the first cell does not state the notebook's **Question.**")
    for i, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        if FINDING in "".join(cell.get("source", "")) and not finding_lines(cell):
            found.append(f"cell {i} prints no '{FINDING}' line (its finding sentence is missing from the output)")
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
    expect = False
    required = []
    while argv[:1] in (["--sources"], ["--shows"], ["--expect"]):
        if argv[0] == "--expect":
            expect, argv = True, argv[1:]
            continue
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
    if expect:
        for p in argv:
            if not os.path.exists(p):
                bad += 1
                print(f"{os.path.basename(p)}: no executed copy (its execution failed)", file=sys.stderr)
    if sources is not None:
        executed = {os.path.basename(p) for p in paths}
        for name in sorted(os.listdir(sources)):
            if name.endswith(".ipynb") and name not in executed:
                bad += 1
                print(f"{name}: no executed copy (its execution failed or was skipped)", file=sys.stderr)
    if not paths and sources is None and not bad:
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
            n = len(findings(p))
            print(f"{os.path.basename(p)}: ok, {n} finding(s)" if n
                  else f"{os.path.basename(p)}: ok (note: prints no '{FINDING}' line yet)", file=sys.stderr)
    missing = [t for t in required if t not in seen]
    if missing:
        bad += 1
        print(f"no cell shows {', '.join(missing)} as a table with a PNG (a `// shows: TYPE` cell)", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
