#pragma once

#include <cstddef>
#include <vector>

#include "controller/cel/Ast.h"

namespace dra::cel {

// Builds AST nodes for the parser.
class NodeBuilder {
 public:
  static NodePtr Make(NodeKind kind, size_t offset);
  static NodePtr Binary(NodeKind kind, BinaryOp op, NodePtr lhs, NodePtr rhs, size_t offset);
  // A balanced tree of && or || over `terms` (at least one), so that long
  // chains stay shallow; both are associative (including CEL's commutative
  // error handling). offsets[i] is the position of the operator before terms[i].
  static NodePtr Balanced(NodeKind kind, std::vector<NodePtr>& terms,
                          const std::vector<size_t>& offsets);

 private:
  static NodePtr Balance(NodeKind kind, std::vector<NodePtr>& terms, size_t lo, size_t hi,
                         const std::vector<size_t>& offsets);
};

}  // namespace dra::cel
