#!/usr/bin/env bash
# Stops what up.sh started and removes its data folder.
set -uo pipefail
data="${OAM_REAL_CLUSTER_DIR:-${TMPDIR:-/tmp}/oam-real-cluster}"
if [[ -f "$data/pids" ]]; then
  # Stop in reverse order of start: kwok and the controller manager before the API server and etcd.
  tac "$data/pids" | while read -r pid name; do
    kill "$pid" 2>/dev/null && echo "[real-cluster] stopped $name" >&2
  done
  sleep 1
  tac "$data/pids" | while read -r pid _; do kill -9 "$pid" 2>/dev/null; done
fi
rm -rf "$data"
