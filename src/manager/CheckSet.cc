#include "src/manager/CheckSet.h"

namespace kube {

void CheckSet::Add(std::string name, Check check) {
  std::lock_guard lock(mu_);
  checks_.emplace_back(std::move(name), std::move(check));
}

CheckSet::Verdict CheckSet::Evaluate(bool verbose) const {
  std::vector<std::pair<std::string, Check>> checks;
  {
    std::lock_guard lock(mu_);
    checks = checks_;
  }
  Verdict verdict;
  std::string lines;
  for (const auto& [name, check] : checks) {
    Status status = check ? check() : Status(StatusCode::kInternal, "no check function");
    if (status.ok()) {
      lines += "[+]" + name + " ok\n";
    } else {
      verdict.ok = false;
      lines += "[-]" + name + " failed: " + status.message() + "\n";
    }
  }
  if (!verdict.ok) {
    verdict.body = lines + "check failed\n";
  } else {
    verdict.body = verbose ? lines + "ok\n" : "ok\n";
  }
  return verdict;
}

}  // namespace kube
