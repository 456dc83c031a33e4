#!/usr/bin/env python3
"""femgpu-probe --backend opencl end to end, for ctest.

  check_probe_tool.py WORKDIR -- FEMGPU_PROBE [ARGS...]

With one cache file WORKDIR/device.json:
  1. --force: measures, writes the file, prints the table: every DeviceParams row with
     a positive measured value, and the sub-group curve;
  2. again: reads the file ("read from"), the same numbers;
  3. --json: prints exactly the file, whose key is an OpenCL one;
  4. the file truncated: ignored (named on stderr), re-probed, rewritten.
"""
import json
import os
import re
import subprocess
import sys

ROWS = ["beta_global", "beta_local", "beta_ldg", "flops_peak", "sg_sat_global", "sg_sat_local", "subgroup_width",
        "local_max_bytes", "local_max_per_group", "groups_max", "threads_max"]


def run(command, label):
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    print("=== %s\n$ %s\n%s" % (label, " ".join(command), r.stdout))
    if r.returncode != 0:
        sys.exit("FAIL (%s): exit code %d" % (label, r.returncode))
    return r.stdout


def expect(pattern, out, label):
    m = re.search(pattern, out, re.M)
    if not m:
        sys.exit("FAIL (%s): the output does not match %r" % (label, pattern))
    return m


def measured(out, label):
    """The 'measured' column of each row: name (20 wide), what (24 wide), measured, ..."""
    values = {}
    for name in ROWS:
        line = expect(r"^%s .*$" % name, out, label).group(0)
        value = float(line[20 + 1 + 24:].split()[0])
        if not value > 0:
            sys.exit("FAIL (%s): %s = %g is not positive" % (label, name, value))
        values[name] = value
    return values


def main():
    split = sys.argv.index("--")
    workdir, tool = sys.argv[1], sys.argv[split + 1:]
    os.makedirs(workdir, exist_ok=True)
    cache = os.path.join(workdir, "device.json")
    command = tool + ["--backend", "opencl", "--cache", cache]

    out = run(command + ["--force", "--runs", "3"], "1. probe")
    expect(r"^measured; cache written to " + re.escape(cache), out, "1. probe")
    expect(r"\(OpenCL\)$", out, "1. probe")
    first = measured(out, "1. probe")
    expect(r"^\s+1\s+\S+\s+\S+$", out, "1. probe")  # the curve starts at one sub-group

    out = run(command, "2. cached")
    expect(r"^read from " + re.escape(cache), out, "2. cached")
    if measured(out, "2. cached") != first:
        sys.exit("FAIL (2. cached): the cached values differ from the measured ones")

    out = run(command + ["--json"], "3. json")
    with open(cache) as f:
        text = f.read()
    if out != text:
        sys.exit("FAIL (3. json): --json does not print the cache file")
    entry = json.loads(text)
    if entry["backend"] != "opencl" or "nvrtc_version" in entry:
        sys.exit("FAIL (3. json): not an OpenCL key")

    with open(cache, "w") as f:
        f.write(text[: len(text) // 2])
    out = run(command + ["--runs", "3"], "4. corrupt")
    expect(r"^femgpu-probe: ignored " + re.escape(cache), out, "4. corrupt")
    expect(r"^measured; cache written to", out, "4. corrupt")
    with open(cache) as f:
        json.loads(f.read())
    print("ok: measured, cached, printed as JSON, and re-probed when corrupt")


if __name__ == "__main__":
    main()
