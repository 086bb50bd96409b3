#pragma once

#include "controller/cel/Ast.h"

namespace dra::cel {

// Compile-time work on calls with literal arguments, so that selectors do not
// repeat it for every device.
class ConstantFolder {
 public:
  // quantity("...") and semver("...") with a valid literal become literals.
  // Invalid literals stay calls and fail at evaluation, as CEL reports them.
  static NodePtr Fold(NodePtr call);
  // s.matches("literal") (and find/findAll) compile their pattern once, here.
  // A pattern RE2 rejects stays an error value that evaluation returns (with
  // the call's position), as it does for a computed pattern.
  static void PrecompilePattern(Node& call);
};

}  // namespace dra::cel
