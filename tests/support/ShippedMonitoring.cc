#include "tests/support/ShippedMonitoring.h"

#include <fstream>
#include <sstream>

#include "tests/support/RepoRoot.h"

namespace dra::testing {

std::string ShippedMonitoring::Read(const std::string& relative) {
  std::ifstream in(RepoRoot::Path(relative));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ShippedMonitoring::RuleFile(const std::string& relative) {
  std::string rule = Read(relative);
  auto at = rule.find("\nspec:\n");
  if (at == std::string::npos) return "";
  std::istringstream in(rule.substr(at + 7));
  std::string line, out;
  while (std::getline(in, line)) out += (line.starts_with("  ") ? line.substr(2) : line) + "\n";
  return out;
}

std::string ShippedMonitoring::AlertmanagerConfig(const std::string& url,
                                                  const std::string& token_file,
                                                  const std::string& ca_file) {
  std::string config = Read("manifests/monitoring/alertmanager-dra-controller.yaml");
  bool replaced =
      ReplaceOnce(config, "https://dra-controller.dra-system.svc:8444/alertmanager", url) &&
      ReplaceOnce(config, "/var/run/secrets/dra-controller/token", token_file) &&
      ReplaceOnce(config, "/var/run/secrets/dra-controller/ca.crt", ca_file) &&
      ReplaceOnce(config, "group_wait: 10s", "group_wait: 1s") &&
      ReplaceOnce(config, "group_interval: 1m", "group_interval: 1s");
  return replaced ? config : "";
}

bool ShippedMonitoring::ReplaceOnce(std::string& text, const std::string& from,
                                    const std::string& to) {
  auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) return false;
  text.replace(at, from.size(), to);
  return true;
}

}  // namespace dra::testing
