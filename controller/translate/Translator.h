#pragma once

#include <string>
#include <vector>

#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/translate/NameAllocator.h"
#include "controller/translate/Place.h"
#include "controller/translate/PodSpecRewriter.h"
#include "controller/translate/SourceDocument.h"

namespace dra::translate {

struct InputFile {
  std::string path;  // as shown in messages; "" for stdin
  std::string content;
};

struct FileResult {
  std::string path;
  std::string original;
  std::string output;  // == original when nothing changed
  bool changed() const { return output != original; }
};

struct TranslateReport {
  std::vector<FileResult> files;
  std::vector<Refusal> refusals;
  std::vector<Finding> findings;  // every DRA-backed request, rewritten or not
  size_t workloads_rewritten = 0;
  size_t templates_written = 0;
};

// Translates a set of manifest files with one name allocator, so template
// names are unique across all of them (ResourceClaimTemplates already in the
// input are reserved first). A document that needs no change, or that is
// refused, is written back byte for byte; a rewritten one becomes its
// ResourceClaimTemplates followed by the workload, its leading comment lines
// kept. In a List (as `kubectl get -o yaml` prints several objects) the
// templates become items before their workload. A rewritten live object
// (from the API server) loses its server-set fields (LiveObjectCleaner).
class Translator {
 public:
  explicit Translator(const extended::ExtendedResourceMapping& mapping) : mapping_(mapping) {}

  TranslateReport Run(const std::vector<InputFile>& files);

 private:
  void ReserveExisting(const std::vector<SourceDocument>& docs);
  std::string TranslateDocument(const std::string& file, SourceDocument& doc,
                                TranslateReport& report);
  bool TranslateObject(const std::string& file, SourceDocument& doc, std::string& output,
                       TranslateReport& report);
  // One object: a workload kind is rewritten; any other kind is searched for
  // embedded Pod templates, which are refused. Paths are prefixed with `prefix`.
  RewriteResult TranslateOne(const Workload& workload, const YAML::Node& object,
                             const std::string& prefix);
  // A List (kubectl get -o yaml): templates go into items[] before their workload.
  bool TranslateList(const std::string& file, SourceDocument& doc, TranslateReport& report);
  static std::string LeadingComments(const std::string& body);

  const extended::ExtendedResourceMapping& mapping_;
  NameAllocator names_;
};

}  // namespace dra::translate
