#pragma once

#include <simdjson.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/LabelSelector.h"

namespace dra::api {

// A core/v1 NodeSelector as the v1.37.2 DRA allocator reads a ResourceSlice's
// (or a device's) `nodeSelector`: through component-helpers' nodeaffinity
// NewNodeSelector. Terms are ORed; inside a term, matchExpressions on the
// node's labels (In, NotIn, Exists, DoesNotExist, Gt, Lt) and matchFields on
// metadata.name (In, NotIn with one value) are ANDed. A term with neither
// picks no node, and so does a selector without terms.
//
// Whatever upstream's parser refuses (an unknown operator, an invalid label
// key or value, a value count the operator does not take, a field operator
// other than In/NotIn) is kept as parse_error(); the selector then picks no
// node. (The allocator fails the node instead; the API server's validation
// normally keeps such selectors out.) Never throws.
class NodeSelector {
 public:
  using Labels = std::map<std::string, std::string>;

  // A matchFields requirement: `key` (upstream knows only metadata.name)
  // equal to `value`, or not equal to it.
  struct FieldRequirement {
    std::string key;
    bool equals = true;
    std::string value;

    friend bool operator==(const FieldRequirement&, const FieldRequirement&) = default;
  };

  struct Term {
    std::optional<kube::LabelSelector> labels;            // matchExpressions, if any
    std::optional<std::vector<FieldRequirement>> fields;  // matchFields, if any

    friend bool operator==(const Term&, const Term&) = default;
  };

  NodeSelector() = default;

  // `selector` is the NodeSelector object ({nodeSelectorTerms: [...]}).
  static NodeSelector FromJson(simdjson::dom::element selector);

  bool Matches(std::string_view node_name, const Labels& labels) const;

  bool ok() const { return parse_error_.empty(); }
  // Empty when the selector parsed; otherwise why it picks no node.
  const std::string& parse_error() const { return parse_error_; }
  const std::vector<Term>& terms() const { return terms_; }

  friend bool operator==(const NodeSelector&, const NodeSelector&) = default;

 private:
  std::vector<Term> terms_;  // empty terms already dropped
  std::string parse_error_;
};

}  // namespace dra::api
