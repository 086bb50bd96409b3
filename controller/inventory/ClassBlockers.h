#pragma once

#include <map>
#include <optional>
#include <string_view>

#include "controller/inventory/ClassUnusable.h"

namespace dra::inventory {

// Where a class is unusable: on every node, on some nodes, or only
// cluster-wide (a failing device behind a slice node selector).
struct ClassBlockers {
  std::optional<ClassUnusable> anywhere;
  std::optional<ClassUnusable> every_node;
  std::map<std::string_view, ClassUnusable> by_node;

  // `node` empty: anywhere.
  std::optional<ClassUnusable> On(std::string_view node) const;
};

}  // namespace dra::inventory
