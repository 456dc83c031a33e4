#!/usr/bin/env python3
"""The tuning cache end to end on the OpenCL backend, for ctest.

  check_tuning_cache.py WORKDIR -- FEMGPU_APPLY ARGS...

Runs femgpu-apply (ARGS: form, mesh, field) with one temporary cache file:
  1. the CPU backend, the reference y = A u;
  2. OpenCL, strategy auto, no cache file yet: tunes (MatView: "tuned: N candidates");
  3. the same again: "from cache", and its FEMGPUTune time (-log_view) is tiny next
     to run 2's (compared with each other, no fixed time);
  4. an entry edited by hand (checksum mismatch): retunes and rewrites the entry;
  5. a truncated file (corrupt): retunes and rewrites the file; then a hit again;
  6. -mat_fem_gpu_retune with a valid entry: tunes anyway.
Every run's y = A u must match the CPU backend's to 1e-12 (relative to max |y|).
"""
import os
import re
import struct
import subprocess
import sys


def read_petsc_vec(path):
    """A Vec written by PETSc's binary viewer: class id, length, big-endian doubles."""
    with open(path, "rb") as f:
        data = f.read()
    classid, n = struct.unpack(">ii", data[:8])
    if classid != 1211214:
        sys.exit("FAIL: %s is not a PETSc Vec (class id %d)" % (path, classid))
    return struct.unpack(">%dd" % n, data[8:8 + 8 * n])


def run(command, label, y_path):
    full = command + ["-apply_y_view", "binary:" + y_path]
    r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=280)
    print("=== %s\n$ %s\n%s" % (label, " ".join(full), r.stdout))
    if r.returncode != 0:
        sys.exit("FAIL (%s): exit code %d" % (label, r.returncode))
    return r.stdout


def tune_seconds(out, label):
    # One line per log stage it ran in: the cache lookup in "femgpu setup", a tuning in
    # "femgpu tuning".
    times = re.findall(r"^FEMGPUTune\s+\d+\s+\S+\s+(\S+)", out, re.M)
    if not times:
        sys.exit("FAIL (%s): no FEMGPUTune line in -log_view" % label)
    return sum(float(t) for t in times)


def expect(pattern, out, label):
    m = re.search(pattern, out, re.M)
    if not m:
        sys.exit("FAIL (%s): the output does not match %r" % (label, pattern))
    return m


def main():
    split = sys.argv.index("--")
    workdir, command = sys.argv[1], sys.argv[split + 1:]
    os.makedirs(workdir, exist_ok=True)
    cache = os.path.join(workdir, "tuning.json")
    if os.path.exists(cache):
        os.remove(cache)
    y = lambda name: os.path.join(workdir, name + ".bin")  # noqa: E731

    run(command + ["-mat_fem_gpu_backend", "cpu"], "cpu reference", y("cpu"))
    reference = read_petsc_vec(y("cpu"))
    scale = max(1.0, max(abs(v) for v in reference))

    def check_y(name):
        values = read_petsc_vec(y(name))
        err = max(abs(a - b) for a, b in zip(values, reference))
        if len(values) != len(reference) or err > 1e-12 * scale:
            sys.exit("FAIL (%s): y differs from the CPU backend by %g" % (name, err))
        print("ok (%s): y matches the CPU backend, max difference %g" % (name, err))

    opencl = command + ["-mat_fem_gpu_backend", "opencl", "-mat_fem_gpu_strategy", "auto", "-mat_fem_gpu_tune_cache", cache,
                        "-mat_fem_gpu_tune_monitor", "-apply_mat_view", "-log_view"]

    out = run(opencl, "first run", y("first"))
    m = expect(r"tuned: (\d+) candidates", out, "first run")
    expect(r"saved to " + re.escape(cache), out, "first run")
    first = tune_seconds(out, "first run")
    print("ok (first run): tuned %s candidates in %g s" % (m.group(1), first))
    check_y("first")

    out = run(opencl, "second run", y("second"))
    expect(r"fem_gpu tune: cache hit in " + re.escape(cache), out, "second run")
    expect(r"tune: from cache " + re.escape(cache), out, "second run")
    if re.search(r"tuned: \d+ candidates", out):
        sys.exit("FAIL (second run): tuned again despite a valid entry")
    second = tune_seconds(out, "second run")
    if not second < 0.25 * first:  # a lookup against building and timing every candidate
        sys.exit("FAIL (second run): FEMGPUTune took %g s, not tiny next to the first run's %g s" % (second, first))
    print("ok (second run): from cache, FEMGPUTune %g s against %g s when tuning" % (second, first))
    check_y("second")

    with open(cache) as f:
        text = f.read()
    edited = re.sub(r'"candidates_timed": (\d+)', lambda m: '"candidates_timed": %d' % (int(m.group(1)) + 1), text, count=1)
    with open(cache, "w") as f:
        f.write(edited)
    out = run(opencl, "edited entry", y("edited"))
    expect(r"checksum mismatch", out, "edited entry")
    expect(r"tuned: \d+ candidates", out, "edited entry")
    check_y("edited")

    with open(cache) as f:
        text = f.read()
    with open(cache, "w") as f:
        f.write(text[: len(text) // 3])
    out = run(opencl, "truncated file", y("truncated"))
    expect(r"corrupt file", out, "truncated file")
    expect(r"tuned: \d+ candidates", out, "truncated file")
    check_y("truncated")
    out = run(opencl, "after the rewrite", y("rewritten"))
    expect(r"tune: from cache", out, "after the rewrite")
    check_y("rewritten")

    out = run(opencl + ["-mat_fem_gpu_retune"], "retune", y("retune"))
    expect(r"-mat_fem_gpu_retune: cache entry ignored", out, "retune")
    expect(r"tuned: \d+ candidates", out, "retune")
    check_y("retune")
    print("ok: tuned, cached, rejected an edited entry and a truncated file, retuned on request")


if __name__ == "__main__":
    main()
