#include "controller/cli/DocsCommand.h"

#include <fstream>
#include <sstream>

#include "controller/app/Features.h"
#include "controller/cli/RunOptions.h"
#include "controller/docs/CompatibilityReference.h"
#include "controller/docs/CrdReference.h"
#include "controller/docs/FlagReference.h"
#include "controller/docs/MetricReference.h"

namespace dra::cli {
namespace {

// run's own flags, then each feature's, as RunOptions::Declare adds them.
kube::Result<std::string> Flags() {
  app::FeatureList features = app::AllFeatures();
  std::vector<docs::FlagReference::Group> groups;
  groups.push_back({"run",
                    "The process: API server, `/metrics` and probe servers, logging, "
                    "leader election, informers.",
                    {}});
  RunOptions::DeclareOwn(groups.back().flags);
  for (const auto& feature : features) {
    groups.push_back({"Feature: " + std::string(feature->Name()), "", {}});
    feature->DeclareFlags(groups.back().flags);
  }
  kube::FlagSet all;
  RunOptions::Declare(all, features);
  return docs::FlagReference::Markdown(groups, all);
}

kube::Result<std::string> Crd(const std::string& repo) {
  std::string path = repo + "/" + DocsCommand::kCrdPath;
  std::ifstream in(path);
  if (!in) {
    return kube::Status(kube::StatusCode::kNotFound,
                        "cannot read " + path + " (run from the repository, or pass --repo)");
  }
  std::stringstream text;
  text << in.rdbuf();
  return docs::CrdReference::Markdown(text.str(), DocsCommand::kCrdPath);
}

kube::FlagSet DocsFlags() {
  kube::FlagSet flags;
  flags.String("repo", ".",
               "The repository whose " + std::string(DocsCommand::kCrdPath) + " crd reads");
  return flags;
}

}  // namespace

std::string DocsCommand::Help() const {
  return "Print a reference page generated from the code, as docs/reference/ holds it:\n"
         "  flags    the flags of `run`, by the group that declares them\n"
         "  metrics  every metric family `run` serves on /metrics\n"
         "  crd      the DeviceHealth field reference, from the CRD's schema\n"
         "  compatibility  what each job needs of each Kubernetes release\n\n"
         "Usage:\n  dra-controller docs flags|metrics|crd|compatibility [flags]\n\n" +
         DocsFlags().Usage();
}

kube::Result<std::string> DocsCommand::Generate(std::string_view topic, const std::string& repo) {
  if (topic == "flags") return Flags();
  if (topic == "metrics") return docs::MetricReference::Markdown();
  if (topic == "crd") return Crd(repo);
  if (topic == "compatibility") return docs::CompatibilityReference::Markdown();
  return kube::Status(
      kube::StatusCode::kInvalidArgument,
      "unknown page \"" + std::string(topic) + "\" (flags, metrics, crd or compatibility)");
}

int DocsCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = DocsFlags();
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) {
    return UsageError(io, parsed.message());
  }
  if (flags.positional().size() != 1) {
    return UsageError(io, "name one page: flags, metrics, crd or compatibility");
  }
  const std::string& topic = flags.positional()[0];
  if (topic != "flags" && topic != "metrics" && topic != "crd" && topic != "compatibility") {
    return UsageError(io, "unknown page \"" + topic + "\" (flags, metrics, crd or compatibility)");
  }
  auto page = Generate(topic, flags.Get("repo"));
  if (!page.ok()) {
    io.err << "error: " << page.status().message() << "\n";
    return kExitFailure;
  }
  io.out << *page;
  return kExitOk;
}

}  // namespace dra::cli
