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
#
# How docs/mutation.md's runs are made — one file of a package at a time, on a busy machine:
#
#   ONLY=legal.go GOFLAGS='-vet=off -ldflags=-w' WORKERS=2 \
#     scripts/mutation.sh ./loss -- --timeout-coefficient 80
#
# - ONLY: a regexp (Go syntax) of the package's file names to mutate; every other non-test
#   .go file of the package is excluded with -E. The tests of the whole package still run.
# - GOFLAGS: added to the script's own (-modfile, -trimpath). -vet=off saves the vet pass
#   of each mutant's `go test`, -ldflags=-w the DWARF of each test binary.
# - Everything after `--` goes to `gremlins unleash` as is: --timeout-coefficient 80 because
#   at a load of 10–40 a mutant's tests take many times the coverage run's time, and gremlins
#   would count a slow run as TIMED OUT; -o FILE for gremlins' JSON results.
# - WORKERS: gremlins' --workers (default 2).
# To edit tests while a run goes on, run the script of a snapshot (gremlins copies the
# module it is run from): git archive HEAD | tar -x -C /tmp/snap && /tmp/snap/scripts/mutation.sh …
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gremlins=${GREMLINS:-$(command -v gremlins || echo "$HOME/go/bin/gremlins")}
[[ -x $gremlins ]] || { echo "gremlins not found: go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0" >&2; exit 2; }
pkgs=()
while [[ $# -gt 0 && $1 != -- ]]; do pkgs+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
[[ ${#pkgs[@]} -gt 0 ]] || { echo "usage: [ONLY=REGEXP] scripts/mutation.sh ./PKG... [-- GREMLINS-FLAGS...] (packages of rules/)" >&2; exit 2; }
mod=$(mktemp -d)
trap 'rm -rf "$mod"' EXIT
sed "s#=> \.\./gen#=> $root/gen#" "$root/rules/go.mod" >"$mod/go.mod"
cp "$root/rules/go.sum" "$mod/go.sum"
grep -q "=> $root/gen" "$mod/go.mod" || { echo "rules/go.mod has no replace of ../gen to rewrite" >&2; exit 1; }
cd "$root/rules"
status=0
for pkg in "${pkgs[@]}"; do
  exclude=()
  if [[ -n ${ONLY:-} ]]; then
    # gremlins matches -E against a file's path relative to the package's folder.
    kept=0
    for f in "$pkg"/*.go; do
      name=${f##*/}
      [[ $name == *_test.go ]] && continue
      if grep -qE "^(${ONLY})\$" <<<"$name"; then kept=$((kept + 1)); else exclude+=(-E "^${name//./\\.}\$"); fi
    done
    [[ $kept -gt 0 ]] || { echo "ONLY=$ONLY matches no non-test file of $pkg" >&2; status=1; continue; }
  fi
  echo "== gremlins unleash $pkg${ONLY:+ (only $ONLY)}"
  # -count=1: gremlins times its coverage run and gives each mutant that time × the
  # coefficient; a cached coverage run (the same tests again: -trimpath makes the cache serve
  # any copy) takes half a second, and every mutant would then be counted TIMED OUT.
  GOWORK=off GOFLAGS="-modfile=$mod/go.mod -trimpath -count=1${GOFLAGS:+ $GOFLAGS}" \
    "$gremlins" unleash --workers "${WORKERS:-2}" "${exclude[@]}" "$@" "$pkg" || status=1
done
exit $status
