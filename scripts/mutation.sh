#!/usr/bin/env bash
# Mutation testing of the rules module's packages with gremlins, done so that it means
# something: gremlins copies the module (rules/) alone into a temporary folder for each
# mutant, where rules/go.mod's `replace … => ../gen` finds nothing, so every mutant's
# `go test` fails to set up, exits 1, and is counted KILLED. Here the copies use a go.mod
# whose replace is absolute (GOFLAGS=-modfile), outside any workspace (GOWORK=off), built
# with -trimpath so that the build cache, which then does not depend on the copy's folder,
# serves every copy (without it each mutant rebuilt all of rules/ that the package imports).
#
#   scripts/mutation.sh ./narrate ./loss     # from the repository's root; gremlins installed:
#   go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gremlins=${GREMLINS:-$(command -v gremlins || echo "$HOME/go/bin/gremlins")}
[[ -x $gremlins ]] || { echo "gremlins not found: go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0" >&2; exit 2; }
[[ $# -gt 0 ]] || { echo "usage: scripts/mutation.sh ./PKG... (packages of rules/)" >&2; exit 2; }
mod=$(mktemp -d)
trap 'rm -rf "$mod"' EXIT
sed "s#=> \.\./gen#=> $root/gen#" "$root/rules/go.mod" >"$mod/go.mod"
cp "$root/rules/go.sum" "$mod/go.sum"
grep -q "=> $root/gen" "$mod/go.mod" || { echo "rules/go.mod has no replace of ../gen to rewrite" >&2; exit 1; }
cd "$root/rules"
status=0
for pkg in "$@"; do
  echo "== gremlins unleash $pkg"
  GOWORK=off GOFLAGS="-modfile=$mod/go.mod -trimpath" "$gremlins" unleash --workers "${WORKERS:-2}" "$pkg" || status=1
done
exit $status
