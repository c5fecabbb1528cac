"""Print the comments and docstrings of Python files as Python's own
tokenize and ast modules see them: the reference of
TestPythonCommentsConformance.

Usage: python3 astcomments.py ROOT < PATHS

PATHS lists the files to read, one slash-separated path relative to ROOT a
line; the output keeps their order.

One JSON object per line and file: {"path", "comments": [[line, end, doc]]}
in source order, or {"path", "error"} for a file ast or tokenize cannot
read. A comment is a COMMENT token; a docstring (doc true) is the first
statement of the module, a class or a function (at any depth) when it is a
str constant, as ast.get_docstring finds it.
"""

import ast
import io
import json
import os
import sys
import tokenize
import warnings
from concurrent.futures import ProcessPoolExecutor

DEFS = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def comments(root, rel):
    try:
        with open(os.path.join(root, rel), "rb") as f:
            src = f.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src)
        found = []
        for tok in tokenize.tokenize(io.BytesIO(src).readline):
            if tok.type == tokenize.COMMENT:
                found.append((tok.start[0], tok.start[1], tok.end[0], False))
        for node in ast.walk(tree):
            if isinstance(node, DEFS) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                    v = first.value
                    found.append((v.lineno, v.col_offset, v.end_lineno, True))
        found.sort()
        return {"path": rel, "comments": [[c[0], c[2], c[3]] for c in found]}
    except Exception as e:  # noqa: BLE001 - any failure makes the file unreadable
        return {"path": rel, "error": f"{type(e).__name__}: {e}"}


def main():
    root = sys.argv[1]
    paths = [p for p in sys.stdin.read().split("\n") if p]
    with ProcessPoolExecutor(max_workers=2) as ex:
        for r in ex.map(comments, [root] * len(paths), paths, chunksize=32):
            print(json.dumps(r))


if __name__ == "__main__":
    main()
