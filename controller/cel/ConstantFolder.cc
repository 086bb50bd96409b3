#include "controller/cel/ConstantFolder.h"

#include <string>

#include "controller/cel/NodeBuilder.h"

namespace dra::cel {

NodePtr ConstantFolder::Fold(NodePtr call) {
  bool quantity = call->function == Function::kQuantity;
  if ((!quantity && call->function != Function::kSemver) || call->children.size() != 1 ||
      call->children[0]->kind != NodeKind::kLiteral)
    return call;
  const auto* text = call->children[0]->literal.If<std::string>();
  if (!text) return call;
  Value folded;
  if (quantity) {
    auto q = kube::Quantity::Parse(*text);
    if (!q.ok()) return call;
    folded = Value(*q);
  } else {
    auto v = Semver::Parse(*text);
    if (!v.ok()) return call;
    folded = Value(*v);
  }
  auto node = NodeBuilder::Make(NodeKind::kLiteral, call->offset);
  node->literal = std::move(folded);
  return node;
}

void ConstantFolder::PrecompilePattern(Node& call) {
  bool takes_regex =
      call.function == Function::kMatches || call.name == "find" || call.name == "findAll";
  if (!takes_regex || call.children.size() < 2 || call.children[1]->kind != NodeKind::kLiteral)
    return;
  const auto* pattern = call.children[1]->literal.If<std::string>();
  if (!pattern) return;
  auto regex = Regex::Compile(*pattern);
  if (regex.ok())
    call.regex = std::move(regex).value();
  else
    call.regex_error = regex.status().message();
}

}  // namespace dra::cel
