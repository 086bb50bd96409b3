#pragma once

#include <optional>
#include <string_view>

#include "controller/cel/Ast.h"

namespace dra::cel {

// The names the parser resolves at compile time: functions, extension
// functions, macros, type names, namespaces and reserved words.
class Vocabulary {
 public:
  // The built-in function `name` calls; nullopt for extensions and unknowns.
  static std::optional<Function> FunctionNamed(std::string_view name);
  // Functions of the extension libraries the DRA environment enables
  // (strings v2, Kubernetes lists v1 and regex, sets, optional types),
  // evaluated by name.
  static bool IsExtension(std::string_view name);
  // The macro a member call `name(...)` expands to, if any.
  static std::optional<Macro> MacroNamed(std::string_view name);
  // Identifiers that name a type, as type() returns them.
  static bool IsTypeName(std::string_view name);
  // Namespaces whose members are called as ns.function(...).
  static bool IsNamespace(std::string_view name);
  static bool IsReserved(std::string_view name);
};

}  // namespace dra::cel
