#include "controller/cli/TranslateCommand.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "controller/cli/ClusterConnection.h"
#include "controller/translate/ClassSource.h"
#include "controller/translate/UnifiedDiff.h"

namespace dra::cli {
namespace {

namespace fs = std::filesystem;

std::string Shown(const std::string& path) { return path.empty() ? "<stdin>" : path; }

kube::Status WriteFile(const fs::path& path, const std::string& content) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !out.write(content.data(), static_cast<std::streamsize>(content.size()))) {
    return kube::Status(kube::StatusCode::kInternal, "cannot write " + path.string());
  }
  return kube::Status::Ok();
}

}  // namespace

TranslateCommand::TranslateCommand(std::istream& in) : in_(in) {
  flags_.String("filename", "", "manifest file, directory (*.yaml, *.yml, *.json) or - for stdin");
  flags_.Short('f', "filename");
  flags_.String("output", "",
                "write here instead of stdout (a directory when -f is one: same relative paths)");
  flags_.Short('o', "output");
  flags_.String("classes", "",
                "read DeviceClasses from this file instead of the cluster (offline, for CI)");
  flags_.Bool("check", false,
              "change nothing; list what still requests DRA-backed extended resources, exit 1 "
              "if anything does");
  flags_.Bool("dry-run", false, "change nothing; print a unified diff of what would change");
  flags_.Bool("skip-unsupported", false,
              "leave documents that cannot be translated safely as they are and exit 0");
  ClusterConnection::DeclareFlags(flags_);
}

std::string TranslateCommand::Help() const {
  return "Rewrite every Pod template (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet,\n"
         "ReplicationController, Job, CronJob, PodTemplate) that requests an extended resource\n"
         "a DeviceClass backs into a ResourceClaimTemplate (resource.k8s.io/v1) plus the\n"
         "rewritten workload, asking for what the scheduler's implicit claim would: the same\n"
         "DeviceClass and exactCount. Other documents are written back byte for byte.\n"
         "Documents that cannot be translated safely are reported with their document index,\n"
         "kind/name and field path, and the command exits 1 unless --skip-unsupported.\n\n"
         "Usage:\n  dra-controller translate -f FILE|DIR|- [-o OUT] [--classes FILE] "
         "[--check|--dry-run]\n\n" +
         flags_.Usage();
}

kube::Result<extended::ExtendedResourceMapping> TranslateCommand::LoadMapping(
    const kube::FlagSet& flags) const {
  translate::ClassSource::Classes classes;
  if (!flags.Get("classes").empty()) {
    std::ifstream in(flags.Get("classes"), std::ios::binary);
    if (!in)
      return kube::Status(kube::StatusCode::kNotFound, "cannot read " + flags.Get("classes"));
    std::ostringstream text;
    text << in.rdbuf();
    auto loaded = translate::ClassSource::FromText(text.str());
    if (!loaded.ok()) return loaded.status().WithContext(flags.Get("classes"));
    classes = std::move(*loaded);
  } else {
    auto connection = ClusterConnection::Open(flags);
    if (!connection.ok()) return connection.status();
    auto loaded = translate::ClassSource::FromCluster(connection->client());
    if (!loaded.ok()) return loaded.status();
    classes = std::move(*loaded);
  }
  return extended::ExtendedResourceMapping::Build(classes);
}

void TranslateCommand::PrintRefusals(const translate::TranslateReport& report, bool skipped,
                                     CommandIo io) {
  for (const auto& r : report.refusals) {
    io.err << (skipped ? "skipped: " : "error: ") << r.place.ToString() << ": " << r.reason << "\n";
  }
}

int TranslateCommand::Check(const translate::TranslateReport& report, CommandIo io) {
  for (const auto& f : report.findings) {
    io.out << f.place.ToString() << ": " << f.resource << ": " << f.quantity << " (DeviceClass "
           << f.device_class << ")\n";
  }
  if (report.findings.empty() && report.refusals.empty()) {
    io.out << "no DRA-backed extended resources requested\n";
    return kExitOk;
  }
  io.out << report.findings.size() << " place(s) still request DRA-backed extended resources; "
         << "run 'dra-controller translate' on them\n";
  return kExitFailure;
}

int TranslateCommand::Diff(const translate::TranslateReport& report, CommandIo io) {
  for (const auto& file : report.files) {
    io.out << translate::UnifiedDiff::Make(file.original, file.output, "a/" + Shown(file.path),
                                           "b/" + Shown(file.path));
  }
  return kExitOk;
}

kube::Status TranslateCommand::Write(const translate::TranslateReport& report,
                                     const translate::InputSet& inputs, const std::string& output,
                                     CommandIo io) {
  if (output.empty()) {
    for (size_t i = 0; i < report.files.size(); ++i) {
      if (inputs.is_directory) {
        io.out << (i == 0 ? "" : "---\n") << "# Source: " << report.files[i].path << "\n";
      }
      io.out << report.files[i].output;
    }
    return kube::Status::Ok();
  }
  if (!inputs.is_directory) return WriteFile(output, report.files.front().output);
  for (const auto& file : report.files) {
    KUBE_RETURN_IF_ERROR(WriteFile(fs::path(output) / inputs.Relative(file.path), file.output));
  }
  return kube::Status::Ok();
}

int TranslateCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) {
    return UsageError(io, parsed.message());
  }
  if (!flags.positional().empty())
    return UsageError(io, "unexpected argument " + flags.positional()[0]);
  if (flags.Get("filename").empty()) return UsageError(io, "-f FILE|DIR|- is required");
  if (flags.GetBool("check") && flags.GetBool("dry-run")) {
    return UsageError(io, "--check and --dry-run cannot be combined");
  }
  auto inputs = translate::InputSet::Read(flags.Get("filename"), in_);
  if (!inputs.ok()) {
    io.err << "error: " << inputs.status().message() << "\n";
    return kExitFailure;
  }
  auto mapping = LoadMapping(flags);
  if (!mapping.ok()) {
    io.err << "error: DeviceClasses: " << mapping.status().ToString() << "\n";
    return kExitFailure;
  }
  translate::Translator translator(*mapping);
  translate::TranslateReport report = translator.Run(inputs->files);
  bool skip = flags.GetBool("skip-unsupported");
  PrintRefusals(report, skip, io);
  if (flags.GetBool("check")) return Check(report, io);
  if (flags.GetBool("dry-run")) {
    Diff(report, io);
  } else if (kube::Status written = Write(report, *inputs, flags.Get("output"), io);
             !written.ok()) {
    io.err << "error: " << written.message() << "\n";
    return kExitFailure;
  }
  io.err << "translated " << report.workloads_rewritten << " workload(s) into "
         << report.templates_written << " ResourceClaimTemplate(s)";
  if (!report.refusals.empty()) io.err << "; " << report.refusals.size() << " place(s) refused";
  io.err << "\n";
  return report.refusals.empty() || skip ? kExitOk : kExitFailure;
}

}  // namespace dra::cli
