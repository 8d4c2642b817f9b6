#!/usr/bin/env bash
# Starts a real Kubernetes control plane on loopback: etcd, kube-apiserver,
# kube-controller-manager and kwok (fake nodes, so Pods of real Deployments
# become Running without containers). Prints the kubeconfig path on stdout.
# Stop it with down.sh. Nothing listens beyond 127.0.0.1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${OAM_REAL_CLUSTER_DIR:-${TMPDIR:-/tmp}/oam-real-cluster}"
log() { echo "[real-cluster] $*" >&2; }

if [[ -f "$data/pids" ]]; then
  log "a cluster seems to run already ($data/pids); run down.sh first"
  exit 1
fi
bin="$("$here/build.sh")"
rm -rf "$data"
mkdir -p "$data/logs"
"$here/certs.sh" "$data/pki"
pki="$data/pki"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
etcd_port=$(free_port); peer_port=$(free_port); api_port=$(free_port)

start() { # name, command...
  local name=$1; shift
  "$@" >"$data/logs/$name.log" 2>&1 &
  echo "$! $name" >>"$data/pids"
  log "$name started (pid $!, log $data/logs/$name.log)"
}

start etcd "$bin/etcd" --name oam --data-dir "$data/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "oam=http://127.0.0.1:$peer_port" \
  --quota-backend-bytes 4294967296 --unsafe-no-fsync --log-level warn

# --endpoint-reconciler-type=none: the "kubernetes" Service cannot point at a loopback address.
start kube-apiserver "$bin/kube-apiserver" \
  --etcd-servers "http://127.0.0.1:$etcd_port" \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
  --endpoint-reconciler-type none \
  --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --client-ca-file "$pki/ca.crt" \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --service-account-issuer https://kubernetes.default.svc \
  --service-cluster-ip-range 10.96.0.0/16 \
  --authorization-mode RBAC \
  --watch-cache=true

kubeconfig="$data/kubeconfig"
cat >"$kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: real-cluster
  cluster:
    server: https://127.0.0.1:$api_port
    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
users:
- name: admin
  user:
    client-certificate-data: $(base64 -w0 "$pki/admin.crt")
    client-key-data: $(base64 -w0 "$pki/admin.key")
contexts:
- name: real-cluster
  context: {cluster: real-cluster, user: admin}
current-context: real-cluster
KC
chmod 600 "$kubeconfig"

ready() { curl -fsS --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" "https://127.0.0.1:$api_port/readyz" >/dev/null 2>&1; }
for _ in $(seq 1 120); do ready && break; sleep 0.5; done
if ! ready; then
  log "kube-apiserver did not become ready; last log lines:"
  tail -20 "$data/logs/kube-apiserver.log" >&2
  "$here/down.sh" >&2 || true
  exit 1
fi
log "kube-apiserver ready at https://127.0.0.1:$api_port"

start kube-controller-manager "$bin/kube-controller-manager" \
  --kubeconfig "$kubeconfig" --leader-elect=false \
  --bind-address 127.0.0.1 --secure-port 0 \
  --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
  --use-service-account-credentials=false

start kube-scheduler "$bin/kube-scheduler" \
  --kubeconfig "$kubeconfig" --leader-elect=false \
  --bind-address 127.0.0.1 --secure-port 0

start kwok "$bin/kwok" --kubeconfig "$kubeconfig" --config "$bin/../kwok-stages.yaml" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
  --node-ip 127.0.0.1 --node-lease-duration-seconds 40

# One fake node that kwok keeps Ready; pods scheduled to it become Running.
kubectl --kubeconfig "$kubeconfig" apply -f "$here/fake-node.yaml" >/dev/null
echo "$kubeconfig"
