#!/usr/bin/env python3
"""Lists the functions longer than a limit (default 50 lines, STYLE.md's ~50) under the
given folders, longest first, as `lines path:line name`. A report for people, not a
test: it exits 0 whatever it finds.

It relies on the project's clang-format layout: a function's opening brace stands alone
on its line at the indentation of its signature, and its closing brace at the same
indentation. Lambdas and one-line functions are not counted.

Usage: list_long_functions.py [--limit N] FOLDER...
"""
import os
import re
import sys

NAME = re.compile(r"([A-Za-z_][\w:~]*(?:operator\S*)?)\s*\(")


def functions(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        brace = re.fullmatch(r"( *)\{", line)
        if not brace or i == 0:
            continue
        indent = brace.group(1)
        start = i - 1  # the signature may span lines: back to the one holding the name
        while start > 0 and not NAME.search(lines[start]) and lines[start].startswith(indent + " "):
            start -= 1
        m = NAME.search(lines[start])
        if not m or lines[start].lstrip().startswith(("if", "for", "while", "switch", "//")):
            continue
        for j in range(i + 1, len(lines)):
            if lines[j] == indent + "}" or lines[j].startswith(indent + "};"):
                yield m.group(1), start + 1, j - start + 1
                break


def main(argv):
    limit = 50
    if len(argv) > 2 and argv[1] == "--limit":
        limit, argv = int(argv[2]), argv[2:]
    found = []
    for folder in argv[1:]:
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    path = os.path.join(dirpath, name)
                    found += [(n, path, line, name_) for name_, line, n in functions(path) if n > limit]
    for n, path, line, name in sorted(found, reverse=True):
        print(f"{n:4d} {path}:{line} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
