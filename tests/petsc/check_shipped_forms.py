#!/usr/bin/env python3
"""Applies every shipped form file through femgpu-apply, for ctest.

  check_shipped_forms.py FEMGPU_APPLY FORMS_DIR [-- MPIEXEC ...]

Globs FORMS_DIR/*.ufl, FORMS_DIR/extra/*.ufl and FORMS_DIR/ufl/*.ufl at run time (a form
added later is tested without a new line here) and runs each on a 2x2 box at degree 2.
What each file needs is read from the file itself: its header's 'Element:' line says
scalar or vector (vector forms get d = 2 components), a FEniCS-style file's own
FiniteElement/VectorElement gives the degree (its cell must be a triangle), and each
Coefficient("name") or 'name = Coefficient(element)' is given by -coefficient_<name>_expr.
Passes when every form prints a finite a(u,v).
"""
import glob
import math
import os
import re
import subprocess
import sys

SCALAR = {"u": "1 + x[0]*x[1]", "v": "x[0] + 2*x[1]", "w": "x[0]*x[1]"}
VECTOR = {"u": "as_vector([x[1], x[0]])", "v": "as_vector([x[0]*x[1], 1 + x[1]])", "w": "as_vector([x[0], x[1]/2])"}


def options(path, text):
    element = re.search(r"^#\s*Element:(.*)$", text, re.M)
    if not element:
        raise ValueError("%s: its header has no 'Element:' line (scalar or vector Lagrange)" % path)
    vector = "vector" in element.group(1).lower()
    exprs = VECTOR if vector else SCALAR
    declared = re.search(r"(?:Finite|Vector)Element\(\s*[\"'][^\"']+[\"']\s*,\s*[\"']?\w+[\"']?\s*,\s*(\d+)", text)
    degree = declared.group(1) if declared else "2"
    opts = ["-form_file", path, "-dm_plex_dim", "2", "-dm_plex_box_faces", "2,2", "-degree", degree,
            "-components", "2" if vector else "1", "-u_expr", exprs["u"], "-v_expr", exprs["v"]]
    names = re.findall(r"Coefficient\(\s*[\"'](\w+)[\"']", text) + re.findall(r"^(\w+)\s*=\s*Coefficient\(\s*\w", text, re.M)
    for name in names:
        opts += ["-coefficient_%s_expr" % name, exprs["w"]]
    return opts


def main():
    apply, forms_dir = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(forms_dir, "*.ufl")) + glob.glob(os.path.join(forms_dir, "extra", "*.ufl")) +
                   glob.glob(os.path.join(forms_dir, "ufl", "*.ufl")))
    if not files:
        sys.exit("FAIL: no form files under " + forms_dir)
    failed = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            command = [apply] + options(path, text)
        except ValueError as e:
            failed.append(str(e))
            continue
        r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        value = re.search(r"^a\(u,v\) = (\S+)$", r.stdout, re.M)
        ok = r.returncode == 0 and value and math.isfinite(float(value.group(1)))
        print("%-40s %s" % (os.path.relpath(path, forms_dir), value.group(0) if value else "(no value)"))
        if not ok:
            failed.append("%s: exit %d\n  %s\n%s" % (path, r.returncode, " ".join(command), r.stdout))
    if failed:
        sys.exit("FAIL: %d of %d forms:\n%s" % (len(failed), len(files), "\n".join(failed)))
    print("ok: %d forms applied, every a(u,v) finite" % len(files))


if __name__ == "__main__":
    main()
