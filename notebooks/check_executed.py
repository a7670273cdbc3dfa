"""Checks executed notebooks: no error output, and at least one table (text/html) and one plot
(image/png) output in each.

usage: check_executed.py EXECUTED.ipynb...   (exit 1 naming every notebook that fails)
"""
import json
import sys


def problems(path):
    with open(path) as f:
        nb = json.load(f)
    found = []
    images = 0
    tables = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("execution_count") is None and cell.get("source"):
            found.append(f"cell {i} was not executed")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
            if "image/png" in out.get("data", {}):
                images += 1
            if "<table" in "".join(out.get("data", {}).get("text/html", "")):
                tables += 1
    if images == 0:
        found.append("no image/png output (a plot)")
    if tables == 0:
        found.append("no text/html table output")
    return found


def main(paths):
    if not paths:
        print("check_executed: no notebooks given", file=sys.stderr)
        return 1
    bad = 0
    for p in paths:
        found = problems(p)
        if found:
            bad += 1
            for f in found:
                print(f"{p}: {f}", file=sys.stderr)
        else:
            print(f"{p}: ok", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
