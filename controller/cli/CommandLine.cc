#include "controller/cli/CommandLine.h"

#include <algorithm>
#include <iomanip>

namespace dra::cli {
namespace {

bool IsHelpFlag(std::string_view arg) { return arg == "--help" || arg == "-h"; }

}  // namespace

void CommandLine::Register(std::unique_ptr<Command> command) {
  commands_.push_back(std::move(command));
}

Command* CommandLine::Find(std::string_view name) const {
  auto it = std::find_if(commands_.begin(), commands_.end(),
                         [&](const auto& c) { return c->Name() == name; });
  return it == commands_.end() ? nullptr : it->get();
}

void CommandLine::PrintUsage(std::ostream& out) const {
  out << "dra-controller keeps GPUs under Kubernetes Dynamic Resource Allocation safe to run.\n\n"
      << "Usage:\n  dra-controller COMMAND [flags]\n\nCommands:\n";
  std::size_t width = 0;
  for (const auto& c : commands_) width = std::max(width, c->Name().size());
  for (const auto& c : commands_) {
    if (c->Hidden()) continue;
    // Two spaces after the longest name, as kubectl's command lists.
    out << "  " << std::left << std::setw(static_cast<int>(width + 2)) << c->Name() << c->Summary()
        << "\n";
  }
  out << "\nRun 'dra-controller COMMAND --help' for a command's flags.\n"
      << "Exit codes: 0 success, 1 failure, 2 usage error.\n";
}

int CommandLine::Run(std::span<const std::string> argv, CommandIo io) {
  if (argv.empty() || IsHelpFlag(argv[0])) {
    PrintUsage(argv.empty() ? io.err : io.out);
    return argv.empty() ? kExitUsage : kExitOk;
  }
  if (argv[0] == "help") {
    if (argv.size() < 2) {
      PrintUsage(io.out);
      return kExitOk;
    }
    Command* topic = Find(argv[1]);
    if (topic == nullptr) {
      io.err << "error: unknown command \"" << argv[1] << "\"\n";
      return kExitUsage;
    }
    io.out << topic->Help();
    return kExitOk;
  }
  // `--version` is the conventional spelling of the `version` command.
  Command* command = Find(argv[0] == "--version" ? "version" : argv[0]);
  if (command == nullptr) {
    io.err << "error: unknown command \"" << argv[0] << "\"\n\n";
    PrintUsage(io.err);
    return kExitUsage;
  }
  auto args = argv.subspan(1);
  if (std::any_of(args.begin(), args.end(), [](const auto& a) { return IsHelpFlag(a); })) {
    io.out << command->Help();
    return kExitOk;
  }
  return command->Run(args, io);
}

}  // namespace dra::cli
