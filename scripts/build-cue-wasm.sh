#!/usr/bin/env bash
# Builds the renderer's CUE evaluator (libs/renderer/cue-wasm: cuelang.org/go compiled to
# WebAssembly) into libs/renderer/cue-wasm/dist/: cue.wasm.gz, Go's wasm_exec.js and Go's
# LICENSE (which covers wasm_exec.js), all committed so users need only Node. The versions
# live in ONE place, cue-wasm/go.mod: its `toolchain` line is the Go release that builds it (fetched through the Go proxy if the
# machine's go is another one) and its `require cuelang.org/go` line is the CUE release.
#
#   bash scripts/build-cue-wasm.sh          rebuild dist/
#   bash scripts/build-cue-wasm.sh --check  rebuild elsewhere; fail if dist/ differs (reproducible build)
set -euo pipefail
cd "$(dirname "$0")/../libs/renderer/cue-wasm"

mode=${1:-build}
case $mode in build | --check) ;; *) echo "usage: $0 [--check]" >&2; exit 2 ;; esac

toolchain=$(awk '$1 == "toolchain" { print $2 }' go.mod)
cue_version=$(awk '$1 == "require" && $2 == "cuelang.org/go" { print $3 }' go.mod)
[ -n "$toolchain" ] || { echo "go.mod has no toolchain line" >&2; exit 1; }
export GOTOOLCHAIN=$toolchain GOOS=js GOARCH=wasm CGO_ENABLED=0 GOFLAGS=-mod=readonly
goroot=$(go env GOROOT)
echo "building with $(go version) (GOTOOLCHAIN=$toolchain), cuelang.org/go $cue_version"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# -trimpath and no VCS stamp: the bytes depend on the sources and the toolchain only.
go build -trimpath -buildvcs=false -ldflags='-s -w' -o "$out/cue.wasm" .
gzip -9 -n -c "$out/cue.wasm" >"$out/cue.wasm.gz"
cp "$goroot/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
# wasm_exec.js (Go's JS runtime support) is BSD-licensed: its license travels with it.
cp "$goroot/LICENSE" "$out/LICENSE-go"
echo "cue.wasm $(wc -c <"$out/cue.wasm") bytes, gzip $(wc -c <"$out/cue.wasm.gz") bytes"

if [ "$mode" = --check ]; then
  status=0
  for f in cue.wasm.gz wasm_exec.js LICENSE-go; do
    if cmp -s "$out/$f" "dist/$f"; then
      echo "dist/$f: identical to a fresh build"
    else
      echo "dist/$f differs from a fresh build: run npm run build:cue and commit it" >&2
      status=1
    fi
  done
  exit $status
fi

mkdir -p dist
# The loader's raw copies of the previous module (wasm-runtime.mjs keeps one beside the .gz).
rm -f dist/cue-*.wasm
cp "$out/cue.wasm.gz" "$out/wasm_exec.js" "$out/LICENSE-go" dist/
echo "wrote libs/renderer/cue-wasm/dist/: cue.wasm.gz, wasm_exec.js, LICENSE-go"
