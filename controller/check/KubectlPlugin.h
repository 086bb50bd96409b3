#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dra::check {

// kubectl's plugin convention: `kubectl dra ARGS` executes `kubectl-dra ARGS`.
// Users write kubectl's flags before the subcommand too (`kubectl dra -n ns
// check`), which the command line would read as a command name; Arguments()
// moves leading --kubeconfig/--context/-n/--namespace (with their values)
// behind the subcommand so every command sees them.
class KubectlPlugin {
 public:
  static constexpr std::string_view kBinaryName = "kubectl-dra";

  // True when argv[0]'s basename is kubectl-dra.
  static bool InvokedAsPlugin(std::string_view argv0);
  static std::vector<std::string> Arguments(std::vector<std::string> args);
};

}  // namespace dra::check
