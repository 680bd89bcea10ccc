#!/usr/bin/env bash
# Builds fray's encounter page: the TypeScript stubs from proto/ (protoc-gen-es, web/buf.gen.yaml)
# into src/gen, the sources' hashes into sources.sha256, then src/ type-checked (tsc) and bundled
# (esbuild) into dist/. npm ci runs in a temporary folder: no node_modules/ in the tree. Needs
# Node and npm (Node 20 works), Go (buf is pinned in tools/go.mod).
#   web/build.sh          # rebuilds web/src/gen, web/sources.sha256 and web/dist
#   web/build.sh DIR      # builds a copy of web/ in DIR instead (web's test compares it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/web}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The sources, copied where they are built.
cp "$root"/web/{package.json,package-lock.json,tsconfig.json,buf.gen.yaml,build.sh} "$work"/
cp -r "$root/web/src" "$work/src"
rm -rf "$work/src/gen"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

# The stubs, from proto/.
bin="$root/.bin"
mkdir -p "$bin"
(cd "$root/tools" && GOWORK=off GOBIN="$bin" go install tool)
(cd "$root" && PATH="$work/node_modules/.bin:$bin:$PATH" buf generate --template web/buf.gen.yaml -o "$work/src/gen")

# What the built files are built from: a test checks these hashes without npm.
(cd "$work" && { printf '%s\n' package.json package-lock.json tsconfig.json buf.gen.yaml build.sh; find src -type f | LC_ALL=C sort; } | xargs sha256sum >sources.sha256)

(cd "$work" && node_modules/.bin/tsc -p .)
mkdir -p "$work/dist"
(cd "$work" && node_modules/.bin/esbuild src/main.ts --bundle --minify --format=esm --target=es2020 \
  --legal-comments=none --charset=utf8 --outfile=dist/app.js --log-level=warning)
cp "$work/src/index.html" "$work/src/style.css" "$work/dist/"

# Into place: src/gen, sources.sha256 and dist/ replaced whole.
mkdir -p "$dest/src"
rm -rf "$dest/src/gen" "$dest/dist"
cp -r "$work/src/gen" "$dest/src/gen"
cp -r "$work/dist" "$dest/dist"
cp "$work/sources.sha256" "$dest/sources.sha256"
