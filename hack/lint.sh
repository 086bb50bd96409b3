#!/usr/bin/env bash
# lint.sh check: clang-format conformance, the src/ -> controller/ layering
#                rule, shell syntax of hack/ scripts, and clang-tidy.
# lint.sh layers: the layering checks alone (no build needed).
# lint.sh fix:   rewrite C++ sources with clang-format.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REPO_ROOT"

mapfile -t SOURCES < <(git ls-files -co --exclude-standard -- '*.h' '*.cc' '*.h.in')

check_format() {
  clang-format --dry-run --Werror "${SOURCES[@]}"
}

check_layering() {
  if grep -rnE '#include\s+"controller/' src/; then
    die "src/ is the DRA-agnostic runtime and must not include controller/ (see above)"
  fi
  check_controller_arrows
}

# Every #include between folders of controller/ must be an arrow listed in
# hack/include-layers.txt.
check_controller_arrows() {
  local allowed bad=0 file from target line
  allowed="$(grep -vE '^\s*(#|$)' hack/include-layers.txt)"
  while IFS=: read -r file line; do
    from="$(cut -d/ -f2 <<<"$file")"
    target="$(sed -E 's|.*#include "controller/([^/"]+).*|\1|' <<<"$line")"
    target="${target%.h}"
    [[ "$target" == "$from" ]] && continue
    if ! grep -qE "^${from//./\\.}:.*( |^)${target}( |$)" <<<"$allowed"; then
      echo "$file: controller/$from -> controller/$target is not in hack/include-layers.txt" >&2
      bad=1
    fi
  done < <(git ls-files -co --exclude-standard -- 'controller/*.h' 'controller/*.cc' \
    | xargs grep -HoE '#include "controller/[^"]+"')
  ((bad == 0)) || die "include arrows between controller/ folders break the layering (see above)"
}

# clang-tidy with the checks in .clang-tidy over the product's sources, using
# the build's compile_commands.json (make lint configures the build first).
check_tidy() {
  command -v clang-tidy >/dev/null || die "clang-tidy not found: apt-get install clang-tidy"
  [[ -f build/compile_commands.json ]] || die "no build/compile_commands.json; run 'make configure'"
  git ls-files -co --exclude-standard -- 'src/*.cc' 'controller/*.cc' \
    | xargs -P "${JOBS:-2}" -n 4 clang-tidy -p build --quiet 2>/dev/null \
    || die "clang-tidy found problems (see above)"
}

check_shell() {
  local f
  for f in hack/*.sh hack/*/*.sh .ci/run; do bash -n "$f" || die "shell syntax error in $f"; done
}

case "${1:-check}" in
  layers) check_layering && log "include layering clean" ;;
  fix) clang-format -i "${SOURCES[@]}" && log "formatted ${#SOURCES[@]} files" ;;
  check) check_format && check_layering && check_shell && check_tidy &&
    log "lint clean (${#SOURCES[@]} C++ files)" ;;
  *) die "usage: lint.sh check|layers|fix" ;;
esac
