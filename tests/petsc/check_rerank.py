#!/usr/bin/env python3
"""femgpu-bench -rerank and rerank_eval.py on a few Laplace 2D P3 schedules, no GPU.

Checks: one output line per tiled schedule (SCPWI, blank and '#' lines skipped); the
t_heur column at 0 ns equals t_memory; at 150 ns it is larger by t_sync exactly when the
kernel has barriers; a malformed line is an error naming it; rerank_eval.py reads the output.
Usage: check_rerank.py FEMGPU_BENCH RERANK_EVAL_PY
"""
import subprocess
import sys
import tempfile

bench, evaluate = sys.argv[1], sys.argv[2]
schedules = ['tiled nc=4 nwi=63 tq=6 ter=6 tec=[2] tqr=10 tqc=1 fp64',
             'tiled nc=16 nwi=2 tq=6 ter=6 tec=[2] tqr=10 tqc=1 fp64',
             'tiled nc=52 nwi=3 tq=6 ter=6 tec=[1] tqr=5 tqc=1 fp64']
with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
    f.write('# a comment\n\n')
    for i, s in enumerate(schedules):
        f.write('laplace|2|3|%s|%g\n' % (s, 0.1 * (i + 1)))
    f.write('laplace|2|3|scpwi wg=32 fp64|0.05\n')
    good = f.name
run = subprocess.run([bench, '-rerank', good, '-rerank_barrier_ns', '0,150'], capture_output=True, text=True)
failures = []
if run.returncode != 0:
    sys.exit('femgpu-bench -rerank failed: ' + run.stderr)
lines = [l.split('|') for l in run.stdout.splitlines()]
if len(lines) != 3:
    failures.append('expected 3 output lines, got %d: %s' % (len(lines), run.stdout))
for f in lines:
    t_memory, n_sync, at0, at150 = float(f[5]), int(f[6]), float(f[7]), float(f[8])
    if at0 != t_memory:
        failures.append('t_heur at 0 ns %r != t_memory %r' % (at0, t_memory))
    if not (t_memory > 0 and n_sync > 0 and at150 > t_memory):
        failures.append('expected t_memory > 0, barriers and a larger t_heur at 150 ns: ' + '|'.join(f))
with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
    f.write('laplace|two|3|%s|0.1\n' % schedules[0])
    bad = f.name
run_bad = subprocess.run([bench, '-rerank', bad], capture_output=True, text=True)
if run_bad.returncode == 0 or "'two' is not an integer" not in run_bad.stderr:
    failures.append('a malformed line: rc %d, stderr %r' % (run_bad.returncode, run_bad.stderr))
with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
    f.write('laplace|2|3|tiled nc=4 nwi=63 tq=12 ter=12 tec=[2] tqr=10 tqc=1 fp64|0.1\n')  # Q = 6 here
    unfit = f.name
run_unfit = subprocess.run([bench, '-rerank', unfit], capture_output=True, text=True)
if run_unfit.returncode == 0 or 'tq=12' not in run_unfit.stderr:
    failures.append('a schedule that does not fit its case: rc %d, stderr %r' % (run_unfit.returncode, run_unfit.stderr))
ev = subprocess.run([sys.executable, evaluate, '-', '--columns', '2', '--names', '0ns,150ns', '--min-kernels', '3'],
                    input=run.stdout, capture_output=True, text=True)
if ev.returncode != 0 or '1 cases' not in ev.stdout or '150ns' not in ev.stdout:
    failures.append('rerank_eval.py: rc %d, %r %r' % (ev.returncode, ev.stdout, ev.stderr))
print(run.stdout + ev.stdout)
if failures:
    sys.exit('\n'.join(failures))
