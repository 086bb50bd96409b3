#!/usr/bin/env bash
# Writes the built image (make image: dra-controller:dev from buildah's store)
# as a docker-archive tarball named docker.io/library/dra-controller:dev, the
# name a Pod's `image: dra-controller:dev` resolves to, for
# `ctr images import` (the real node, hack/node/node.sh).
#   export.sh FILE     exit 3 (and a message) when no image has been built
set -euo pipefail
source "$(dirname "$0")/common.sh"

DEST="${1:?usage: export.sh FILE}"
REF="$IMAGE_NAME:$IMAGE_TAG"
if ! bah inspect --type image "$REF" >/dev/null 2>&1; then
  echo "no image $REF in $IMAGE_DIR/storage (make image builds it)" >&2
  exit 3
fi
rm -f "$DEST"
bah push --quiet "$REF" "docker-archive:$DEST:docker.io/library/$REF" >/dev/null \
  || die "buildah push of $REF to $DEST failed"
