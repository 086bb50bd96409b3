#!/usr/bin/env bash
# `make release VERSION=x.y.z`: the release of the commit tagged vx.y.z.
#   1. checks that VERSION (the one source of the version, compiled into the
#      binary), the chart's version and appVersion and the tag on HEAD all
#      say x.y.z, and that the work tree is clean;
#   2. builds the image as IMAGE:x.y.z (hack/image/build.sh, buildah);
#   3. packages the chart as dist/dra-controller-x.y.z.tgz (helm package).
# Usage: release.sh [--dry-run] [--skip-image] x.y.z
#   --dry-run     run the checks, then print the build and package commands
#                 instead of running them
#   --skip-image  package the chart only (the image is built elsewhere)
# Environment: DRA_RELEASE_ROOT (the checkout to release; this one by default),
# DRA_IMAGE_NAME (the image's name, dra-controller by default), DRA_HELM (the
# helm binary; `make helm-binary` caches one).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

ROOT="${DRA_RELEASE_ROOT:-$REPO_ROOT}"
CHART_DIR="manifests/helm/dra-controller"
SEMVER='^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'

fail() {
  echo "release: $*" >&2
  exit 1
}

# The value of a top-level `key:` line of Chart.yaml, quotes removed.
chart_field() {
  sed -nE "s/^$1:[[:space:]]*\"?([^\"]*)\"?[[:space:]]*$/\1/p" "$ROOT/$CHART_DIR/Chart.yaml"
}

check_agreement() {
  local version="$1" file tags
  [[ -f "$ROOT/controller/VERSION" ]] || fail "no controller/VERSION file in $ROOT"
  file="$(tr -d '[:space:]' <"$ROOT/controller/VERSION")"
  [[ "$file" == "$version" ]] || fail "VERSION says $file, not $version (edit controller/VERSION and Chart.yaml first)"
  [[ "$(chart_field version)" == "$version" ]] \
    || fail "$CHART_DIR/Chart.yaml version is $(chart_field version), not $version"
  [[ "$(chart_field appVersion)" == "$version" ]] \
    || fail "$CHART_DIR/Chart.yaml appVersion is $(chart_field appVersion), not $version"
  git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || fail "$ROOT is not a git checkout"
  [[ -z "$(git -C "$ROOT" status --porcelain)" ]] || fail "the work tree has uncommitted changes"
  tags="$(git -C "$ROOT" tag --points-at HEAD)"
  grep -qx "v$version" <<<"$tags" \
    || fail "HEAD is not tagged v$version (tags on HEAD: ${tags:-none}); git tag -a v$version first"
}

# Runs the command, or prints it under --dry-run.
step() {
  if [[ "$DRY_RUN" == 1 ]]; then
    printf 'would run:'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

main() {
  DRY_RUN=0
  local skip_image=0
  while [[ "${1:-}" == --* ]]; do
    case "$1" in
      --dry-run) DRY_RUN=1 ;;
      --skip-image) skip_image=1 ;;
      *) fail "unknown option $1 (usage: release.sh [--dry-run] [--skip-image] x.y.z)" ;;
    esac
    shift
  done
  local version="${1:-}"
  [[ -n "$version" ]] || fail "usage: make release VERSION=x.y.z"
  [[ "$version" =~ $SEMVER ]] || fail "$version is not a semantic version (x.y.z or x.y.z-pre)"
  check_agreement "$version"
  echo "release $version: VERSION, Chart.yaml and tag v$version agree"
  local helm="${DRA_HELM:-$HELM_BIN}"
  [[ "$DRY_RUN" == 1 || -x "$helm" ]] || fail "no helm at $helm (make helm-binary)"
  if [[ "$skip_image" == 0 ]]; then
    step env DRA_IMAGE_TAG="$version" "$ROOT/hack/image/build.sh"
  fi
  step mkdir -p "$ROOT/dist"
  step "$helm" package "$ROOT/$CHART_DIR" --version "$version" --app-version "$version" \
    --destination "$ROOT/dist"
}

main "$@"
