#pragma once

#include <string>
#include <vector>

namespace dra::report {

// Left-aligned columns separated by three spaces, like kubectl's tables.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void Add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string Render() const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace dra::report
