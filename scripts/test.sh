#!/usr/bin/env bash
# Runs every check and every test of every module. Needs only Go (and bash).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
modules=(gen rules services/platform services/resolver services/encounter cli)

echo "== proto: lint, breaking changes, generated code"
scripts/check-proto.sh

echo "== gofmt"
unformatted=$(gofmt -l "${modules[@]}")
if [[ -n $unformatted ]]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi

echo "== each module builds on its own (GOWORK=off)"
for m in "${modules[@]}"; do (cd "$m" && GOWORK=off go build ./...); done

echo "== go vet"
go vet work

echo "== go test"
go test -race -count=1 work

if [[ -x ../shared/tools/rules-coverage ]]; then
  echo "== rule coverage (rule IDs cited by tests)"
  ../shared/tools/rules-coverage "$root" || true
fi
