#include "controller/translate/DocumentReader.h"

#include <exception>

namespace dra::translate {

bool DocumentReader::IsSeparator(std::string_view line) {
  if (!line.starts_with("---")) return false;
  if (line.size() == 3) return true;
  char next = line[3];
  return next == ' ' || next == '\t' || next == '\r' || next == '\n';
}

void DocumentReader::Parse(SourceDocument& doc) {
  // "--- content" keeps content on the separator line; parse it with the body.
  std::string text = doc.separator + doc.body;
  try {
    doc.node = YAML::Load(text);
  } catch (const std::exception& e) {
    doc.node = YAML::Node();
    doc.parse_error = e.what();
    if (doc.parse_error.empty()) doc.parse_error = "not valid YAML";
  }
}

std::vector<SourceDocument> DocumentReader::Split(std::string_view text) {
  std::vector<SourceDocument> docs;
  SourceDocument current;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    size_t next = end == std::string_view::npos ? text.size() : end + 1;
    std::string_view line = text.substr(pos, next - pos);
    if (IsSeparator(line)) {
      if (pos > 0) docs.push_back(std::move(current));
      current = SourceDocument();
      current.separator = std::string(line);
    } else {
      current.body.append(line);
    }
    pos = next;
  }
  docs.push_back(std::move(current));
  for (size_t i = 0; i < docs.size(); ++i) {
    docs[i].index = i + 1;
    Parse(docs[i]);
  }
  return docs;
}

}  // namespace dra::translate
