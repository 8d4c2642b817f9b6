#!/usr/bin/env bash
# Generates the control plane's credentials with openssl into $1: a CA, the
# API server's serving certificate (loopback names only), an admin client
# certificate (group system:masters) and the service-account signing key.
set -euo pipefail
dir=$1
mkdir -p "$dir"
cd "$dir"
quiet() { "$@" >/dev/null 2>&1 || { echo "openssl failed: $*" >&2; "$@"; exit 1; }; }

quiet openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=oam-real-cluster-ca"

cat > serving.ext <<EXT
subjectAltName = IP:127.0.0.1, IP:10.96.0.1, DNS:localhost, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc
extendedKeyUsage = serverAuth
EXT
quiet openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr -subj "/CN=kube-apiserver"
quiet openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out apiserver.crt -days 2 -extfile serving.ext

cat > client.ext <<EXT
extendedKeyUsage = clientAuth
EXT
quiet openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=oam-admin"
quiet openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 2 -extfile client.ext

quiet openssl genrsa -out sa.key 2048
quiet openssl rsa -in sa.key -pubout -out sa.pub
chmod 600 ./*.key
