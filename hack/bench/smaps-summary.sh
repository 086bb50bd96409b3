#!/usr/bin/env bash
# What a process's resident memory is made of, from /proc/PID/smaps.
#
#   smaps-summary.sh PID
#
# Prints RSS (and the private dirty part) in KiB for: the executable, shared
# libraries (by name, the largest first), thread stacks (anonymous mappings of
# exactly the stack size, `ulimit -s`, glibc's default for new threads), the
# rest of the anonymous memory (malloc arenas, mmapped allocations: the heap),
# and the total.
set -euo pipefail
PID="${1:?usage: $0 PID}"
STACK_KB="$(ulimit -s)"
EXE="$(readlink "/proc/$PID/exe")"

awk -v stack_kb="$STACK_KB" -v exe="$EXE" '
  function flush() {
    if (cls == "") return
    rss[cls] += r; dirty[cls] += d; total += r; total_dirty += d
  }
  /^[0-9a-f]+-[0-9a-f]+ / { flush(); cls = ""; path = $6; r = 0; d = 0; next }
  $1 == "Size:" {
    if (path == "" && $2 == stack_kb) cls = "thread stacks"
    else if (path == "" || path == "[heap]") cls = "heap (anonymous, [heap])"
    else if (path == exe) cls = "executable"
    else if (path ~ /^\//) { n = split(path, parts, "/"); cls = "lib " parts[n] }
    else cls = "other " path
  }
  $1 == "Rss:" { r = $2 }
  $1 == "Private_Dirty:" { d = $2 }
  END {
    flush()
    for (c in rss) if (c ~ /^lib /) { libs += rss[c]; libs_dirty += dirty[c] }
    printf "%-34s %8s %8s\n", "mapping", "RSS KiB", "dirty"
    split("heap (anonymous, [heap])|thread stacks|executable", fixed, "|")
    for (i = 1; i <= 3; i++) printf "%-34s %8d %8d\n", fixed[i], rss[fixed[i]], dirty[fixed[i]]
    printf "%-34s %8d %8d\n", "shared libraries, locale files", libs, libs_dirty
    cmd = "sort -k2,2nr | head -n 8"
    for (c in rss) if (c ~ /^lib /) printf "  %-32s %8d %8d\n", substr(c, 5), rss[c], dirty[c] | cmd
    close(cmd)
    for (c in rss) if (c ~ /^other /) printf "%-34s %8d %8d\n", c, rss[c], dirty[c]
    printf "%-34s %8d %8d\n", "total", total, total_dirty
  }' "/proc/$PID/smaps"
