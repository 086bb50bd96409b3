#include "controller/inventory/ClassBlockers.h"

namespace dra::inventory {

std::optional<ClassUnusable> ClassBlockers::On(std::string_view node) const {
  if (node.empty()) return anywhere;
  auto it = by_node.find(node);
  return it != by_node.end() ? std::optional(it->second) : every_node;
}

}  // namespace dra::inventory
