#include "controller/cel/NodeBuilder.h"

#include <algorithm>
#include <memory>

namespace dra::cel {

NodePtr NodeBuilder::Make(NodeKind kind, size_t offset) {
  auto node = std::make_unique<Node>();
  node->kind = kind;
  node->offset = offset;
  return node;
}

NodePtr NodeBuilder::Binary(NodeKind kind, BinaryOp op, NodePtr lhs, NodePtr rhs, size_t offset) {
  auto node = Make(kind, offset);
  node->op = op;
  node->children.push_back(std::move(lhs));
  node->children.push_back(std::move(rhs));
  return node;
}

NodePtr NodeBuilder::Balanced(NodeKind kind, std::vector<NodePtr>& terms,
                              const std::vector<size_t>& offsets) {
  return Balance(kind, terms, 0, terms.size(), offsets);
}

NodePtr NodeBuilder::Balance(NodeKind kind, std::vector<NodePtr>& terms, size_t lo, size_t hi,
                             const std::vector<size_t>& offsets) {
  if (hi - lo == 1) return std::move(terms[lo]);
  size_t mid = lo + (hi - lo) / 2;
  NodePtr lhs = Balance(kind, terms, lo, mid, offsets);
  NodePtr rhs = Balance(kind, terms, mid, hi, offsets);
  NodePtr node = Binary(kind, BinaryOp::kEq, std::move(lhs), std::move(rhs), offsets[mid]);
  node->depth = std::max(node->children[0]->depth, node->children[1]->depth) + 1;
  return node;
}

}  // namespace dra::cel
