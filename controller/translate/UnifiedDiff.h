#pragma once

#include <string>
#include <string_view>

namespace dra::translate {

// A unified diff (diff -u, 3 lines of context) between two texts, line by
// line; "" when they are equal.
class UnifiedDiff {
 public:
  static std::string Make(std::string_view before, std::string_view after,
                          const std::string& from_name, const std::string& to_name);
};

}  // namespace dra::translate
