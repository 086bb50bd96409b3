#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace dra::bench {

// Figures of a running process from /proc/<pid>.
class ProcessProbe {
 public:
  // A "<field>: <n> kB" line of /proc/<pid>/status (VmRSS, VmHWM) or a count
  // (Threads); -1 when it is not there.
  static int64_t StatusKib(pid_t pid, const std::string& field);
  // User + system CPU seconds from /proc/<pid>/stat; 0 when unreadable.
  static double CpuSeconds(pid_t pid);
};

}  // namespace dra::bench
