#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "src/base/Status.h"

namespace kube {

// Named health or readiness checks answered the way kube-apiserver answers
// /healthz and /readyz: 200 "ok" when all pass, otherwise 503 and one
// "[+]name ok" / "[-]name failed: reason" line per check.
class CheckSet {
 public:
  using Check = std::function<Status()>;

  struct Verdict {
    bool ok = true;
    std::string body;
  };

  void Add(std::string name, Check check);
  // `verbose` lists every check even when all pass.
  Verdict Evaluate(bool verbose) const;

 private:
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, Check>> checks_;
};

}  // namespace kube
