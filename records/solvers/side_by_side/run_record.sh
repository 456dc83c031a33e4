#!/usr/bin/env bash
# The record of issue #55's item 4 in one call: PETSc's ex13 (Poisson) and ex17
# (elasticity), unchanged, 2D and 3D, P2-P4, each at >= 1M unknowns on a Gmsh Kuhn box
# refined by PETSc (the boxes below), with every configuration of run_ex13.sh, libCEED's
# bps (BP3 beside ex13, BP4, its 3-component form, beside ex17) and multigrid (BP3) on the
# same file and refinement, and femgpu-bench's Laplace and elasticity at the same
# degrees. libCEED's BP problems are 3D only (their QFunctions fix dim = 3): no 2D peer.
#
# Cases (program dim degree: Kuhn box cells a side, -dm_refine, unknowns):
#   ex13 3D P2 13 2 1,092,727   P3 17 1 1,030,301   P4 13 1 1,092,727
#   ex17 3D P2  9 2 1,073,733   P3  6 2 1,073,733   P4  9 1 1,073,733
#   ex13 2D P2 126 2 1,014,049  P3 167 1 1,002,001  P4 126 1 1,014,049
#   ex17 2D P2 89 2 1,011,042   P3 119 1 1,016,738  P4 89 1 1,011,042
# and P1 where CASES_3D / CASES_2D name it:
#   ex13 3D P1 13 3 1,092,727   ex17 3D P1  9 3 1,073,733
#   ex13 2D P1 126 3 1,014,049  ex17 2D P1 89 3 1,011,042
# Order, so that the timings that matter run alone: (1) fem_gpu pmg_whole and
# jacobi_whole of every case, one process at a time (each case's first run tunes:
# *_cold); (2) libCEED, one at a time; (3) femgpu-bench; (4) the baselines whose time is
# host work, PETSc's CPU residual (pmg, jacobi) and its assembly (gamg), PARALLEL of them at
# a time (default 4, on a 16-core host; the GPU is shared, their summary says so), each
# cut at BASE_LIMIT seconds (default 120): a cut run's row has no times, and its log ends
# at the limit (the README gives it as "> BASE_LIMIT s").
# After `source .carry/env.sh` on the GPU machine, .carry/ceed for libCEED.
# Environment: PARTS (default "whole ceed bench base"), CASES_3D / CASES_2D (default
#   "p2 p3 p4"; empty: none), BENCH_DIMS (default "3 2"), PARALLEL, BASE_LIMIT, CALL_END (seconds since the epoch after which no
#   new run starts; default none), WHOLE_CONFIGS (the fem_gpu rows of (1), default "pmg_whole
#   jacobi_whole"); EXTRA and TAG reach run_ex13.sh (an option's variant of the rows).
# Usage: run_record.sh OUTPUT_DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$1"
mkdir -p "$out"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$out/cache}"
declare -A box=([ex13_3_p2]="13 2" [ex13_3_p3]="17 1" [ex13_3_p4]="13 1" [ex17_3_p2]="9 2" [ex17_3_p3]="6 2" [ex17_3_p4]="9 1"
  [ex13_2_p2]="126 2" [ex13_2_p3]="167 1" [ex13_2_p4]="126 1" [ex17_2_p2]="89 2" [ex17_2_p3]="119 1" [ex17_2_p4]="89 1"
  [ex13_3_p1]="13 3" [ex17_3_p1]="9 3" [ex13_2_p1]="126 3" [ex17_2_p1]="89 3")
cases() {  # "program dim case" lines, every case of the plan
  for dim in 3 2; do
    local list=${CASES_3D-p2 p3 p4}
    [ "$dim" = 2 ] && list=${CASES_2D-p2 p3 p4}
    for program in ex13 ex17; do for c in $list; do echo "$program $dim $c"; done; done
  done
}
# Every mesh first (the parallel runs of (4) would otherwise race to write one).
mkbox="$here/../../../tests/petsc/make_gmsh_box.py"
[ -e "$out/box.msh" ] || python3 "$mkbox" 3 13 "$out/box.msh"
for key in "${!box[@]}"; do
  read -r n r <<<"${box[$key]}"
  d=${key#*_}; d=${d%%_*}
  [ -e "$out/box${d}d_$n.msh" ] || python3 "$mkbox" "$d" "$n" "$out/box${d}d_$n.msh"
done
in_time() { [ -z "${CALL_END:-}" ] || [ "$(date +%s)" -lt "$CALL_END" ]; }
parts=" ${PARTS:-whole ceed bench base} "

if [[ "$parts" == *" whole "* ]]; then
  while read -r program dim c; do
    in_time || { echo "whole: no time left for $program ${dim}D $c"; continue; }
    read -r n r <<<"${box[${program}_${dim}_$c]}"
    PROGRAM=$program DIM=$dim BOX=$n REFINE=$r CASES=$c CONFIGS="${WHOLE_CONFIGS:-pmg_whole jacobi_whole}" "$here/run_ex13.sh" "$out"
  done < <(cases)
fi

if [[ "$parts" == *" ceed "* ]]; then
  for c in ${CASES_3D-p2 p3 p4}; do
    in_time || { echo "ceed: no time left for $c"; continue; }
    read -r n r <<<"${box[ex13_3_$c]}"
    BOX=$n REFINE=$r CASES=$c BPS_PROBLEMS=bp3 TAG="_ex13" "$here/run_ceed.sh" "$out"
    read -r n r <<<"${box[ex17_3_$c]}"
    BOX=$n REFINE=$r CASES=$c RUNS=ceed_bps BPS_PROBLEMS=bp4 TAG="_ex17" "$here/run_ceed.sh" "$out"
  done
fi

if [[ "$parts" == *" bench "* ]]; then
  # femgpu-bench on its lattice at about a million unknowns, as the cases: operator, dim,
  # degree, lattice cells a side (Laplace 3D P2 n3=51: 103^3 interior nodes).
  commit="$(cat "$here/../../../.carry/COMMIT" 2>/dev/null || echo unknown)"
  while read -r op dim k n; do
    [[ " ${BENCH_DIMS:-3 2} " == *" $dim "* ]] || continue
    in_time || { echo "bench: no time left for $op ${dim}D P$k"; continue; }
    name="bench_${op}_${dim}d_p$k"
    femgpu-bench -ops "$op" -dims "$dim" -n$dim "$n" -min_degree "$k" -max_degree_${dim}d "$k" -csv "$out/$name.csv" -commit "$commit" \
      >"$out/$name.log" 2>&1
    echo "$name: rc=$? $(tail -n 1 "$out/$name.csv" 2>/dev/null)"
  done <<'CASES'
laplace 3 2 51
laplace 3 3 34
laplace 3 4 26
elasticity 3 2 36
elasticity 3 3 24
elasticity 3 4 18
laplace 2 2 500
laplace 2 3 334
laplace 2 4 250
elasticity 2 2 354
elasticity 2 3 236
elasticity 2 4 177
CASES
fi

if [[ "$parts" == *" base "* ]]; then
  jobs_running() { jobs -rp | wc -l; }
  while read -r program dim c; do
    for config in gamg pmg jacobi; do
      in_time || { echo "base: no time left for $program ${dim}D $c $config"; continue; }
      while [ "$(jobs_running)" -ge "${PARALLEL:-4}" ]; do sleep 1; done
      read -r n r <<<"${box[${program}_${dim}_$c]}"
      # the tuning cache is warm from (1); the runs append to their own logs only
      PROGRAM=$program DIM=$dim BOX=$n REFINE=$r CASES=$c CONFIGS=$config RUN_LIMIT=${BASE_LIMIT:-120} \
        "$here/run_ex13.sh" "$out" > "$out/.base_${program}_${dim}_${c}_$config.txt" 2>&1 &
    done
  done < <(cases)
  wait
  cat "$out"/.base_*.txt 2>/dev/null
fi
