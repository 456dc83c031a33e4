#!/usr/bin/env bash
# One device call on a machine of several GPUs: each argument is a lane, a space-separated
# list of device-tasks.sh tasks, run on its own GPU (CUDA_VISIBLE_DEVICES=i) in parallel
# with the other lanes, one process at a time within a lane, so that no two timed runs
# share a GPU. Lane i writes $OUT/lane<i>/results.tgz and device.txt (two files a lane:
# four lanes fill the eight files a call brings back) and prints its tasks' lines. The
# lanes share the host's cores: keep the tuners' compile threads times the lanes within
# them (the Mats' tuner compiles on 8 threads; femgpu-bench's -compile_threads).
# Usage: scripts/device-lanes.sh "TASK TASK ..." "TASK ..." ...
set -u
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
if (($# > gpus)); then
  echo "device-lanes.sh: $# lanes but $gpus GPUs" >&2
  exit 2
fi
final=$OUT
i=0
for lane in "$@"; do
  mkdir -p "$final/lane$i"
  # shellcheck disable=SC2086  # a lane is a list of tasks
  (CUDA_VISIBLE_DEVICES=$i OUT="$final/lane$i" bash scripts/device-tasks.sh $lane 2>&1 | sed "s/^/lane $i: /"
   echo "lane $i (GPU $i): $lane" >>"$final/lane$i/device.txt") &
  i=$((i + 1))
done
wait
