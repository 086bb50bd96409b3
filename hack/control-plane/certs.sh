#!/usr/bin/env bash
# Creates the PKI of the test control plane with the openssl CLI: one CA,
# the apiserver serving certificate, client certificates for admin, the
# scheduler and the controller manager, and the service-account signing key.
# Usage: certs.sh DIR
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

dir="${1:?usage: certs.sh DIR}"
mkdir -p "$dir"
cd "$dir"

new_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$1" 2>/dev/null; }

# sign NAME SUBJECT EXT_FILE_CONTENT
sign() {
  local name="$1" subject="$2" ext="$3"
  new_key "$name.key"
  openssl req -new -key "$name.key" -subj "$subject" -out "$name.csr" 2>/dev/null
  printf '%s\n' "$ext" > "$name.ext"
  openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
    -days 30 -sha256 -extfile "$name.ext" -out "$name.crt" 2>/dev/null
  rm -f "$name.csr" "$name.ext"
}

client_ext="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"

# The Node authorizer and NodeRestriction know a kubelet by this subject.
if [[ "${2:-}" == node ]]; then
  node="${3:?usage: certs.sh DIR node NODE_NAME}"
  [[ -f ca.key ]] || die "no CA in ${dir}: run certs.sh ${dir} first"
  sign node "/O=system:nodes/CN=system:node:${node}" "$client_ext"
  sign dra-driver "/CN=dra-test-gpu-driver" "$client_ext"
  chmod 600 ./*.key
  exit 0
fi

new_key ca.key
openssl req -x509 -new -key ca.key -subj "/CN=dra-controller-test-ca" -days 30 -sha256 \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -out ca.crt 2>/dev/null

sign apiserver "/CN=kube-apiserver" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
sign admin "/O=system:masters/CN=admin" "$client_ext"
sign scheduler "/CN=system:kube-scheduler" "$client_ext"
sign controller-manager "/CN=system:kube-controller-manager" "$client_ext"
# kube-apiserver's identity towards kubelets (logs, exec, port-forward).
sign apiserver-kubelet-client "/CN=kube-apiserver-kubelet-client" "$client_ext"

new_key sa.key
openssl pkey -in sa.key -pubout -out sa.pub 2>/dev/null
chmod 600 ./*.key
