// Fuzz target: the manifest reader and translate never crash, and keep their
// promises on any input: the documents put back together are the input byte
// for byte; a translation that changed nothing returns the input unchanged;
// translating the output again changes nothing more. A broken promise traps.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "controller/translate/ClassSource.h"
#include "controller/translate/DocumentReader.h"
#include "controller/translate/Translator.h"

namespace {

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

const dra::extended::ExtendedResourceMapping& Mapping() {
  static const dra::extended::ExtendedResourceMapping mapping = [] {
    auto classes = dra::translate::ClassSource::FromText(
        "kind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
        "spec: {extendedResourceName: example.com/gpu}\n---\n"
        "kind: DeviceClass\nmetadata: {name: nic}\nspec: {extendedResourceName: "
        "example.com/nic}\n");
    Check(classes.ok());
    return dra::extended::ExtendedResourceMapping::Build(*classes);
  }();
  return mapping;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string joined;
  for (const auto& doc : dra::translate::DocumentReader::Split(text)) joined += doc.Text();
  Check(joined == text);

  auto first = dra::translate::Translator(Mapping()).Run({{"in.yaml", text}});
  Check(first.files.size() == 1);
  const std::string& output = first.files[0].output;
  if (first.workloads_rewritten == 0) Check(output == text);
  auto second = dra::translate::Translator(Mapping()).Run({{"in.yaml", output}});
  Check(second.files[0].output == output);
  Check(second.workloads_rewritten == 0);
  return 0;
}
