#!/usr/bin/env bash
# Builds (or reuses) the real Kubernetes control plane the tests run against:
# kube-apiserver and kube-controller-manager from k8s.io/kubernetes, etcd and
# kwok from their Go modules. Binaries are cached outside the repository,
# keyed by version, so a second run takes seconds. Prints the bin folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
cache="${OAM_REAL_CLUSTER_CACHE:-$HOME/.cache/oam-real-cluster}/k8s-$K8S_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION"
bin="$cache/bin"
mkdir -p "$bin"
export GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0

log() { echo "[real-cluster] $*" >&2; }

build() { # name, module dir, package
  local name=$1 dir=$2 pkg=$3
  if [[ -x "$bin/$name" ]]; then log "$name: cached"; return; fi
  local start=$SECONDS
  log "$name: building $pkg (first time takes minutes)"
  (cd "$dir" && go build -trimpath -ldflags "-s -w" -o "$bin/$name.tmp" "$pkg")
  mv "$bin/$name.tmp" "$bin/$name"
  log "$name: built in $((SECONDS - start)) s"
}

k8s_ldflags="-X k8s.io/component-base/version.gitVersion=v$K8S_VERSION -X k8s.io/component-base/version.gitMajor=${K8S_VERSION%%.*} -X k8s.io/component-base/version.gitMinor=$(echo "$K8S_VERSION" | cut -d. -f2)"
build_k8s() { # name, package
  local name=$1 pkg=$2
  if [[ -x "$bin/$name" ]]; then log "$name: cached"; return; fi
  local start=$SECONDS
  log "$name: building $pkg v$K8S_VERSION (first time takes minutes)"
  (cd "$here/go" && go build -trimpath -ldflags "-s -w $k8s_ldflags" -o "$bin/$name.tmp" "$pkg")
  mv "$bin/$name.tmp" "$bin/$name"
  log "$name: built in $((SECONDS - start)) s"
}

build_k8s kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build_k8s kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager
build_k8s kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler
build etcd "$here/go-etcd" go.etcd.io/etcd/server/v3
build kwok "$here/go-kwok" "sigs.k8s.io/kwok/cmd/kwok"

# kwok needs stages (how fake nodes and pods change state): take the "fast" ones its module ships.
stages="$cache/kwok-stages.yaml"
if [[ ! -s "$stages" ]]; then
  (cd "$here/go-kwok" && go mod download "sigs.k8s.io/kwok@v$KWOK_VERSION")
  kwok_src="$(go env GOMODCACHE)/sigs.k8s.io/kwok@v$KWOK_VERSION/kustomize/stage"
  for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
           pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    cat "$kwok_src/$f"
    echo "---"
  done >"$stages.tmp"
  mv "$stages.tmp" "$stages"
fi
echo "$bin"
