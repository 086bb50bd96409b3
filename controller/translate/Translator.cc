#include "controller/translate/Translator.h"

#include <exception>

#include "controller/translate/DocumentReader.h"
#include "controller/translate/LiveObjectCleaner.h"
#include "controller/translate/PodSpecRewriter.h"
#include "controller/translate/PodTemplateLocator.h"
#include "controller/translate/YamlWriter.h"

namespace dra::translate {
namespace {

std::string ScalarAt(const YAML::Node& map, const char* key) {
  if (!map || !map.IsMap()) return "";
  const YAML::Node value = map[key];
  return value && value.IsScalar() ? value.Scalar() : "";
}

Workload WorkloadOf(const std::string& file, size_t document, const YAML::Node& object) {
  Workload w;
  w.kind = ScalarAt(object, "kind");
  const YAML::Node meta = object.IsMap() ? object["metadata"] : YAML::Node();
  w.name = ScalarAt(meta, "name");
  if (w.name.empty()) {
    w.name = ScalarAt(meta, "generateName");
    while (!w.name.empty() && w.name.back() == '-') w.name.pop_back();
  }
  w.ns = ScalarAt(meta, "namespace");
  w.place = {file, document, w.kind, w.ns.empty() ? w.name : w.ns + "/" + w.name, ""};
  return w;
}

// "List", "DeploymentList", ...: a document whose objects are in items[].
bool IsList(const YAML::Node& object) {
  std::string kind = ScalarAt(object, "kind");
  return kind.ends_with("List") && object["items"] && object["items"].IsSequence();
}

template <typename T>
void Append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

std::string Translator::LeadingComments(const std::string& body) {
  std::string out;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t end = body.find('\n', pos);
    size_t next = end == std::string::npos ? body.size() : end + 1;
    std::string_view line(body.data() + pos, next - pos);
    size_t first = line.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && line[first] != '#') break;
    out.append(line);
    pos = next;
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

void Translator::ReserveExisting(const std::vector<SourceDocument>& docs) {
  for (const auto& doc : docs) {
    if (!doc.parsed() || !doc.node.IsMap()) continue;
    if (ScalarAt(doc.node, "kind") != "ResourceClaimTemplate") continue;
    const YAML::Node meta = doc.node["metadata"];
    names_.Reserve(ScalarAt(meta, "namespace"), ScalarAt(meta, "name"));
  }
}

RewriteResult Translator::TranslateOne(const Workload& workload, const YAML::Node& object,
                                       const std::string& prefix) {
  std::optional<PodSpecAt> at = PodTemplateLocator::Locate(object);
  if (at) {
    at->path = prefix + at->path;
    PodSpecRewriter rewriter(mapping_, names_);
    return rewriter.Rewrite(workload, *at);
  }
  RewriteResult result;
  NameAllocator scratch;
  PodSpecRewriter inspector(mapping_, scratch);
  for (PodSpecAt& embedded : PodTemplateLocator::FindEmbedded(object)) {
    embedded.path = prefix + embedded.path;
    RewriteResult found = inspector.Inspect(workload, embedded);
    if (found.findings.empty()) continue;
    Append(result.findings, found.findings);
    Place place = workload.place;
    place.path = embedded.path;
    result.refusals.push_back({place, workload.kind + " is not a kind translate rewrites (" +
                                          "a custom resource embedding a Pod template?); move " +
                                          "it to a ResourceClaimTemplate by hand"});
  }
  return result;
}

bool Translator::TranslateList(const std::string& file, SourceDocument& doc,
                               TranslateReport& report) {
  YAML::Node items = doc.node["items"];
  YAML::Node rebuilt(YAML::NodeType::Sequence);
  RewriteResult all;
  size_t workloads = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    YAML::Node item = items[i];
    Workload workload = WorkloadOf(file, doc.index, item);
    RewriteResult result = TranslateOne(workload, item, "items[" + std::to_string(i) + "].");
    Append(all.findings, result.findings);
    Append(all.refusals, result.refusals);
    for (const auto& t : result.templates) rebuilt.push_back(t);
    if (!result.templates.empty()) {
      LiveObjectCleaner::Clean(item);
      ++workloads;
    }
    rebuilt.push_back(item);
    Append(all.templates, result.templates);
  }
  Append(report.findings, all.findings);
  Append(report.refusals, all.refusals);
  if (!all.refusals.empty() || workloads == 0) return false;  // the document stays as it was
  doc.node["items"] = rebuilt;
  report.workloads_rewritten += workloads;
  report.templates_written += all.templates.size();
  return true;
}

bool Translator::TranslateObject(const std::string& file, SourceDocument& doc, std::string& output,
                                 TranslateReport& report) {
  if (IsList(doc.node)) {
    if (!TranslateList(file, doc, report)) return false;
    output = LeadingComments(doc.body) + YamlWriter::Write(doc.node);
    return true;
  }
  RewriteResult result = TranslateOne(WorkloadOf(file, doc.index, doc.node), doc.node, "");
  Append(report.findings, result.findings);
  Append(report.refusals, result.refusals);
  if (!result.refusals.empty() || result.templates.empty()) return false;
  LiveObjectCleaner::Clean(doc.node);
  output = LeadingComments(doc.body);
  for (const auto& t : result.templates) output += YamlWriter::Write(t) + "---\n";
  output += YamlWriter::Write(doc.node);
  ++report.workloads_rewritten;
  report.templates_written += result.templates.size();
  return true;
}

std::string Translator::TranslateDocument(const std::string& file, SourceDocument& doc,
                                          TranslateReport& report) {
  if (!doc.parsed()) {
    report.refusals.push_back(
        {{file, doc.index, "", "", ""}, "not valid YAML: " + doc.parse_error});
    return doc.Text();
  }
  if (!doc.node.IsMap() || ScalarAt(doc.node, "kind").empty()) return doc.Text();
  std::string translated;
  try {
    if (!TranslateObject(file, doc, translated, report)) return doc.Text();
  } catch (const std::exception& e) {
    Workload w = WorkloadOf(file, doc.index, doc.node);
    report.refusals.push_back({w.place, std::string("cannot rewrite: ") + e.what()});
    return doc.Text();
  }
  bool plain_separator = doc.separator.find_first_not_of("-\r\n") == std::string::npos;
  std::string separator = doc.separator.empty() ? "" : (plain_separator ? doc.separator : "---\n");
  return separator + translated;
}

TranslateReport Translator::Run(const std::vector<InputFile>& files) {
  TranslateReport report;
  std::vector<std::vector<SourceDocument>> all;
  for (const auto& file : files) {
    all.push_back(DocumentReader::Split(file.content));
    ReserveExisting(all.back());
  }
  for (size_t f = 0; f < files.size(); ++f) {
    FileResult result{files[f].path, files[f].content, ""};
    for (auto& doc : all[f]) result.output += TranslateDocument(files[f].path, doc, report);
    report.files.push_back(std::move(result));
  }
  return report;
}

}  // namespace dra::translate
