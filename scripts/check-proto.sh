#!/usr/bin/env bash
# Lints proto/, checks it for breaking changes against the last release (the buf image
# proto/releases/v<N>.binpb with the highest N), and fails when gen/ is not exactly what
# proto/ generates (run scripts/generate.sh to mend it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/.bin"
mkdir -p "$bin"
(cd tools && GOWORK=off GOBIN="$bin" go install tool)
export PATH="$bin:$PATH"

buf lint
release=$(ls proto/releases/v*.binpb 2>/dev/null | sort -V | tail -1 || true)
if [[ -n $release ]]; then
  buf breaking --against "$release"
  echo "no breaking change against $release"
else
  echo "no release image under proto/releases/ yet: nothing to check breaking changes against"
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
