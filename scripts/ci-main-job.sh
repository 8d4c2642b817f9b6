#!/usr/bin/env bash
# The README's first command, as a new user on a machine with no cluster runs it (after
# `npm ci`): `oam up` of the hello example on the local plane must end healthy (exit 0).
# A temporary OAM_HOME and no kubeconfig; the plane is stopped whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
OAM_HOME="$(mktemp -d)"
export OAM_HOME KUBECONFIG="$OAM_HOME/no-kubeconfig"
trap 'npx oam server stop >/dev/null 2>&1 || true; rm -rf "$OAM_HOME"' EXIT
if ! npx oam up -f examples/hello; then
  echo "oam up did not end healthy; the plane's log:" >&2
  tail -n 50 "$OAM_HOME/logs/server.log" >&2 || true
  exit 1
fi
npx oam status hello
