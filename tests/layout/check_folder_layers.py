#!/usr/bin/env python3
"""The folders of src/ are the stages of the data flow, and each may include only the
stages before it (docs/layout.md). A folder that LAYERS names only by its rooms
(`petsc/base`, `petsc/plex`, ...) is cut into sub-folders, each a folder of its own in the
order. This script reads every `#include "folder/..."` line under src/ and fails on

  - a cycle between folders (a includes b, b includes ... a), printed with the include
    line that closes each edge;
  - an include of a later stage than the including folder (LAYERS below, the order of
    docs/layout.md), even where it makes no cycle yet: between rooms too (petsc/plex
    including petsc/mat is a later stage);
  - a folder under src/ that LAYERS does not place, and a file lying directly in a folder
    that is cut into rooms (src/petsc/x.cpp);
  - a cast (dynamic_, static_ or reinterpret_cast) to a backend type in src/petsc/: the
    Mat type talks to the runtime's interfaces (ActionBackend, TransferBackend), whose
    queries say what a backend can do.

Usage: check_folder_layers.py SRC_DIR     (exit 1 and one line per finding on failure)
       check_folder_layers.py --self-test (builds small trees that break each rule and
                                           fails unless every break is found)
"""
import collections
import os
import re
import sys
import tempfile

# Earlier stages first; a folder may include itself and the folders before it.
# The tuner (tune: the plan, its moves and candidates) stands before runtime, which
# compiles and times its candidates (runtime/cuda_tuner.h, opencl_tuner.h implement
# tune/candidate_timer.h), so tune/ cannot include the device; the cost model that ranks
# the candidates is the tuner's own (tune/cost_model.h). src/petsc/ is rooms: PETSc
# basics, the DMPlex side, the Mat type, the p-multigrid PC, the SNES/TS glue and the
# plugin's registration.
LAYERS = ["form", "ir", "fem", "reference", "schedule", "kernel", "tune", "runtime", "cache", "probe",
          "petsc/base", "petsc/plex", "petsc/mat", "petsc/pmg", "petsc/solvers", "tools"]
# The folders cut into rooms: their files lie in a room, and a room is a folder of its own.
ROOMED = {layer.split("/")[0] for layer in LAYERS if "/" in layer}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+(?:/[A-Za-z0-9_]+)*)/[^"/]+"')
BACKEND_CAST = re.compile(r"\b(?:dynamic|static|reinterpret)_cast\s*<[^>]*Backend\b")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cuh", ".cu", ".cl")


def folder_of(relative_dir):
    """The folder a file in src/<relative_dir> belongs to: its top folder, or for a folder
    cut into rooms, the room (`petsc/mat`); a file directly in such a folder belongs to it."""
    parts = relative_dir.replace(os.sep, "/").split("/")
    if parts[0] in ROOMED and len(parts) > 1:
        return parts[0] + "/" + parts[1]
    return parts[0]


def source_files(src):
    for top_name in sorted(os.listdir(src)):
        top = os.path.join(src, top_name)
        if not os.path.isdir(top):
            continue
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield folder_of(os.path.relpath(dirpath, src)), os.path.join(dirpath, name)


def read_edges(src):
    """{(from, to): first 'file:line' that includes `to` from `from`}, and the folders."""
    edges, folders = {}, set()
    for folder, path in source_files(src):
        folders.add(folder)
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m or not os.path.isdir(os.path.join(src, m.group(1))):
                    continue
                target = folder_of(m.group(1))
                if target != folder:
                    edges.setdefault((folder, target), f"{path}:{number}")
    return edges, folders


def find_cycles(edges):
    """The strongly connected components with more than one folder (Tarjan)."""
    graph = collections.defaultdict(list)
    for a, b in sorted(edges):
        graph[a].append(b)
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted({a for a, _ in edges} | {b for _, b in edges}):
        if v not in index:
            visit(v)
    return components


def backend_casts(src):
    petsc = os.path.join(src, "petsc")
    found = []
    for folder, path in source_files(src):
        if folder.split("/")[0] != "petsc":
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if BACKEND_CAST.search(line.split("//", 1)[0]):
                    found.append(f"{path}:{number}: a cast to a backend type in {petsc}; ask the backend interface instead")
    return found


def check(src):
    edges, folders = read_edges(src)
    problems = []
    for component in find_cycles(edges):
        inside = [f"{a} -> {b} ({where})" for (a, b), where in sorted(edges.items()) if a in component and b in component]
        problems.append("cycle between folders " + ", ".join(component) + ": " + "; ".join(inside))
    for folder in sorted(folders - set(LAYERS)):
        if folder in ROOMED:
            problems.append(f"files lie directly in src/{folder}/, which holds rooms only: each file belongs in one of "
                            + ", ".join(f"src/{layer}/" for layer in LAYERS if layer.startswith(folder + "/")))
        else:
            problems.append(f"folder src/{folder} is not placed in LAYERS (tests/layout/check_folder_layers.py, docs/layout.md)")
    rank = {name: i for i, name in enumerate(LAYERS)}
    for (a, b), where in sorted(edges.items()):
        if a in rank and b in rank and rank[b] > rank[a]:
            problems.append(f"{where}: {a}/ includes {b}/, a later stage (order: {' -> '.join(LAYERS)})")
    return problems + backend_casts(src)


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def self_test():
    """Each tree breaks one rule; check() must report it, and pass the clean tree."""
    cases = {
        "clean": ({"ir/a.h": '#include "form/f.h"\n', "form/f.h": "", "petsc/mat/m.cpp": '#include "petsc/plex/p.h"\n// dynamic_cast<CudaBackend *> in a comment\n',
                   "petsc/plex/p.h": '#include "petsc/base/b.h"\n#include "ir/a.h"\n', "petsc/base/b.h": "",
                   "tools/t.cpp": '#include "petsc/solvers/s.h"\n', "petsc/solvers/s.h": '#include "petsc/mat/m.h"\n', "petsc/mat/m.h": ""}, None),
        "cycle": ({"ir/a.h": '#include "fem/t.h"\n', "fem/t.h": '#include "ir/a.h"\n'}, "cycle between folders fem, ir"),
        "later stage": ({"reference/r.h": '#include "kernel/k.h"\n', "kernel/k.h": ""}, "reference/ includes kernel/"),
        "unplaced folder": ({"extra/x.h": ""}, "folder src/extra is not placed"),
        "cache before probe": ({"cache/c.h": '#include "probe/p.h"\n', "probe/p.h": ""}, "cache/ includes probe/"),
        "tuner on the device": ({"tune/t.cpp": '#include "runtime/r.h"\n', "runtime/r.h": ""}, "tune/ includes runtime/"),
        "backend cast": ({"petsc/mat/m.cpp": "auto *c = dynamic_cast<const CudaBackend *>(b);\n"}, "a cast to a backend type"),
        "static backend cast": ({"petsc/mat/m.cpp": "static_cast<CudaBackend *>(ctx->backend.get())->go();\n"}, "a cast to a backend type"),
        "room order": ({"petsc/mat/m.cpp": '#include "petsc/solvers/s.h"\n', "petsc/solvers/s.h": ""}, "petsc/mat/ includes petsc/solvers/"),
        "rooms in a cycle": ({"petsc/plex/p.h": '#include "petsc/mat/m.h"\n', "petsc/mat/m.h": '#include "petsc/plex/p.h"\n'},
                             "cycle between folders petsc/mat, petsc/plex"),
        "file outside the rooms": ({"petsc/loose.cpp": ""}, "files lie directly in src/petsc/"),
        "unplaced room": ({"petsc/extra/x.cpp": ""}, "folder src/petsc/extra is not placed"),
    }
    failures = []
    for name, (files, expected) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                write(root, path, text)
            problems = check(root)
        if expected is None and problems:
            failures.append(f"{name}: reported {problems}")
        if expected is not None and not any(expected in p for p in problems):
            failures.append(f"{name}: expected a report containing '{expected}', got {problems}")
    for f in failures:
        print("self-test:", f)
    print(f"self-test: {len(cases) - len(failures)} of {len(cases)} trees judged right")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    edges, _ = read_edges(argv[1])
    if not problems:
        print(f"{len(edges)} include edges between folders, no cycle, all in the order {' -> '.join(LAYERS)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
