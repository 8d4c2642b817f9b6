#!/usr/bin/env bash
# Builds (or reuses) the real control plane, starts it, runs `npm run test:real`
# against it, and always stops it. Exits non-zero if any step fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
kubeconfig="$("$here/up.sh")"
trap '"$here/down.sh"' EXIT
export REAL_KUBECONFIG="$kubeconfig" CONFORMANCE_KUBECONFIG="$kubeconfig" RUNTIME_KUBECONFIG="$kubeconfig"
npm run test:real
