# Sourced by the sanitizer scripts (run_identity_sanitizers.sh, run_staged_sanitizers.sh):
#   sanitize_gpu_check OUT_DIR "FORM ..." GPU_CHECK_OPTIONS...
# runs femgpu-gpu-check -ops FORM under compute-sanitizer memcheck and racecheck for each
# form, into OUT_DIR/{memcheck,racecheck}.txt (the device in OUT_DIR/device.txt), printing
# each run's status and summary; returns the last failing status, 0 if none failed.
sanitize_gpu_check()
{
  local out=$1 forms=$2 tool form rc status=0
  shift 2
  mkdir -p "$out"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
  for tool in memcheck racecheck; do
    for form in $forms; do
      echo "=== compute-sanitizer --tool $tool femgpu-gpu-check -ops $form" | tee -a "$out/$tool.txt"
      compute-sanitizer --tool "$tool" --error-exitcode 3 femgpu-gpu-check -ops "$form" "$@" >>"$out/$tool.txt" 2>&1
      rc=$?
      echo "rc=$rc" | tee -a "$out/$tool.txt"
      tail -n 3 "$out/$tool.txt"
      ((rc == 0)) || status=$rc
    done
  done
  return $status
}
