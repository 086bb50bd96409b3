#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace dra::translate {

// One document of a multi-document YAML (or JSON) stream, with the exact
// bytes it had in the input so that an untouched document is written back
// unchanged, comments and all.
struct SourceDocument {
  size_t index = 0;         // 1-based position in its file
  std::string separator;    // the "---" line that opened it (with its newline), or ""
  std::string body;         // everything after the separator up to the next one
  YAML::Node node;          // parsed body; Null for an empty or comment-only document
  std::string parse_error;  // non-empty when the body is not valid YAML

  std::string Text() const { return separator + body; }
  bool parsed() const { return parse_error.empty(); }
};

}  // namespace dra::translate
