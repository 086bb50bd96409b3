#!/usr/bin/env bash
# Builds the real node's two container images from Debian's static busybox, as
# OCI image layouts (one tar each), into the cache; nothing is pulled:
#   docker.io/local/pause:1     the sandbox (pause) image containerd runs per Pod
#   docker.io/local/busybox:1   the workload image tests run
# Both hold /bin/busybox and a link per applet; each waits until SIGTERM and
# exits at once. A second run with the same busybox and recipe is a no-op.
#   images.sh            build (cached)
#   images.sh --print    print "NAME TARFILE" per image (after building)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

IMAGE_DIR="${DRA_CACHE_DIR}/node-images"
BUSYBOX="${BUSYBOX:-/bin/busybox}"
IMAGES=(pause busybox)
# Waits for SIGTERM or SIGINT without a pause binary: `wait` returns when the
# trap fires, while a foreground sleep would hold the signal until it ends.
IDLE_SCRIPT="trap 'exit 0' TERM INT; while :; do sleep 3600 & wait \$!; done"

image_name() { echo "docker.io/local/$1:1"; }

sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { stat -c %s "$1"; }

# The inputs of the images: busybox itself and this recipe.
pin_hash() {
  { sha "$BUSYBOX"; declare -f build_image write_blob; echo "${IMAGES[*]} ${IDLE_SCRIPT}"; } \
    | sha256sum | cut -d' ' -f1
}

cached() {
  [[ -f "${IMAGE_DIR}/.inputs" && "$(cat "${IMAGE_DIR}/.inputs")" == "$(pin_hash)" ]] || return 1
  local i
  for i in "${IMAGES[@]}"; do [[ -f "${IMAGE_DIR}/$i.oci.tar" ]] || return 1; done
}

# write_blob LAYOUT FILE: moves FILE into LAYOUT's blobs by digest; prints the digest.
write_blob() {
  local digest; digest="$(sha "$2")"
  mv "$2" "$1/blobs/sha256/${digest}"
  echo "$digest"
}

# build_image NAME OUT.tar: one uncompressed layer with busybox and its applets.
build_image() {
  local name="$1" out="$2" work
  work="$(mktemp -d "${IMAGE_DIR}/build.XXXXXX")"
  mkdir -p "$work/rootfs/bin" "$work/rootfs/tmp" "$work/layout/blobs/sha256"
  cp "$BUSYBOX" "$work/rootfs/bin/busybox"
  local applet
  for applet in $("$BUSYBOX" --list); do
    [[ "$applet" == busybox ]] || ln -s busybox "$work/rootfs/bin/$applet"
  done
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$work/rootfs" \
    -cf "$work/layer.tar" .
  local layer_size layer_digest
  layer_size="$(size "$work/layer.tar")"
  layer_digest="$(write_blob "$work/layout" "$work/layer.tar")"
  local cmd; cmd="$(printf '%s' "$IDLE_SCRIPT" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')"
  printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/bin"],"Cmd":["/bin/sh","-c",%s]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$cmd" "$layer_digest" > "$work/config.json"
  local config_size config_digest
  config_size="$(size "$work/config.json")"
  config_digest="$(write_blob "$work/layout" "$work/config.json")"
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%s}]}' \
    "$config_digest" "$config_size" "$layer_digest" "$layer_size" > "$work/manifest.json"
  local manifest_size manifest_digest
  manifest_size="$(size "$work/manifest.json")"
  manifest_digest="$(write_blob "$work/layout" "$work/manifest.json")"
  printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"platform":{"architecture":"amd64","os":"linux"},"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"1"}}]}' \
    "$manifest_digest" "$manifest_size" "$(image_name "$name")" > "$work/layout/index.json"
  echo '{"imageLayoutVersion":"1.0.0"}' > "$work/layout/oci-layout"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$work/layout" -cf "$out.tmp" .
  mv "$out.tmp" "$out"
  rm -rf "$work"
}

main() {
  [[ -x "$BUSYBOX" ]] || die "no static busybox at ${BUSYBOX}: Debian's busybox-static provides it (hack/install-deps.sh)"
  file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' \
    || [[ ! -x "$(command -v file)" ]] || die "${BUSYBOX} is not statically linked; install busybox-static (hack/install-deps.sh)"
  if ! cached; then
    mkdir -p "$IMAGE_DIR"
    rm -f "${IMAGE_DIR}/.inputs"
    local i
    for i in "${IMAGES[@]}"; do build_image "$i" "${IMAGE_DIR}/$i.oci.tar"; done
    pin_hash > "${IMAGE_DIR}/.inputs"
    log "built images $(for i in "${IMAGES[@]}"; do printf '%s ' "$(image_name "$i")"; done)into ${IMAGE_DIR}"
  fi
  if [[ "${1:-}" == --print ]]; then
    for i in "${IMAGES[@]}"; do echo "$(image_name "$i") ${IMAGE_DIR}/$i.oci.tar"; done
  fi
}

main "$@"
