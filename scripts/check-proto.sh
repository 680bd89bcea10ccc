#!/usr/bin/env bash
# Lints proto/, checks it for breaking changes against the releases (the buf images
# proto/releases/v*.binpb: the wire and JSON against every one, the FILE rules of buf.yaml, names
# included, against the newest; see proto/releases/README.md), and fails when gen/ is not exactly
# what proto/ generates (run scripts/generate.sh to mend it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin="$root/.bin"
mkdir -p "$bin"
(cd tools && GOWORK=off GOBIN="$bin" go install tool)
export PATH="$bin:$PATH"

buf lint
# The wire and JSON of every release stay readable: numbers, types, JSON names. A field's name may
# change only where its old name is kept as its JSON name (FIELD_SAME_JSON_NAME still holds), as
# for the fields renamed away from reserved words in v1.1.
wire_json='{"version":"v2","modules":[{"path":"proto"}],"breaking":{"use":["WIRE_JSON"],"except":["FIELD_SAME_NAME"]}}'
releases=$(ls proto/releases/v*.binpb 2>/dev/null | sort -V || true)
for image in $releases; do
  buf breaking --against "$image" --config "$wire_json"
  echo "wire and JSON compatible with $image"
done
release=$(tail -1 <<<"$releases")
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
