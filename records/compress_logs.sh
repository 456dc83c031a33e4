#!/usr/bin/env bash
# Keeps records/ small: gzips (gzip -9n, reproducible) in place, foo.log -> foo.log.gz,
#   - every raw log over 16 KB under records/ (*.log and PETSc -log_trace files trace.*),
#   - every .svg figure that has its .png twin beside it (the .png is the one to look at).
# zless, zgrep and the records' own scripts (compare_unbounded.py, solvers/summarize_*.py)
# read them as they are. Logs that a test reads line by line stay plain: they are named
# in plain_logs.txt (one path a line, relative to records/). Run it before committing a
# new record; running it again changes nothing.
# Usage: records/compress_logs.sh
set -euo pipefail
cd "$(dirname "$0")"
declare -A plain=()
while read -r p; do
  [[ -z "$p" || "$p" == \#* ]] || plain["$p"]=1
done < plain_logs.txt
n=0
while IFS= read -r -d '' f; do
  f=${f#./}
  [[ -z "${plain[$f]:-}" ]] || continue
  gzip -9n "$f"
  n=$((n + 1))
done < <(find . -type f \( -name '*.log' -o -name 'trace.[0-9]*' \) -size +16k -print0)
while IFS= read -r -d '' f; do
  [[ -f "${f%.svg}.png" ]] || continue
  gzip -9n "$f"
  n=$((n + 1))
done < <(find . -type f -name '*.svg' -print0)
echo "compress_logs: gzipped $n files; records/ is $(du -sh . | cut -f1) in $(find . -type f | wc -l) files"
