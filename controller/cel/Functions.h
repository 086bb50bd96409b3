#pragma once

#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// Built-in functions and methods. `args` holds the receiver first for method
// calls; no argument is an error value.
class Functions {
 public:
  static Value Call(const Node& call, const std::vector<Value>& args);

 private:
  static Value String(const Node& call, const std::vector<Value>& args);
  static Value Quantity(const Node& call, const std::vector<Value>& args);
  static Value Semver(const Node& call, const std::vector<Value>& args);
  static Value Convert(const Node& call, const std::vector<Value>& args);
  static Value Extension(const Node& call, const std::vector<Value>& args);
  static Value Size(const Node& call, const std::vector<Value>& args);
  static Value Matches(const Node& call, const std::string& text, const std::string& pattern);
};

}  // namespace dra::cel
