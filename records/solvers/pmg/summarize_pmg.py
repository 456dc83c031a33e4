#!/usr/bin/env python3
"""One line per solver log of run_pmg.sh: iterations, and the -log_view event times
(-log_view_gpu_time) that make up a solve: the operator (the example's own 'Time: operator'
line: DMCreateMatrix and DMPlex's assembly for aijcusparse, the Mat's creation for fem_gpu), PC setup (PCSetUp: the p-multigrid's levels, coarse assembly and GAMG;
GAMG's setup), femgpu setup and tuning inside it, and KSPSolve; 'to solution' is
operator + PCSetUp + KSPSolve (the right-hand side, computed on the CPU by PetscDS in
every run alike, is left out and shown on its own: DMPlexResidualFE). For the p-multigrid,
'levels' is FEMGPUPMGLevels (the level DMs, Mats and transfers, built once) and 'coarse'
FEMGPUPMGCoarse (the P1 level's MatConvert). For SNES runs (ex3) 'SNESSolve' is the whole
Newton solve, residuals included.
With --table, one markdown row per problem instead (the logs of run_pmg.sh's sets): CG
iterations on the three meshes and their growth, then 'to solution' of fem_gpu_pmg,
Jacobi, GAMG on femgpu's device assembly and GAMG on DMPlex's, and the ratio of each GAMG
to fem_gpu_pmg (ex3: the SNES solve).
Usage: summarize_pmg.py [--table] LOG..."""
import gzip
import os
import re
import sys


def read_log(path):
    """A log's text, plain or gzipped (records/compress_logs.sh gzips logs over 16 KB)."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return f.read()


def log_name(path):
    """The log's file name without .log or .log.gz."""
    return re.sub(r"\.log(\.gz)?$", "", os.path.basename(path))


def event(text, name):
    """The event's time summed over the -log_view stages it appears in."""
    return sum(float(t) for t in re.findall(r"^%s\s+\d+\s+[\d.]+\s+([\d.eE+-]+)" % re.escape(name), text, re.M))


def parse(path):
    """The numbers of one log, or None when the run did not finish."""
    text = read_log(path)
    its = re.search(r"(\d+) linear iterations in all", text) or re.search(r"KSP iterations (\d+)", text)
    if not its:
        return None
    t = re.search(r"^Time: operator ([\d.]+) s", text, re.M)
    r = dict(its=int(its.group(1)), op=float(t.group(1)) if t else 0.0)
    for key, name in (("pc", "PCSetUp"), ("ksp", "KSPSolve"), ("snes", "SNESSolve"), ("femgpu", "FEMGPUSetUp"), ("tune", "FEMGPUTune"),
                      ("residual", "DMPlexResidualFE"), ("levels", "FEMGPUPMGLevels"), ("coarse", "FEMGPUPMGCoarse")):
        r[key] = event(text, name)
    r["to_solution"] = r["op"] + r["pc"] + r["ksp"]
    r["solution"] = r["snes"] if r["snes"] else r["to_solution"]
    return r


def table(paths):
    """One row per problem: the logs named <problem>_n<N>_<run>.log (ex3: ex3_2d_p2_<run>)."""
    runs = {}
    for path in paths:
        m = re.match(r"(.+?)(?:_n(\d+))?_(pmg_cold|pmg_form_file|pmg|jacobi|gamg_device|gamg)$", log_name(path))
        if m:
            runs.setdefault(m.group(1), {}).setdefault(m.group(3), {})[int(m.group(2) or 0)] = parse(path)
    print("| problem | CG its (3 meshes) | growth | pmg s | Jacobi s (its) | GAMG device asm s (its) | GAMG DMPlex s (its) | DMPlex GAMG / pmg |")
    print("|---|---|---|---|---|---|---|---|")
    for problem, r in sorted(runs.items()):
        pmg = r.get("pmg", {})
        fine = max(pmg) if pmg else 0
        its = [pmg[n]["its"] for n in sorted(pmg) if pmg[n]]
        best = r.get("pmg_form_file", {}).get(fine) or pmg.get(fine)  # ex3: the whole problem from the form file

        def cell(kind):
            x = r.get(kind, {}).get(fine, "absent")
            if x == "absent":
                return "not run"
            if x is None:
                return "did not finish"
            return "%.2f (%d)" % (x["solution"], x["its"])
        gamg = r.get("gamg", {}).get(fine)
        ratio = "%.1fx" % (gamg["solution"] / best["solution"]) if gamg and best else "-"
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            problem, ", ".join(map(str, its)), "%.2f" % (max(its) / min(its)) if its else "-",
            "%.2f" % best["solution"] if best else "-", cell("jacobi"), cell("gamg_device"), cell("gamg"), ratio))


def main():
    if sys.argv[1:2] == ["--table"]:
        table(sys.argv[2:])
        return
    print("%-28s %6s %9s %9s %9s %9s %9s %9s %9s %11s %9s %9s" % ("run", "its", "operator", "PCSetUp", "levels", "coarse", "femgpu", "tuning", "KSPSolve", "to solution", "residual", "SNESSolve"))
    for path in sys.argv[1:]:
        name, r = log_name(path), parse(path)
        if not r:
            print("%-28s %s" % (name, "did not finish"))
            continue
        print("%-28s %6d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %11.3f %9.3f %9.3f" %
              (name, r["its"], r["op"], r["pc"], r["levels"], r["coarse"], r["femgpu"], r["tune"], r["ksp"], r["to_solution"], r["residual"],
               r["snes"]))


if __name__ == "__main__":
    main()
