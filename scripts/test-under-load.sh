#!/usr/bin/env bash
# A check of the test suite itself: clones this repository (its main, or the ref given) into
# a temporary folder and runs .ci/run there beside a CPU hog — HOGS busy loops (default 4),
# GOMAXPROCS unchanged — as on a CI machine busy with other work. It must pass. The loops it
# started are killed (by their PIDs) and the clone removed however it ends; it says how long
# the run took and the load average it ran at.
#
#   scripts/test-under-load.sh            # main
#   scripts/test-under-load.sh h/branch   # another branch or a commit
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-main}
hogs=${HOGS:-4}

dir=$(mktemp -d "${TMPDIR:-/tmp}/fray-under-load.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

git clone --quiet --no-hardlinks "$root" "$dir/fray"
commit=$(git -C "$dir/fray" rev-parse --verify --quiet "origin/$ref^{commit}" || git -C "$dir/fray" rev-parse --verify "$ref^{commit}")
git -C "$dir/fray" checkout --quiet --detach "$commit"
echo "test-under-load: $(git -C "$dir/fray" log -1 --format='%h %s' | cut -c1-100)"

for _ in $(seq "$hogs"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "test-under-load: $hogs busy loops (PIDs ${pids[*]}) beside .ci/run; load average $(cut -d' ' -f1-3 /proc/loadavg)"

began=$SECONDS
status=0
(cd "$dir/fray" && bash .ci/run) || status=$?
took=$((SECONDS - began))
echo "test-under-load: .ci/run $([[ $status == 0 ]] && echo passed || echo "FAILED (exit $status)") in $((took / 60))m$((took % 60))s; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
