#pragma once

#include <string>
#include <vector>

namespace dra::check {

// "a, b, c" for at most `limit` items, then "and N more": details stay one line.
inline std::string ShortList(const std::vector<std::string>& items, size_t limit = 5) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > limit) out += " and " + std::to_string(items.size() - limit) + " more";
  return out;
}

}  // namespace dra::check
