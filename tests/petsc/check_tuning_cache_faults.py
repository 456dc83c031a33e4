#!/usr/bin/env python3
"""Bad tuning-cache files on the OpenCL backend, for ctest: every one means "tune and go
on" with the right y = A u, and only femgpu caches are ever written.

  check_tuning_cache_faults.py WORKDIR -- FEMGPU_APPLY ARGS...

Each case points -mat_fem_gpu_tune_cache at a bad file and expects the run to tune, say
why (the monitor and a PetscInfo line under -info) and leave the file as it was:
  a foreign JSON file, a symbolic link, a FIFO, a read-only cache (stored into with
  -mat_fem_gpu_retune); leftover temporary files of a killed writer (cleared by the next
  store); entries with a valid checksum holding schedules OpenCL cannot run (mma,
  scatter=warp: skipped as invalid, retuned and replaced).
"""
import json
import os
import re
import shutil
import stat
import sys

from check_tuning_cache import read_petsc_vec, run, expect


def fnv1a_hex(text):
    h = 14695981039346656037
    for byte in text.encode():
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def with_schedule(cache_text, schedule):
    """The cache with every entry's schedule replaced and its checksum recomputed: the
    checksum is FNV-1a 64 over "key=value\\n" of every other field, numbers as written."""
    top = json.loads(cache_text, parse_float=str, parse_int=str)
    for entry in top["entries"]:
        entry["schedule"] = schedule
        entry["checksum"] = fnv1a_hex("".join("%s=%s\n" % (k, v) for k, v in entry.items() if k != "checksum"))
    text = json.dumps(top, indent=2)
    for entry in top["entries"]:  # numbers back to bare tokens
        for k, v in entry.items():
            if k in ("degree", "components", "coordinate_degree", "quadrature_degree", "quadrature_points", "cells_bucket",
                     "median_seconds", "candidates_timed"):
                text = text.replace('"%s": "%s"' % (k, v), '"%s": %s' % (k, v))
    return text


def main():
    split = sys.argv.index("--")
    workdir, command = sys.argv[1], sys.argv[split + 1:]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    y = lambda name: os.path.join(workdir, name + ".bin")  # noqa: E731
    run(command + ["-mat_fem_gpu_backend", "cpu"], "cpu reference", y("cpu"))
    reference = read_petsc_vec(y("cpu"))
    scale = max(1.0, max(abs(v) for v in reference))

    def tuned_run(cache, label, extra=()):
        opencl = command + ["-mat_fem_gpu_backend", "opencl", "-mat_fem_gpu_strategy", "auto", "-mat_fem_gpu_tune_cache", cache,
                            "-mat_fem_gpu_tune_monitor", "-apply_mat_view", "-info"] + list(extra)
        out = run(opencl, label, y(label))
        values = read_petsc_vec(y(label))
        err = max(abs(a - b) for a, b in zip(values, reference))
        if len(values) != len(reference) or err > 1e-12 * scale:
            sys.exit("FAIL (%s): y differs from the CPU backend by %g" % (label, err))
        print("ok (%s): y matches the CPU backend, max difference %g" % (label, err))
        return out

    def untouched(path, before, label):
        with open(path, "rb") as f:
            if f.read() != before:
                sys.exit("FAIL (%s): %s was changed" % (label, path))

    foreign = os.path.join(workdir, "project.json")
    with open(foreign, "w") as f:
        f.write('{"name": "my project", "entries": []}\n')
    out = tuned_run(foreign, "foreign")
    expect(r"not a femgpu tuning cache", out, "foreign")
    expect(r"tuned: \d+ candidates", out, "foreign")
    expect(r"\[0\] <mat> .*tuned schedule used but not saved: .*not a femgpu cache", out, "foreign")
    untouched(foreign, b'{"name": "my project", "entries": []}\n', "foreign")

    link, target = os.path.join(workdir, "link.json"), os.path.join(workdir, "link_target.json")
    os.symlink(target, link)
    out = tuned_run(link, "symlink")
    expect(r"not saved: .*symbolic link", out, "symlink")
    if not os.path.islink(link) or os.path.exists(target):
        sys.exit("FAIL (symlink): the link was replaced or written through")

    fifo = os.path.join(workdir, "fifo.json")
    os.mkfifo(fifo)
    out = tuned_run(fifo, "fifo")
    expect(r"\[0\] <mat> .*unreadable file .*not a regular file", out, "fifo")
    if not stat.S_ISFIFO(os.stat(fifo).st_mode):
        sys.exit("FAIL (fifo): the FIFO was replaced")

    cache = os.path.join(workdir, "tuning.json")
    tuned_run(cache, "fresh")
    with open(cache, "rb") as f:
        good = f.read()
    for name, text in (("tuning.json.tmp.999999.0", good[: len(good) // 2]), ("tuning.json.tmp.999999.1", b"")):
        with open(os.path.join(workdir, name), "wb") as f:
            f.write(text)
    out = tuned_run(cache, "stale temporaries")
    expect(r"tune: from cache", out, "stale temporaries")
    out = tuned_run(cache, "store past stale temporaries", ["-mat_fem_gpu_retune"])
    expect(r"saved to " + re.escape(cache), out, "store past stale temporaries")
    if [n for n in os.listdir(workdir) if ".tmp." in n]:
        sys.exit("FAIL (stale temporaries): leftover temporary files were not removed")

    with open(cache, "rb") as f:
        good = f.read()
    os.chmod(cache, 0o444)
    out = tuned_run(cache, "read-only", ["-mat_fem_gpu_retune"])
    expect(r"not saved: .*read-only", out, "read-only")
    untouched(cache, good, "read-only")
    os.chmod(cache, 0o644)

    for label, schedule in (("mma entry", "mma nc=8 warps=4 tq=8 fp64"), ("warp scatter entry", "scpwi wg=32 scatter=warp fp64")):
        with open(cache, "w") as f:
            f.write(with_schedule(good.decode(), schedule))
        out = tuned_run(cache, label)
        expect(r"\[0\] <mat> .*invalid schedule .*which OpenCL C 1.2 does not have", out, label)
        expect(r"tuned: \d+ candidates", out, label)
        with open(cache) as f:
            if schedule in f.read():
                sys.exit("FAIL (%s): the entry OpenCL cannot run was not replaced" % label)
        out = tuned_run(cache, label + " replaced")
        expect(r"tune: from cache", out, label + " replaced")
    print("ok: foreign, linked, FIFO, read-only and stale files left alone or cleared; unrunnable entries retuned")


if __name__ == "__main__":
    main()
