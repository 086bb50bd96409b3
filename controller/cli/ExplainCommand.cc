#include "controller/cli/ExplainCommand.h"

#include <simdjson.h>

#include <ctime>

#include "controller/api/PodView.h"
#include "controller/cli/ClusterConnection.h"
#include "controller/extended/MappingAudit.h"
#include "controller/extended/PodExplainer.h"
#include "controller/extended/PodTermination.h"
#include "controller/report/ClusterSnapshot.h"
#include "controller/report/ExplanationPrinter.h"

namespace dra::cli {
namespace {

struct FetchedPod {
  api::PodView view;
  extended::PodTermination termination;
};

kube::Result<FetchedPod> GetPod(kube::RestClient& client, const std::string& ns,
                                const std::string& name) {
  auto json = client.Get(api::PodView::kResource.ItemPath(ns, name));
  if (!json.ok()) return json.status();
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json->dump()).get(root) != simdjson::SUCCESS) {
    return kube::Status(kube::StatusCode::kInternal, "cannot parse Pod " + ns + "/" + name);
  }
  auto view = api::PodView::FromJson(root);
  if (!view.ok()) return view.status();
  return FetchedPod{std::move(*view), extended::PodTermination::FromJson(root)};
}

}  // namespace

ExplainCommand::ExplainCommand() {
  ClusterConnection::DeclareFlags(flags_);
  flags_.String("namespace", "", "namespace of the Pod when NAME has no NAMESPACE/ prefix");
  flags_.Short('n', "namespace");
  flags_.String("output", "", "output format: empty for text, or json");
  flags_.Short('o', "output");
}

std::string ExplainCommand::Help() const {
  return "Explain how the kube-scheduler serves a Pod's extended resources through DRA: the\n"
         "implicit claim's requests (class, count and request name per container and\n"
         "resource), per-node reasons summarized, a missing class or a lost duplicate, and\n"
         "the scheduler's own PodScheduled message; for a scheduled Pod the claim and the\n"
         "devices it holds (NoExecute taints named); a Pod being evicted or deleted says so\n"
         "and why (its DisruptionTarget condition, its deletionTimestamp).\n"
         "Exit 0 scheduled or schedulable, 1 not (or a scheduled Pod's claim is missing,\n"
         "unallocated or differs from the translation, or the Pod is terminating), 2 usage.\n\n"
         "Usage:\n  dra-controller explain pod NAMESPACE/NAME [-o json] [flags]\n"
         "  dra-controller explain pod NAME -n NAMESPACE\n\n" +
         flags_.Usage();
}

int ExplainCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (kube::Status parsed = flags.Parse(args); !parsed.ok())
    return UsageError(io, parsed.message());
  const auto& pos = flags.positional();
  if (pos.size() != 2 || pos[0] != "pod") return UsageError(io, "expected: explain pod NS/NAME");
  std::string ns = flags.Get("namespace"), name = pos[1];
  if (auto slash = name.find('/'); slash != std::string::npos) {
    ns = name.substr(0, slash);
    name = name.substr(slash + 1);
  }
  if (ns.empty()) ns = "default";
  if (name.empty() || name.find('/') != std::string::npos) return UsageError(io, "bad Pod name");
  const std::string& output = flags.Get("output");
  if (!output.empty() && output != "json") return UsageError(io, "-o must be json");
  auto connection = ClusterConnection::OpenOrReport(flags, io.err);
  if (!connection) return kExitFailure;
  auto pod = GetPod(connection->client(), ns, name);
  if (!pod.ok()) {
    io.err << "error: Pod " << ns << "/" << name << ": " << pod.status().message() << "\n";
    return kExitFailure;
  }
  auto snapshot = report::ClusterSnapshot::List(connection->client(), {});
  if (!snapshot.ok()) {
    io.err << "error: cannot read the cluster: " << snapshot.status().message() << "\n";
    return kExitFailure;
  }
  const auto& s = **snapshot;
  auto mapping = extended::ExtendedResourceMapping::Build(s.classes);
  extended::PodExplainer::Inputs in{
      mapping,      s.nodes,
      *s.inventory, [&s](const std::string& n, const std::string& c) { return s.Claim(n, c); },
      {},           static_cast<int64_t>(std::time(nullptr))};
  auto explanation = extended::PodExplainer::Explain(pod->view, in);
  explanation.termination = pod->termination.Describe();
  io.out << (output == "json" ? report::ExplanationPrinter::Json(explanation)
                              : report::ExplanationPrinter::Text(explanation));
  bool fine = explanation.schedulable() && explanation.problems.empty();
  return fine && !explanation.terminating() ? kExitOk : kExitFailure;
}

}  // namespace dra::cli
