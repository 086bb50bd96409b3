#!/usr/bin/env bash
# `make image`: builds the top-level Dockerfile into the local image
# dra-controller:dev (and dra-controller:<git describe>) without a Docker
# engine or a registry:
#   1. Debian bases from Debian's packages: mmdebstrap makes a bookworm rootfs
#      (and a slim one, docs/man/locales left out as Debian's -slim images do),
#      buildah turns each into a local image tagged with the name the
#      Dockerfile's FROM lines use. Made once, kept in the cache (common.sh).
#   2. buildah bud on the Dockerfile with --pull=never (nothing is fetched from
#      a registry), --layers (the apt layers are reused) and the Dockerfile's
#      ccache cache mount (an edit recompiles only what changed).
#   build.sh            build (idempotent; a second run reuses everything, and
#                       does nothing when the inputs and the image are unchanged)
#   build.sh --prebuilt BINARY
#                       the Dockerfile's `prebuilt` target instead: the runtime
#                       stage plus BINARY (stripped), compiled on the host by
#                       `make build`; `make test` uses it so the project is not
#                       compiled again inside the container
#   build.sh --force    run buildah bud even then (its layer cache still applies)
#   build.sh --check    exit 0 if this machine can build images, else print why
#   build.sh --bases    only the Debian base images
set -euo pipefail
source "$(dirname "$0")/common.sh"

# The Debian archives a base image's apt uses, as in Debian's own images.
debian_sources() {
  printf '%s\n' \
    "deb $DEBIAN_MIRROR $DEBIAN_SUITE main" \
    "deb $DEBIAN_MIRROR $DEBIAN_SUITE-updates main" \
    "deb $DEBIAN_SECURITY_MIRROR $DEBIAN_SUITE-security main"
}

# dpkg path filters of the -slim variant; they stay in the image
# (/etc/dpkg/dpkg.cfg.d/99mmdebstrap), so later installs are slim too.
slim_dpkg_options() {
  local path
  for path in /usr/share/doc/'*' /usr/share/man/'*' /usr/share/info/'*' \
    /usr/share/locale/'*' /usr/share/groff/'*' /usr/share/lintian/'*'; do
    printf -- '--dpkgopt=path-exclude=%s\n' "$path"
  done
  printf -- '--dpkgopt=path-include=/usr/share/doc/*/copyright\n'
}

# rootfs/<variant>.tar, made by mmdebstrap unless already there. The .debs
# are synced in and out of debs/, so the second variant and any later
# rebuild download nothing new.
make_rootfs() {
  local variant="$1" tar="$IMAGE_DIR/rootfs/$1.tar" partial="$IMAGE_DIR/rootfs/$1.partial.tar"
  [[ -s "$tar" ]] && return 0
  mkdir -p "$IMAGE_DIR/rootfs" "$IMAGE_DIR/debs"
  local extra=()
  [[ "$variant" == *-slim ]] && mapfile -t extra < <(slim_dpkg_options)
  mapfile -t sources < <(debian_sources)
  log "mmdebstrap: Debian $DEBIAN_SUITE rootfs ($variant) from $DEBIAN_MIRROR"
  rm -rf "$partial"
  mmdebstrap --quiet --variant=apt --format=tar "${extra[@]}" \
    --skip=download/empty --skip=essential/unlink \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in $IMAGE_DIR/debs /var/cache/apt/archives/" \
    --customize-hook="sync-out /var/cache/apt/archives $IMAGE_DIR/debs" \
    --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
    "$DEBIAN_SUITE" "$partial" "${sources[@]}" \
    || { rm -f "$partial"; die "mmdebstrap failed for $variant (network? mirror $DEBIAN_MIRROR)"; }
  mv "$partial" "$tar"
}

# docker.io/library/debian:<variant> in the local store, from its rootfs.
make_base() {
  local variant="$1" ref="docker.io/library/debian:$1"
  if bah inspect --type image "$ref" >/dev/null 2>&1; then
    log "base $ref: cached"
    return 0
  fi
  make_rootfs "$variant"
  log "base $ref: importing $IMAGE_DIR/rootfs/$variant.tar"
  local ctr
  ctr="$(bah from --pull=never scratch)" || die "buildah from scratch failed"
  bah add "$ctr" "$IMAGE_DIR/rootfs/$variant.tar" / >/dev/null \
    && bah config --cmd /bin/bash \
      --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr" \
    && bah commit --quiet --rm "$ctr" "$ref" >/dev/null \
    || { bah rm "$ctr" >/dev/null 2>&1; die "could not turn $variant.tar into $ref"; }
}

version_tag() {
  local v
  v="$(git -C "$REPO_ROOT" describe --tags --always --dirty 2>/dev/null || true)"
  # An image tag allows [A-Za-z0-9_.-] only.
  printf '%s' "${v//[^A-Za-z0-9_.-]/-}"
}

# A digest of everything the image is built from: the files the build context
# sends (.dockerignore), or the prebuilt binary, and the base images.
inputs_digest() {
  {
    if [[ -n "$PREBUILT" ]]; then
      sha256sum "$REPO_ROOT/Dockerfile" "$CONTEXT/dra-controller"
    else
      (cd "$REPO_ROOT" && find Dockerfile .dockerignore CMakeLists.txt src controller -type f \
        -print0 | sort -z | xargs -0 sha256sum)
    fi
    bah inspect --type image --format '{{.FromImageID}}' "docker.io/library/debian:$DEBIAN_SUITE"
    bah inspect --type image --format '{{.FromImageID}}' "docker.io/library/debian:$DEBIAN_SUITE-slim"
  } | sha256sum | cut -d' ' -f1
}

image_id() { bah inspect --type image --format '{{.FromImageID}}' "$1" 2>/dev/null; }

# With vfs every cached step still copies a whole root filesystem (about
# 10 s each here), so when neither the inputs nor the image changed since the
# last build, buildah is not run at all.
up_to_date() {
  local stamp="$IMAGE_DIR/$IMAGE_NAME-$IMAGE_TAG.inputs" id
  [[ -f "$stamp" ]] || return 1
  id="$(image_id "$IMAGE_NAME:$IMAGE_TAG")" || return 1
  [[ "$(cat "$stamp")" == "$1 $id" ]]
}

build_image() {
  local tags=(-t "$IMAGE_NAME:$IMAGE_TAG") version digest
  version="$(version_tag)"
  digest="$(inputs_digest)"
  if [[ "$FORCE" != 1 ]] && up_to_date "$digest"; then
    [[ -n "$version" ]] && bah tag "$IMAGE_NAME:$IMAGE_TAG" "$IMAGE_NAME:$version"
    log "image $IMAGE_NAME:$IMAGE_TAG is up to date with the Dockerfile and sources (--force rebuilds)"
    return 0
  fi
  [[ -n "$version" ]] && tags+=(-t "$IMAGE_NAME:$version")
  log "buildah bud: $REPO_ROOT/Dockerfile (target $TARGET) -> ${tags[*]//-t /}"
  rm -f "$IMAGE_DIR/$IMAGE_NAME-$IMAGE_TAG.inputs"
  local out="$IMAGE_DIR/last-build.log"
  # With pipefail (set above) the pipeline fails when bud does.
  if ! bah bud --isolation chroot --layers --force-rm --pull=never "${tags[@]}" \
    --target "$TARGET" -f "$REPO_ROOT/Dockerfile" "$CONTEXT" 2>&1 | tee "$out"; then
    die "buildah bud failed (its output is above and in $out)"
  fi
  printf '%s %s\n' "$digest" "$(image_id "$IMAGE_NAME:$IMAGE_TAG")" \
    >"$IMAGE_DIR/$IMAGE_NAME-$IMAGE_TAG.inputs"
  prune_stale_layers "$out"
}

# With vfs every cached layer is a full copy of its root filesystem (about
# 1 GB in the build stage), so the layers of earlier builds that this build
# did not use are removed; the ones it used stay as the cache of the next.
prune_stale_layers() {
  local used id removed=0
  used="$(grep -oE '^--> [0-9a-f]{11,}' "$1" | cut -c5-15)"
  while read -r id; do
    [[ -n "$id" ]] || continue
    grep -q "^${id:0:11}" <<<"$used" && continue
    bah rmi "$id" >/dev/null 2>&1 && removed=$((removed + 1))
  done < <(bah images --all --noheading --format '{{.ID}} {{.Name}}' | awk '$2 == "<none>" {print $1}')
  ((removed == 0)) || log "removed $removed cached layer image(s) no longer used"
}

# Containers in this private store exist only while a build or a smoke test
# runs (both hold the lock); any found now were left by an interrupted run.
remove_leftover_containers() {
  local n
  n="$(bah containers --quiet | wc -l)"
  ((n == 0)) && return 0
  log "removing $n containers left by an interrupted build"
  bah rm --all >/dev/null || die "could not remove leftover containers from $IMAGE_DIR/storage"
}

FORCE=0
PREBUILT=""
TARGET=release
CONTEXT="$REPO_ROOT"

# The prebuilt target's context: a directory holding only the stripped binary.
prepare_prebuilt_context() {
  [[ -x "$PREBUILT" ]] || die "--prebuilt: $PREBUILT is not an executable (run make build first)"
  CONTEXT="$(mktemp -d "${TMPDIR:-/tmp}/dra-image-context.XXXXXX")"
  trap 'rm -rf "$CONTEXT"' EXIT
  strip -o "$CONTEXT/dra-controller" "$PREBUILT" || die "strip failed on $PREBUILT"
  TARGET=prebuilt
}

main() {
  local reason
  [[ "${1:-}" == --force ]] && { FORCE=1; shift; }
  if [[ "${1:-}" == --prebuilt ]]; then
    PREBUILT="${2:?usage: build.sh --prebuilt BINARY}"
    shift 2
  fi
  if reason="$(image_tools_unusable)"; then
    [[ "${1:-}" == --check ]] && { echo "$reason"; exit 1; }
    die "cannot build images here: $reason"
  fi
  [[ "${1:-}" == --check ]] && exit 0
  mkdir -p "$IMAGE_DIR"
  exec 9>"$IMAGE_DIR/lock"
  if ! flock -n 9; then
    log "another image build holds $IMAGE_DIR/lock; waiting (up to 1 h)"
    flock -w 3600 9 || die "timed out waiting for $IMAGE_DIR/lock"
  fi
  local start=$SECONDS
  remove_leftover_containers
  make_base "$DEBIAN_SUITE"
  make_base "$DEBIAN_SUITE-slim"
  [[ "${1:-}" == --bases ]] && return 0
  [[ -n "$PREBUILT" ]] && prepare_prebuilt_context
  build_image
  log "image $IMAGE_NAME:$IMAGE_TAG ready in $((SECONDS - start)) s" \
    "(store: $IMAGE_DIR/storage, driver vfs)"
}

main "$@"
