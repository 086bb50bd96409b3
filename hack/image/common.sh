#!/usr/bin/env bash
# Shared settings for hack/image/*.sh. Source it; do not execute it.
# shellcheck source=hack/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

# Everything the image build keeps between runs lives outside the tree:
#   rootfs/   the Debian base tarballs mmdebstrap made
#   debs/     the .deb files they were made from (a rebuild downloads nothing)
#   storage/  buildah's image store (vfs), holding the bases, layers and images
#   lock      held while a build runs, so two runs do not collide
IMAGE_DIR="${DRA_IMAGE_DIR:-${DRA_CACHE_DIR}/images}"
IMAGE_NAME="${DRA_IMAGE_NAME:-dra-controller}"
IMAGE_TAG="${DRA_IMAGE_TAG:-dev}"
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR="${DRA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_SECURITY_MIRROR="${DRA_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"

# Every buildah call uses the same private store and the vfs driver (no
# overlay or fuse needed), so the machine's default store is left alone.
bah() {
  buildah --root "$IMAGE_DIR/storage" --runroot "$IMAGE_DIR/run" --storage-driver vfs "$@"
}

# Prints why buildah cannot build images here and fails; silent success
# when it can. The image steps of `make test` are skipped on failure.
image_tools_unusable() {
  local tool
  for tool in buildah mmdebstrap; do
    if ! command -v "$tool" >/dev/null; then
      echo "$tool is not installed (hack/install-deps.sh installs it)"
      return 0
    fi
  done
  if [[ $(id -u) -ne 0 ]]; then
    echo "not root: this route (mmdebstrap, buildah with --isolation chroot) needs root"
    return 0
  fi
  if ! unshare --mount true 2>/dev/null; then
    echo "cannot create a mount namespace (unshare --mount failed)"
    return 0
  fi
  return 1
}
