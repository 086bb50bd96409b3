#pragma once

#include <string_view>
#include <vector>

#include "controller/translate/SourceDocument.h"

namespace dra::translate {

// Splits a YAML stream into documents at "---" lines (JSON is a YAML
// document), keeping each document's bytes. Never throws: a document that
// does not parse carries its parse error. Concatenating every document's
// Text() gives the input back byte for byte.
class DocumentReader {
 public:
  static std::vector<SourceDocument> Split(std::string_view text);

 private:
  // True for a document-start marker line: "---" alone or followed by a blank.
  static bool IsSeparator(std::string_view line);
  static void Parse(SourceDocument& doc);
};

}  // namespace dra::translate
