#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/cel/Regex.h"
#include "controller/cel/Value.h"

namespace dra::cel {

enum class NodeKind {
  kLiteral,        // literal
  kIdent,          // name ("device" or a comprehension variable)
  kSelect,         // children[0].name
  kHas,            // has(children[0].name) or has(children[0][children[1]])
  kIndex,          // children[0][children[1]]
  kCall,           // function(args) or children[0].function(args)
  kAnd,            // children[0] && children[1]
  kOr,             // children[0] || children[1]
  kNot,            // !children[0]
  kNeg,            // -children[0]
  kConditional,    // children[0] ? children[1] : children[2]
  kBinary,         // children[0] op children[1]
  kList,           // [children...]
  kMap,            // {children[0]: children[1], ...}
  kComprehension,  // children[0].macro(name[, name2], children[1] [, children[2]])
  kBind,           // cel.bind(name, children[0], children[1])
};

enum class BinaryOp { kEq, kNe, kLt, kLe, kGt, kGe, kAdd, kSub, kMul, kDiv, kMod, kIn };

enum class Function {
  kSize,
  kStartsWith,
  kEndsWith,
  kContains,
  kMatches,
  kLowerAscii,
  kUpperAscii,
  kQuantity,
  kIsQuantity,
  kSemver,
  kIsSemver,
  kCompareTo,
  kIsGreaterThan,
  kIsLessThan,
  kAsInteger,
  kAsApproximateFloat,
  kIsInteger,
  kQuantityAdd,
  kQuantitySub,
  kSign,
  kMajor,
  kMinor,
  kPatch,
  kInt,
  kUint,
  kDouble,
  kString,
  kBool,
  kDyn,
  kType,
  kExtension,  // strings, lists, sets, regex and optional functions, by name
};

enum class Macro {
  kAll,
  kExists,
  kExistsOne,
  kFilter,
  kMap,
  kTransformList,
  kTransformMap,
  kTransformMapEntry,
  kOptMap,      // opt.optMap(x, expr)
  kOptFlatMap,  // opt.optFlatMap(x, expr)
  kSortBy,      // list.sortBy(x, key)
};

struct Node {
  NodeKind kind = NodeKind::kLiteral;
  size_t offset = 0;
  Value literal;
  std::string name;             // identifier, field, function or iteration variable name
  std::string name2;            // kComprehension: the value variable of a two-variable macro
  bool optional = false;        // kSelect/kIndex: .?field or [?key]
  bool optional_entry = false;  // a list element [?x] or map value {?k: v}
  BinaryOp op = BinaryOp::kEq;
  Function function = Function::kSize;
  Macro macro = Macro::kAll;
  bool has_target = false;  // kCall: children[0] is the receiver
  int depth = 1;
  std::shared_ptr<const Regex> regex;  // kCall matches() with a literal pattern
  std::string regex_error;             // ... that does not compile
  std::vector<std::unique_ptr<Node>> children;
};

using NodePtr = std::unique_ptr<Node>;

}  // namespace dra::cel
