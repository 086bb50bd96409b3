#include "controller/cel/Vocabulary.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace dra::cel {
namespace {

const std::map<std::string_view, Function>& Functions() {
  static const std::map<std::string_view, Function> kFunctions = {
      {"size", Function::kSize},
      {"startsWith", Function::kStartsWith},
      {"endsWith", Function::kEndsWith},
      {"contains", Function::kContains},
      {"matches", Function::kMatches},
      {"lowerAscii", Function::kLowerAscii},
      {"upperAscii", Function::kUpperAscii},
      {"quantity", Function::kQuantity},
      {"isQuantity", Function::kIsQuantity},
      {"semver", Function::kSemver},
      {"isSemver", Function::kIsSemver},
      {"compareTo", Function::kCompareTo},
      {"isGreaterThan", Function::kIsGreaterThan},
      {"isLessThan", Function::kIsLessThan},
      {"asInteger", Function::kAsInteger},
      {"asApproximateFloat", Function::kAsApproximateFloat},
      {"isInteger", Function::kIsInteger},
      {"add", Function::kQuantityAdd},
      {"sub", Function::kQuantitySub},
      {"sign", Function::kSign},
      {"major", Function::kMajor},
      {"minor", Function::kMinor},
      {"patch", Function::kPatch},
      {"int", Function::kInt},
      {"uint", Function::kUint},
      {"double", Function::kDouble},
      {"string", Function::kString},
      {"bool", Function::kBool},
      {"dyn", Function::kDyn},
      {"type", Function::kType},
  };
  return kFunctions;
}

const std::map<std::string_view, Macro>& Macros() {
  static const std::map<std::string_view, Macro> kMacros = {
      {"all", Macro::kAll},
      {"exists", Macro::kExists},
      {"exists_one", Macro::kExistsOne},
      {"filter", Macro::kFilter},
      {"map", Macro::kMap},
      {"existsOne", Macro::kExistsOne},
      {"transformList", Macro::kTransformList},
      {"transformMapEntry", Macro::kTransformMapEntry},
      {"optMap", Macro::kOptMap},
      {"optFlatMap", Macro::kOptFlatMap},
      {"sortBy", Macro::kSortBy},
      {"transformMap", Macro::kTransformMap},
  };
  return kMacros;
}

}  // namespace

std::optional<Function> Vocabulary::FunctionNamed(std::string_view name) {
  auto it = Functions().find(name);
  if (it == Functions().end()) return std::nullopt;
  return it->second;
}

std::optional<Macro> Vocabulary::MacroNamed(std::string_view name) {
  auto it = Macros().find(name);
  if (it == Macros().end()) return std::nullopt;
  return it->second;
}

bool Vocabulary::IsExtension(std::string_view name) {
  static constexpr std::string_view kNames[] = {"charAt",
                                                "indexOf",
                                                "lastIndexOf",
                                                "join",
                                                "replace",
                                                "split",
                                                "substring",
                                                "trim",
                                                "format",
                                                "strings.quote",
                                                "find",
                                                "findAll",
                                                "isSorted",
                                                "sum",
                                                "min",
                                                "max",
                                                "includes",
                                                "sets.contains",
                                                "sets.equivalent",
                                                "sets.intersects",
                                                "hasValue",
                                                "value",
                                                "orValue",
                                                "or",
                                                "optional.of",
                                                "optional.none",
                                                "optional.ofNonZeroValue",
                                                "slice",
                                                "flatten",
                                                "sort",
                                                "reverse",
                                                "distinct",
                                                "lists.range"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

bool Vocabulary::IsTypeName(std::string_view name) {
  static constexpr std::string_view kNames[] = {"int",  "uint", "double", "string",    "bool",
                                                "list", "map",  "bytes",  "null_type", "type"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

bool Vocabulary::IsNamespace(std::string_view name) {
  return name == "cel" || name == "optional" || name == "sets" || name == "strings" ||
         name == "lists";
}

bool Vocabulary::IsReserved(std::string_view name) {
  static constexpr std::string_view kReserved[] = {
      "as",  "break", "const",   "continue",  "else",   "for", "function", "if",    "import",
      "let", "loop",  "package", "namespace", "return", "var", "void",     "while", "in"};
  return std::find(std::begin(kReserved), std::end(kReserved), name) != std::end(kReserved);
}

}  // namespace dra::cel
