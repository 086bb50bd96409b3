#pragma once

#include <string>

namespace dra::testing {

// The monitoring files manifests/monitoring ships, made usable by a
// Prometheus or an Alertmanager that runs on the test's host.
class ShippedMonitoring {
 public:
  // The file's text as checked in.
  static std::string Read(const std::string& relative);
  // A PrometheusRule's spec as a plain rule file: everything after the
  // top-level `spec:` line, de-indented by two spaces.
  static std::string RuleFile(const std::string& relative);
  // alertmanager-dra-controller.yaml with the test's webhook URL, token and
  // CA files and 1 s group timers; empty when one of the shipped values is
  // not there exactly once (the file changed shape and the test must follow).
  static std::string AlertmanagerConfig(const std::string& url, const std::string& token_file,
                                        const std::string& ca_file);
  // Replaces the one occurrence of `from`; false when it is not there exactly once.
  static bool ReplaceOnce(std::string& text, const std::string& from, const std::string& to);
};

}  // namespace dra::testing
