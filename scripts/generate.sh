#!/usr/bin/env bash
# Regenerates gen/ from proto/ with buf and the protoc plugins pinned in tools/go.mod.
# Generates into a temporary folder first, so gen/ is replaced in one step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/.bin"
mkdir -p "$bin"
(cd tools && GOWORK=off GOBIN="$bin" go install tool)
export PATH="$bin:$PATH"
buf lint
tmp=$(mktemp -d "$root/gen/.generate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
buf generate -o "$tmp"
rm -rf gen/fray
mv "$tmp/gen/fray" gen/fray
