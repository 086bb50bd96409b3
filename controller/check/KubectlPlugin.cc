#include "controller/check/KubectlPlugin.h"

#include <array>

namespace dra::check {
namespace {

// Flags that take a value, in the spellings kubectl accepts.
bool TakesValue(std::string_view arg) {
  constexpr std::array<std::string_view, 4> kFlags = {"--kubeconfig", "--context", "--namespace",
                                                      "-n"};
  for (auto flag : kFlags) {
    if (arg == flag) return true;
  }
  return false;
}

bool IsGlobalFlag(std::string_view arg) {
  for (std::string_view prefix : {"--kubeconfig=", "--context=", "--namespace=", "-n="}) {
    if (arg.starts_with(prefix)) return true;
  }
  return TakesValue(arg) || (arg.starts_with("-n") && arg.size() > 2 && arg[2] != '-');
}

}  // namespace

bool KubectlPlugin::InvokedAsPlugin(std::string_view argv0) {
  auto slash = argv0.rfind('/');
  std::string_view base = slash == std::string_view::npos ? argv0 : argv0.substr(slash + 1);
  return base == kBinaryName;
}

std::vector<std::string> KubectlPlugin::Arguments(std::vector<std::string> args) {
  std::vector<std::string> leading;
  size_t i = 0;
  while (i < args.size() && IsGlobalFlag(args[i])) {
    leading.push_back(args[i]);
    if (TakesValue(args[i]) && i + 1 < args.size()) leading.push_back(args[++i]);
    ++i;
  }
  if (leading.empty() || i >= args.size()) return args;
  std::vector<std::string> out{args[i]};  // the subcommand
  out.insert(out.end(), leading.begin(), leading.end());
  out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  return out;
}

}  // namespace dra::check
