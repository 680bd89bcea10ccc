#!/usr/bin/env bash
# Runs every check and every test of every module. Needs only Go (and bash). Each step says
# how long it took; docs/testing.md has the times and how to run only the fast tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
modules=(gen rules services/platform services/resolver services/encounter services/gateway web cli deploy)

# The slow families, each run on its own after the fast tests (so that they do not compete
# with the rest, nor each other, for the CPU a busy machine leaves), with its own -timeout: a
# bound on a hung run, far above what a machine at load average 20 takes. `go test -short
# work` skips them while developing.
slow=(
  "cli/internal/e2e 40m"      # the services over gRPC and as processes, the README's examples
  "cli/internal/browser 30m"  # the pages in Chromium
  "cli/internal/examples 30m" # the Python and TypeScript clients
  "cli/test/faults 45m"       # 7 processes and their faults; network namespaces
  # Each rule system's tests, its odds against Decide (Monte Carlo) among them (issue 27: the
  # odds moved from rules/odds into each system).
  "rules/loss 30m"
  "rules/ka 30m"
  "rules/feerie 30m"
  "rules/d20seg 30m"
)

# -trimpath for vet, tests and fuzzing as for the builds: what is compiled then does not depend
# on the folder, so a clean clone in a new folder finds in the build cache every package an
# earlier run (of any clone) compiled and only compiles what changed. Without it a clone
# compiles all of them again (a clean-clone run at load average 25 took 23 minutes to its
# first test result).
trim=-trimpath

began=$SECONDS
# timed NAME COMMAND...: runs COMMAND, then says how long it took.
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "-- $name: $((SECONDS - start)) s"
}

echo "== proto: lint, breaking changes, generated code"
timed "proto" scripts/check-proto.sh

echo "== gofmt"
unformatted=$(gofmt -l "${modules[@]}")
if [[ -n $unformatted ]]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi

echo "== each module builds on its own (GOWORK=off), static (CGO_ENABLED=0, -trimpath)"
# The Dockerfile's flags: deploy's image test then only links its binaries from this cache.
build_modules() {
  for m in "${modules[@]}"; do (cd "$m" && GOWORK=off CGO_ENABLED=0 go build -trimpath ./...); done
}
timed "builds" build_modules

echo "== go vet"
timed "vet" go vet $trim work

echo "== go test: all but the slow families"
# Every package of the workspace not listed in slow, the long tests included (-short is for
# development only). -timeout bounds each package's test binary.
slow_dirs=()
for f in "${slow[@]}"; do slow_dirs+=("$root/${f%% *}"); done
fast=$(go list -f '{{.Dir}}' work | grep -vxF -f <(printf '%s\n' "${slow_dirs[@]}"))
timed "fast tests" go test $trim -race -count=1 -timeout 45m $fast

for f in "${slow[@]}"; do
  read -r pkg timeout <<<"$f"
  echo "== go test: slow family ./$pkg"
  timed "./$pkg" go test $trim -race -count=1 -timeout "$timeout" "./$pkg"
done

echo "== fuzz: each target briefly (FUZZTIME, default 5s; go test fuzzes one target per run)"
fuzztime=${FUZZTIME:-5s}
fuzz_targets=(
  "rules/dice FuzzDice"
  "rules/systems FuzzDecide"
  "rules/systems FuzzCheckCombatant"
  "rules/systems FuzzAudit"
  "services/platform/validate FuzzValidate"
)
fuzz_began=$SECONDS
for t in "${fuzz_targets[@]}"; do
  read -r pkg name <<<"$t"
  # -fuzzminimizetime bounded: minimizing a new input may otherwise take a minute.
  fuzz() { go test $trim -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 10x "./$pkg" 2>&1; }
  out=$(fuzz) || {
    # Go's fuzzer sometimes ends a run at -fuzztime with "context deadline exceeded" and no
    # failing input (seen once in CI on FuzzCheckCombatant): that is the toolchain's, not a
    # finding; such a run is made once more. A real finding writes its input and fails.
    if grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
      echo "$name ($pkg): the fuzzer ended on 'context deadline exceeded' with no failing input; once more"
      out=$(fuzz) || {
        echo "$out" >&2
        exit 1
      }
    else
      echo "$out" >&2
      exit 1
    fi
  }
  echo "$name ($pkg): $(grep -o 'execs: [0-9]*' <<<"$out" | tail -1)"
done

echo "-- fuzz: $((SECONDS - fuzz_began)) s"
echo "-- all checks and tests: $((SECONDS - began)) s"

if [[ -x ../shared/tools/rules-coverage ]]; then
  echo "== rule coverage (rule IDs cited by tests)"
  ../shared/tools/rules-coverage "$root" || true
fi
