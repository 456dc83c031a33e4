#!/usr/bin/env bash
# The device probe on a GPU machine: two forced probes (to see run-to-run spread), then
# a third run that must read the first run's cache file back without probing.
# Usage: tests/gpu/run_probe.sh [OUTPUT_DIR]   (femgpu-probe on PATH, e.g. after
# `source .carry/env.sh` from scripts/pack-for-device.sh)
set -euo pipefail
out="${1:-.}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee "$out/device.txt"
femgpu-probe --force --cache "$out/device-params.json" 2>&1 | tee "$out/probe_1.txt"
femgpu-probe --force --cache "$out/device-params-2.json" 2>&1 | tee "$out/probe_2.txt" | grep -E "^(beta_|flops_|sg_sat_)"
femgpu-probe --cache "$out/device-params.json" --json > "$out/probe_cached.json"
if cmp -s "$out/device-params.json" "$out/probe_cached.json"; then
  echo "run_probe: the cache file was read back unchanged"
else
  echo "run_probe: ERROR: the third run did not reproduce the cache file" >&2
  exit 1
fi
