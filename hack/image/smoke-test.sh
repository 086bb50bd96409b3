#!/usr/bin/env bash
# The image smoke test: runs the binary of the built image (make image) the way
# a Pod would, against a running control plane.
#   1. `dra-controller version` through `buildah run --isolation chroot`;
#   2. `ldd` inside the image: fails on any "not found" shared library;
#   3. `dra-controller run` from the image's rootfs (buildah mount), as user
#      65532, with only in-cluster configuration: KUBERNETES_SERVICE_HOST/PORT
#      and a service-account token (TokenRequest API), CA and namespace
#      bind-mounted at /var/run/secrets/kubernetes.io/serviceaccount, as the
#      kubelet does. It must sync its inventory and become leader without a
#      "forbidden" before a deadline; then it is stopped by PID with SIGTERM
#      and must exit 0.
# Needs the control plane's env (CLUSTER_DIR, or KUBECONFIG and DRA_KUBECTL as
# hack/control-plane/cluster.sh writes them); applies crds/ and manifests/
# for the service account and its RBAC and deletes manifests/ again.
#   smoke-test.sh [IMAGE]      (default dra-controller:dev)
set -euo pipefail
source "$(dirname "$0")/common.sh"

IMAGE="${1:-$IMAGE_NAME:$IMAGE_TAG}"
MANIFESTS="${DRA_IMAGE_MANIFESTS:-$REPO_ROOT/manifests}"
NAMESPACE=dra-system
LEASE=dra-controller-image-smoke-test
DEADLINE_S="${DRA_IMAGE_SMOKE_DEADLINE:-90}"
BINARY=/usr/local/bin/dra-controller

CTR="" ROOTFS="" WORK="" PID="" APPLIED=""

kubectl() { "${DRA_KUBECTL:-kubectl}" "$@"; }

cleanup() {
  local rc=$?
  if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID" 2>/dev/null || true; fi
  if [[ -n "$CTR" ]]; then
    bah umount "$CTR" >/dev/null 2>&1 || true
    bah rm "$CTR" >/dev/null 2>&1 || true
  fi
  if [[ -n "$APPLIED" ]]; then
    kubectl delete lease "$LEASE" -n "$NAMESPACE" --ignore-not-found >/dev/null 2>&1 || true
    kubectl delete -k "$MANIFESTS" --ignore-not-found --wait=true --timeout=90s >/dev/null 2>&1 || true
  fi
  if ((rc != 0)) && [[ -f "$WORK/controller.log" ]]; then
    echo "----- the image's dra-controller log -----" >&2
    tail -n 40 "$WORK/controller.log" >&2
  fi
  [[ -n "$WORK" ]] && rm -rf "$WORK"
  exit "$rc"
}

load_cluster_env() {
  if [[ -z "${KUBECONFIG:-}" || -z "${DRA_APISERVER_URL:-}" ]]; then
    [[ -n "${CLUSTER_DIR:-}" && -f "$CLUSTER_DIR/env" ]] \
      || die "no control plane: set CLUSTER_DIR to a running hack/control-plane/cluster.sh directory"
    # shellcheck disable=SC1091
    source "$CLUSTER_DIR/env"
  fi
  kubectl get --raw /readyz >/dev/null || die "the control plane at $DRA_APISERVER_URL is not ready"
}

check_version() {
  local out
  out="$(bah run --isolation chroot "$CTR" -- "$BINARY" version 2>&1)" \
    || die "'dra-controller version' failed in $IMAGE: $out"
  [[ "$out" == *v1.37* ]] || die "unexpected 'dra-controller version' output: $out"
  log "version in $IMAGE: $out"
}

check_libraries() {
  local out
  out="$(bah run --isolation chroot "$CTR" -- ldd "$BINARY" 2>&1)" \
    || die "ldd $BINARY failed in $IMAGE: $out"
  if grep -q "not found" <<<"$out"; then
    die "$IMAGE lacks shared libraries:"$'\n'"$(grep "not found" <<<"$out")"
  fi
  log "ldd: all $(grep -c '=>' <<<"$out") shared libraries resolve inside $IMAGE"
}

# The projected service-account volume of a Pod: token (TokenRequest API),
# the cluster CA and the namespace, readable by the container's user.
write_service_account() {
  local dir="$WORK/serviceaccount" ca
  mkdir -p "$dir"
  kubectl create token dra-controller -n "$NAMESPACE" --duration=1h >"$dir/token" \
    || die "TokenRequest for dra-controller failed"
  ca="$(kubectl config view --raw --minify -o jsonpath='{.clusters[0].cluster.certificate-authority-data}')"
  base64 -d <<<"$ca" >"$dir/ca.crt" || die "no CA in $KUBECONFIG"
  printf '%s' "$NAMESPACE" >"$dir/namespace"
  chmod 0755 "$dir" && chmod 0644 "$dir"/*
}

# Starts the image's binary in its own mount namespace: the rootfs gets /proc
# and the service-account directory, then chroot drops to the image's user.
# unshare, sh and chroot each exec the next, so $! is the controller's PID.
start_controller() {
  local host port mount_point
  host="${DRA_APISERVER_URL#https://}"
  port="${host##*:}"
  host="${host%:*}"
  # /var/run is a link to /run in Debian; make the mount point under /run so
  # the path is resolved inside the rootfs, not on this machine.
  mount_point="$ROOTFS/run/secrets/kubernetes.io/serviceaccount"
  mkdir -p "$mount_point"
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    KUBERNETES_SERVICE_HOST="$host" KUBERNETES_SERVICE_PORT="$port" \
    unshare --mount --propagation private -- /bin/sh -c '
      mount --bind -o ro "$1" "$2" && mount -t proc proc "$3/proc" || exit 111
      root="$3"; shift 3
      exec chroot --userspec=65532:65532 "$root" "$@"' \
    sh "$WORK/serviceaccount" "$mount_point" "$ROOTFS" \
    "$BINARY" run --leader-elect --leader-election-id "$LEASE" \
    --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 \
    >"$WORK/controller.log" 2>&1 &
  PID=$!
  log "dra-controller run from $IMAGE's rootfs: PID $PID, apiserver $host:$port (in-cluster config)"
}

wait_synced_and_leading() {
  local deadline=$((SECONDS + DEADLINE_S)) log="$WORK/controller.log"
  until grep -q "inventory synced" "$log" && grep -q "became leader" "$log"; do
    kill -0 "$PID" 2>/dev/null || { wait "$PID" || true; die "the image's dra-controller exited early"; }
    ((SECONDS < deadline)) || die "no 'inventory synced' and 'became leader' within ${DEADLINE_S} s"
    sleep 0.5
  done
  ! grep -qi "forbidden" "$log" || die "the service account was refused something (log below)"
  grep -q "using in-cluster service account" "$log" \
    || die "the controller did not use the in-cluster configuration (log below)"
  log "synced and leader after $((SECONDS - deadline + DEADLINE_S)) s: $(grep -m1 'inventory synced' "$log")"
}

stop_controller() {
  local rc=0 deadline=$((SECONDS + 30))
  kill -TERM "$PID"
  while kill -0 "$PID" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  kill -0 "$PID" 2>/dev/null && die "PID $PID still running 30 s after SIGTERM"
  wait "$PID" || rc=$?
  PID=""
  ((rc == 0)) || die "the image's dra-controller exited $rc after SIGTERM"
  log "stopped by SIGTERM, exit 0"
}

main() {
  local reason
  if reason="$(image_tools_unusable)"; then die "cannot run images here: $reason"; fi
  mkdir -p "$IMAGE_DIR"
  exec 9>"$IMAGE_DIR/lock"
  flock -w 3600 9 || die "timed out waiting for $IMAGE_DIR/lock (an image build is running)"
  bah inspect --type image "$IMAGE" >/dev/null 2>&1 || die "no image $IMAGE: run 'make image' first"
  trap cleanup EXIT
  load_cluster_env
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/dra-image-smoke.XXXXXX")"
  CTR="$(bah from --pull=never "$IMAGE")" || die "buildah from $IMAGE failed"
  check_version
  check_libraries
  kubectl apply -k "$REPO_ROOT/crds" >/dev/null || die "kubectl apply -k crds/ failed"
  kubectl apply -k "$MANIFESTS" >/dev/null || die "kubectl apply -k $MANIFESTS failed"
  APPLIED=1
  write_service_account
  ROOTFS="$(bah mount "$CTR")" || die "buildah mount failed"
  start_controller
  wait_synced_and_leading
  stop_controller
  log "image smoke test passed: $IMAGE starts, has its libraries, syncs and leads as a Pod would"
}

main "$@"
