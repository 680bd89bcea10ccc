#!/usr/bin/env bash
# Regenerates gen/ from proto/ with buf and the protoc plugins pinned in tools/go.mod.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/.bin"
mkdir -p "$bin"
(cd tools && GOWORK=off GOBIN="$bin" go install tool)
export PATH="$bin:$PATH"
buf lint
rm -rf gen/fray
buf generate
