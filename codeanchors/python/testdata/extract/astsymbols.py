"""Print the symbols of Python files by the rules of tracewiki's SPEC 1.3,
as Python's own ast module sees them: the reference of TestPythonConformance.

Usage: python3 astsymbols.py ROOT < PATHS

PATHS lists the files to read, one slash-separated path relative to ROOT a
line; the output keeps their order.

One JSON object per line and file: {"path", "symbols": [[name, start, end]],
"ambiguous": [names]}, or {"path", "error"} for a file ast cannot parse.

Symbols: functions and classes of the module and of classes at any depth,
also under if/try/with/for/while/match blocks, not inside functions; named
Outer.Inner.f. A range runs from the first decorator (or the def/class line)
to end_lineno. A def decorated @name.setter/.getter/.deleter, or following
@overload-decorated defs of the same name, extends the earlier definition;
any other name defined twice is ambiguous.
"""

import ast
import json
import os
import sys
import warnings
from concurrent.futures import ProcessPoolExecutor

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def dotted(node):
    """Return the dotted name of a Name/Attribute chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def walk(body, prefix, out):
    for node in body:
        if isinstance(node, DEFS):
            name = prefix + node.name
            start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            entry = [name, start, node.end_lineno, node]
            out.append(entry)
            if isinstance(node, ast.ClassDef):
                walk(node.body, name + ".", out)
            continue
        # Compound statements: their blocks, in source order.
        for field in ("body", "handlers", "orelse", "finalbody", "cases"):
            for child in getattr(node, field, None) or []:
                if isinstance(child, (ast.excepthandler, ast.match_case)):
                    walk(child.body, prefix, out)
                elif isinstance(child, ast.stmt):
                    walk([child], prefix, out)


def symbols(tree):
    out = []
    walk(tree.body, "", out)
    entries, by_name = [], {}
    for name, start, end, node in out:
        is_func = not isinstance(node, ast.ClassDef)
        names = [dotted(d) for d in node.decorator_list] if is_func else []
        overload = any(n == "overload" or (n or "").endswith(".overload") for n in names)
        accessor = any(n in (node.name + ".setter", node.name + ".getter", node.name + ".deleter") for n in names)
        e = by_name.get(name)
        if e is None:
            e = {"name": name, "start": start, "end": end, "func": is_func, "overload": overload, "amb": False}
            by_name[name] = e
            entries.append(e)
        elif e["amb"]:
            pass
        elif is_func and e["func"] and accessor:
            e["end"], e["overload"] = max(e["end"], end), False
        elif is_func and e["func"] and e["overload"]:
            e["end"], e["overload"] = max(e["end"], end), overload
        else:
            e["amb"] = True
    syms = [[e["name"], e["start"], e["end"]] for e in entries if not e["amb"]]
    amb = sorted(e["name"] for e in entries if e["amb"])
    return syms, amb


def one(path_rel):
    path, rel = path_rel
    try:
        with open(path, "rb") as f:
            src = f.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src, filename=path)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError) as e:
        return json.dumps({"path": rel, "error": f"{type(e).__name__}: {e}"})
    syms, amb = symbols(tree)
    return json.dumps({"path": rel, "symbols": syms, "ambiguous": amb})


def main(root):
    jobs = []
    for line in sys.stdin:
        rel = line.strip()
        if rel:
            jobs.append((os.path.join(root, *rel.split("/")), rel))
    with ProcessPoolExecutor() as ex:
        for line in ex.map(one, jobs, chunksize=16):
            print(line)


if __name__ == "__main__":
    main(sys.argv[1])
