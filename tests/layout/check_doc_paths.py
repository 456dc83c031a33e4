#!/usr/bin/env python3
"""Every file the documentation points to exists.

Reads README.md, docs/*.md, scripts/README.md and records/README.md and checks
- each relative markdown link [text](path#anchor): the path, from the page's folder;
- each path in backticks under records/, share/femgpu/ or scripts/ (from the repository
  root; in records/README.md also a name within records/): the file or folder.
A path may hold {a,b} alternatives and * wildcards (each alternative must match); a log
or figure named plainly may be stored gzipped (records/compress_logs.sh).
Usage: check_doc_paths.py REPO_ROOT | --self-test
"""
import glob
import os
import re
import sys
import tempfile

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\s]+)`")
ROOTS = ("records/", "share/femgpu/", "scripts/")
PAGES = ("README.md", "docs/*.md", "scripts/README.md", "records/README.md")


def alternatives(path):
    """'a{b,c}d' -> ['abd', 'acd'] (nested and repeated braces too)."""
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    return [p for choice in m.group(1).split(",") for p in alternatives(path[:m.start()] + choice + path[m.end():])]


def exists(path):
    """The path, or a gzipped copy of it, matches a file or folder."""
    return any(glob.glob(p) for p in (path, path + ".gz"))


def missing_in(page, root):
    """The paths `page` points to that are not there, as 'page:line: path'."""
    out = []
    folder = os.path.dirname(page)
    in_records = os.path.relpath(page, root) == os.path.join("records", "README.md")
    for number, line in enumerate(open(page, encoding="utf-8"), 1):
        wanted = []
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:|^#", target):
                continue
            wanted.append((target.split("#")[0], [folder]))
        for token in CODE.findall(line):
            token = token.rstrip(".,:;)")
            if token.startswith(ROOTS):
                wanted.append((token, [root]))
            elif in_records and "/" in token and not token.startswith(("-", "/", "..")):
                wanted.append((token, [folder, root]))
        for path, bases in wanted:
            for p in alternatives(path):
                if not any(exists(os.path.join(b, p)) for b in bases):
                    out.append("%s:%d: %s" % (os.path.relpath(page, root), number, p))
    return out


def check(root):
    pages = sorted(p for pattern in PAGES for p in glob.glob(os.path.join(root, pattern)))
    return [m for page in pages for m in missing_in(page, root)]


def self_test():
    with tempfile.TemporaryDirectory() as root:
        for d in ("docs", "records/runs", "share/femgpu/forms", "scripts"):
            os.makedirs(os.path.join(root, d))
        for f in ("records/runs/a.log.gz", "records/runs/b.txt", "share/femgpu/forms/mass.ufl", "docs/other.md"):
            open(os.path.join(root, f), "w").close()
        open(os.path.join(root, "README.md"), "w").write(
            "[ok](docs/other.md#x) [web](https://example.org) `records/runs/a.log` `records/runs/{a.log,b.txt}`\n"
            "`share/femgpu/forms/*.ufl` `-option` [gone](docs/gone.md) `records/runs/{b.txt,c.txt}`\n")
        open(os.path.join(root, "records/README.md"), "w").write("`runs/b.txt` `tests/x.sh` `share/femgpu/bench/`\n")
        found = check(root)
        expected = ["README.md:2: docs/gone.md", "README.md:2: records/runs/c.txt", "records/README.md:1: tests/x.sh",
                    "records/README.md:1: share/femgpu/bench/"]
        if sorted(found) != sorted(expected):
            sys.exit("self-test: found %s, expected %s" % (found, expected))
    print("self-test: ok")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    missing = check(sys.argv[1])
    for m in missing:
        print("missing: " + m)
    if missing:
        sys.exit("%d paths in the documentation point to nothing" % len(missing))
    print("every path the documentation names exists")


if __name__ == "__main__":
    main()
