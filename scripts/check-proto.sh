#!/usr/bin/env bash
# Lints proto/, checks it for breaking changes against the previous commit, and fails when
# gen/ is not exactly what proto/ generates (run scripts/generate.sh to mend it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/.bin"
mkdir -p "$bin"
(cd tools && GOWORK=off GOBIN="$bin" go install tool)
export PATH="$bin:$PATH"

buf lint
if git rev-parse -q --verify HEAD~1 >/dev/null && git cat-file -e HEAD~1:buf.yaml 2>/dev/null; then
  buf breaking --against ".git#ref=HEAD~1"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
buf generate -o "$tmp"
if ! diff -r "$tmp/gen/fray" gen/fray >"$tmp/diff"; then
  head -50 "$tmp/diff"
  echo "gen/ has drifted from proto/: run scripts/generate.sh and commit gen/" >&2
  exit 1
fi
echo "gen/ matches proto/"
